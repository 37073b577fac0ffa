package mcp

import (
	"cmp"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"opsassist/tools"
)

// minSecretLen is the shortest configured value treated as a secret:
// shorter ones ("1", "yes") would blank out ordinary words.
const minSecretLen = 4

// urlExtras matches a URL quoted in a text, its userinfo and query
// apart: "$1$2" is the URL without them.
var urlExtras = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)(?:[^/\s"'@]*@)?([^\s"'?#]*)(?:\?[^\s"'#]*)?`)

// redactor hides one server's configured secrets in the text the
// manager shows or logs: its Env and Headers values, its URL's password
// and query values, the secrets tools.RedactArgs finds in its Args
// (--password=…, --token …, a URL's password) — all as expanded from
// ${VAR} — and its Hidden values, each replaced by "***", and any URL
// quoted without userinfo and query — on top of tools.RedactString.
type redactor struct {
	secrets []string // longest first, so no secret is cut by a shorter one
}

func newRedactor(sc ServerConfig) *redactor {
	r := &redactor{}
	var vals []string
	for _, v := range sc.Env {
		vals = append(vals, v)
	}
	for _, v := range sc.Headers {
		vals = append(vals, v)
		// "Bearer xyz": the token alone may be quoted too.
		if _, tok, ok := strings.Cut(v, " "); ok {
			vals = append(vals, tok)
		}
	}
	vals = append(vals, sc.Hidden...)
	red := tools.RedactArgs(sc.Command, sc.Args)
	for i, a := range sc.Args {
		if red[i] != a {
			vals = append(vals, hidden(a, red[i])...)
		}
	}
	if u, err := url.Parse(sc.URL); err == nil && sc.URL != "" {
		if p, ok := u.User.Password(); ok {
			vals = append(vals, p, url.QueryEscape(p), url.PathEscape(p))
		}
		for _, vs := range u.Query() {
			for _, v := range vs {
				vals = append(vals, v, url.QueryEscape(v))
			}
		}
	}
	for _, v := range vals {
		if len(v) >= minSecretLen && !slices.Contains(r.secrets, v) {
			r.secrets = append(r.secrets, v)
		}
	}
	slices.SortFunc(r.secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return r
}

// String is s with the server's secrets hidden.
func (r *redactor) String(s string) string {
	if r == nil {
		return tools.RedactString(urlExtras.ReplaceAllString(s, "$1$2"))
	}
	s = urlExtras.ReplaceAllString(s, "$1$2")
	for _, v := range r.secrets {
		s = replaceWord(s, v, "***")
	}
	return tools.RedactString(s)
}

// Error is err with its text redacted; errors.Is and errors.As still
// see err. nil stays nil.
func (r *redactor) Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if red := r.String(msg); red != msg {
		return &redactedError{err: err, msg: red}
	}
	return err
}

// redactedError is an error whose text had secrets in it.
type redactedError struct {
	err error
	msg string
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// replaceWord replaces old in s with new where it stands as a whole
// word: not where a letter or digit continues it, so a value such as
// "serve" leaves "server" alone.
func replaceWord(s, old, new string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			break
		}
		j := i + len(old)
		if wordByte(s, i-1) && wordByte(old, 0) || wordByte(s, j) && wordByte(old, len(old)-1) {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(new)
		s = s[j:]
	}
	b.WriteString(s)
	return b.String()
}

// wordByte reports whether s[i] exists and is a letter or digit.
func wordByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// hidden returns the parts of orig that red, orig redacted, shows as
// "***"; the whole of orig when they cannot be told apart.
func hidden(orig, red string) []string {
	const marker = "***"
	pieces := strings.Split(red, marker)
	if len(pieces) < 2 || !strings.HasPrefix(orig, pieces[0]) {
		return []string{orig}
	}
	var out []string
	pos := len(pieces[0])
	for i, p := range pieces[1:] {
		var j int
		if i == len(pieces)-2 {
			// The last piece ends orig.
			j = len(orig) - len(p)
			if j < pos || !strings.HasSuffix(orig, p) {
				return []string{orig}
			}
		} else if j = strings.Index(orig[pos:], p); j < 0 {
			return []string{orig}
		} else {
			j += pos
		}
		out = append(out, orig[pos:j])
		pos = j + len(p)
	}
	return out
}
