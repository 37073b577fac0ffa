package chat

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Message is err as a transport tells it to its client: the "message"
// of an HTTP error body or SSE error event, of an NPLT ERROR frame. It
// is err's text without the package prefixes that make it useful in the
// log ("history: ", "chat: ", "uploads: "…) and with the ids and names
// it quotes as they are ("conversation not found: 3f2a", not
// `history: conversation not found: "3f2a"`). A quoted text without a
// letter or digit, or with a space, a quote or a character that does
// not print, stays quoted: the quotes then say where it starts and ends. It is the
// one place the transports' error messages are made for people; the
// raw error stays in the log.
func Message(err error) string {
	if err == nil {
		return ""
	}
	return cleanText(err.Error())
}

// internalPrefix matches the package prefix of an error text: one of the
// module's packages, at the start or after a separator, and ": ".
var internalPrefix = regexp.MustCompile(`(^|[\s(:;,])(?:access|agent|api|askuser|audit|chat|client|command|config|daemon|datalock|download|embed|fileupload|history|index|indexer|ingest|llm|loopguard|mcp|mcpbridge|mcpserver|nplt|npltserver|partfile|pathguard|policy|ratelimit|rdt|rdtserver|search|sysmon|tokens|toolcall|tools|toolset|uploads|web): `)

// cleanText is Message on a text.
func cleanText(s string) string {
	for {
		t := internalPrefix.ReplaceAllString(s, "$1")
		if t == s {
			break
		}
		s = t
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		q, err := strconv.QuotedPrefix(s[i:])
		if err != nil {
			b.WriteString(s[i:])
			break
		}
		if v, err := strconv.Unquote(q); err == nil && plain(v) {
			b.WriteString(v)
		} else {
			b.WriteString(q)
		}
		s = s[i+len(q):]
	}
	return b.String()
}

// plain reports whether a quoted text reads unambiguously without its
// quotes: a letter or digit, and only printing characters other than
// spaces and quotes.
func plain(s string) bool {
	word := false
	for _, r := range s {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) || r == '"' || r == '\'' || r == '`' {
			return false
		}
		word = word || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return word
}
