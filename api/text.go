package api

import (
	"strings"
	"unicode/utf8"
)

// Text is one message for the user in Chinese and in English: a client
// shows the one of its user's language (the CLI its locale, the web
// page the browser's), and Both, the combined form, goes where the
// language is not known (the model, the audit log, old clients).
type Text struct {
	Zh, En string
}

// IsZero reports whether t has no text in either language.
func (t Text) IsZero() bool { return t.Zh == "" && t.En == "" }

// Both is t in both languages, Chinese first, as one string: "中文。
// English." (no space after full-width punctuation, one otherwise).
func (t Text) Both() string { return join(t.Zh, t.En) }

// In is t in Chinese when zh, in English otherwise; the other language
// when t has none in the one asked for.
func (t Text) In(zh bool) string {
	if zh && t.Zh != "" || t.En == "" {
		return t.Zh
	}
	return t.En
}

// Then is t followed by u, language by language: the Chinese sentences
// of both, then the English ones.
func (t Text) Then(u Text) Text { return Text{Zh: join(t.Zh, u.Zh), En: join(t.En, u.En)} }

// join is a and b with a space between, none after a's full-width
// punctuation, and without the space when either is empty.
func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	last, _ := utf8.DecodeLastRuneInString(a)
	if strings.ContainsRune("。！？；：）」』", last) {
		return a + b
	}
	return a + " " + b
}
