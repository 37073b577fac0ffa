package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/bytesize"
	"opsassist/tools"
)

// ANSI styles used on terminals.
const (
	ansiDim   = "\x1b[2m"
	ansiRed   = "\x1b[31m"
	ansiReset = "\x1b[0m"
)

// maxStatusRunes caps a status line's content shown to people.
const maxStatusRunes = 160

// style wraps s in an ANSI style when tty is set.
func style(tty bool, code, s string) string {
	if !tty {
		return s
	}
	return code + s + ansiReset
}

// StatusLine formats an agent status for people: "[thinking] content"
// (typ is the tag: the status type, or statusTag's in Chinese),
// with the content cut to its first line and at most 160 characters.
func StatusLine(typ, content string) string {
	content = strings.TrimSpace(content)
	cut := false
	if i := strings.IndexByte(content, '\n'); i >= 0 {
		content, cut = strings.TrimSpace(content[:i]), true
	}
	if utf8.RuneCountInString(content) > maxStatusRunes {
		content, cut = string([]rune(content)[:maxStatusRunes]), true
	}
	if cut {
		content += "…"
	}
	if content == "" {
		return "[" + typ + "]"
	}
	return "[" + typ + "] " + content
}

// statusTags are the status types' tags in Chinese; an unknown type is
// its own tag.
var statusTags = map[string]string{
	api.StatusThinking:   "思考",
	api.StatusToolCall:   "调用",
	api.StatusToolResult: "结果",
	api.StatusGenerating: "生成",
}

// statusTag is the tag of a status line of type typ in the CLI's
// language (zh): "[思考]" rather than "[thinking]" in a Chinese REPL;
// in English the type itself, as the lines were always printed.
func statusTag(typ string, zh bool) string {
	if t, ok := statusTags[typ]; ok && zh {
		return t
	}
	return typ
}

// statusIn is an agent status's content in the CLI's language (zh): the
// agent words its statuses in the question's, but they are the CLI's UI
// (tools.StatusTexts); content it does not know is shown as sent.
func statusIn(typ, content string, zh bool) string {
	if t, ok := tools.StatusTexts(typ, content); ok {
		return t.In(zh)
	}
	return content
}

// OfferLine formats a download offer for people in the REPL, where
// /download fetches it (one-shot ask: CLI.askOfferLine).
func OfferLine(o api.Offer) string { return offerLine(false, o) }

// offerLine is OfferLine in Chinese when zh (the REPL in a zh locale).
func offerLine(zh bool, o api.Offer) string {
	return fmt.Sprintf(pick(zh, "可下载：%s（%s）— /download %s", "download offered: %s (%s) — /download %s"),
		o.Filename, bytesize.Format(o.FileSize), o.DownloadToken)
}

// textRenderer prints a reply's events as text: answer deltas as they
// arrive, status lines dimmed and errors in red on a terminal.
type textRenderer struct {
	out     io.Writer // answer text
	outTTY  bool
	status  io.Writer // status lines; nil drops them
	statTTY bool
	offers  io.Writer // download offer lines; nil drops them
	errw    io.Writer // error lines
	errTTY  bool
	md      *mdRenderer // renders answer deltas to out; nil prints them as they come
	// errText renders a server ERROR for errw; nil: its Error().
	errText func(*client.ServerError) string
	// offerText renders a download offer for offers; nil: offerLine.
	offerText func(api.Offer) string
	// zh: the CLI speaks Chinese (CLI.chinese): offers, index notices
	// and the agent's status lines are worded in it, the others in
	// English.
	zh bool

	midLine bool  // out's cursor is not at the start of a line
	err     error // first write error
}

// handle is an EventHandler.
func (r *textRenderer) handle(ev client.Event) {
	switch ev.Type {
	case client.EventDelta:
		if r.md != nil {
			r.md.Write(ev.Text)
			return
		}
		r.write(r.out, ev.Text)
		r.midLine = !strings.HasSuffix(ev.Text, "\n")
	case client.EventStatus:
		r.line(r.status, style(r.statTTY, ansiDim, StatusLine(statusTag(ev.Status.Type, r.zh), statusIn(ev.Status.Type, ev.Status.Content, r.zh))))
	case client.EventDownloadOffer:
		if r.offerText != nil {
			r.line(r.offers, r.offerText(ev.Offer))
		} else {
			r.line(r.offers, offerLine(r.zh, ev.Offer))
		}
	case client.EventIndexed:
		r.line(r.status, style(r.statTTY, ansiDim, indexedLine(r.zh, ev.Indexed)))
	case client.EventError:
		r.endLine() // an error ends the answer: its rendered tail first
		r.line(r.errw, style(r.errTTY, ansiRed, r.errorText(ev.Error)))
	case client.EventEnd:
		r.endLine()
	}
}

// errorText renders a server ERROR with errText.
func (r *textRenderer) errorText(se *client.ServerError) string {
	if r.errText == nil {
		return se.Error()
	}
	return r.errText(se)
}

// line prints s on its own line of w.
func (r *textRenderer) line(w io.Writer, s string) {
	if w == nil {
		return
	}
	if w == r.out {
		if r.md != nil {
			r.md.interrupt() // the rest of the answer's line follows the status
		}
		r.newline()
	}
	r.write(w, s+"\n")
}

// endLine moves out to the start of a line, rendering the Markdown not
// yet printed: the answer's end, or a prompt that interrupts it.
func (r *textRenderer) endLine() {
	if r.md != nil {
		r.md.Flush()
		if r.err == nil {
			r.err = r.md.err
		}
	}
	r.newline()
}

// newline moves out to the start of a line.
func (r *textRenderer) newline() {
	if r.midLine {
		r.write(r.out, "\n")
		r.midLine = false
	}
}

func (r *textRenderer) write(w io.Writer, s string) {
	if r.err != nil {
		return
	}
	_, r.err = io.WriteString(w, s)
}
