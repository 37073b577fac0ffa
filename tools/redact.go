package tools

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"strings"
)

// redacted replaces a secret in the arguments shown to the user.
const redacted = "***"

var (
	// reSecretKey is an object key whose value is a secret.
	reSecretKey = regexp.MustCompile(`(?i)pass(word|wd)?|secret|token|api[_-]?key|credential|private[_-]?key|^auth`)
	// reSecretOption is an option that takes a secret as its next
	// argument ("--password", "--token").
	reSecretOption = regexp.MustCompile(`(?i)^--?(password|passwd|pass|token|secret|api-?key|access-key|secret-key|auth-token)$`)
	// secretPatterns find secrets inside a string, with what replaces
	// them.
	secretPatterns = []struct {
		re   *regexp.Regexp
		repl string
	}{
		// --password=x, token: x, api_key=x, PGPASSWORD=x
		{regexp.MustCompile(`(?i)(\b[\w-]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key)[\w-]*\s*[=:]\s*)("[^"]*"|'[^']*'|\S+)`), "${1}" + redacted},
		// Authorization: Bearer x, Cookie: x
		{regexp.MustCompile(`(?i)\b((?:proxy-)?authorization|cookie|x-api-key)(\s*:\s*)(?:(bearer|basic|token|digest)\s+)?\S+`), "${1}${2}${3} " + redacted},
		// https://user:password@host
		{regexp.MustCompile(`(://[^/\s:@]+:)[^/\s@]+@`), "${1}" + redacted + "@"},
		// Key-looking strings: OpenAI, GitHub, AWS, Slack keys, JWTs,
		// PEM bodies.
		{regexp.MustCompile(`\b(?:sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|AKIA[0-9A-Z]{16}|xox[abpr]-[A-Za-z0-9-]{10,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+)`), redacted},
		{regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`), redacted},
		// GitLab tokens; AWS access key ids inside a longer word too.
		{regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}`), redacted},
		{regexp.MustCompile(`AKIA[0-9A-Z]{16}`), redacted},

		// Long runs of letters and digits, as keys and tokens are.
		{regexp.MustCompile(`[A-Za-z0-9+/_=.-]{32,}`), ""},
	}
	// reMySQLClient is a MySQL or MariaDB client where a command starts:
	// at the start, after | ; & ( or sudo, or as docker/kubectl exec's
	// command; a path before its name is allowed.
	reMySQLClient = regexp.MustCompile(`(?:^|[|;&(]|\bsudo|\bexec(?:\s+-\S+)*\s+\S+(?:\s+--)?)\s*(?:\S*/)?(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb|mariadb-dump)(?:\s|$)`)
	// reMySQLPassword is -pSECRET (quoted or not) in a client's command:
	// the password glued to -p (never -P, the port; -p alone prompts).
	reMySQLPassword = regexp.MustCompile(`(^|\s)-p(?:'[^']*'|"[^"]*"|[^\s'"]+)`)
	reHasDigit      = regexp.MustCompile(`[0-9]`)
	reBase64        = regexp.MustCompile(`^[A-Za-z0-9+/]{32,}={0,2}$`)
	reHasLetter     = regexp.MustCompile(`[A-Za-z]`)
)

// Redact returns the arguments as the user is shown them, secrets
// replaced by "***": values of keys named like secrets, the argument
// after an option such as --password, "--password=…", "token: …",
// Authorization and Cookie headers, credentials in URLs and strings that
// look like keys. It returns nil when nothing was redacted (or args is
// not JSON): the arguments are shown as they are.
func Redact(args json.RawMessage) json.RawMessage {
	var v any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	changed := false
	v = redactValue(v, &changed)
	if !changed {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

func redactValue(v any, changed *bool) any {
	switch x := v.(type) {
	case map[string]any:
		mysql := isMySQLClient(x["command"])
		for k, e := range x {
			if reSecretKey.MatchString(k) {
				if s, ok := e.(string); ok && s == "" {
					continue
				}
				x[k], *changed = redacted, true
				continue
			}
			if args, ok := e.([]any); ok {
				redactMySQLArgs(args, mysql, changed)
			}
			x[k] = redactValue(e, changed)
		}
		return x
	case []any:
		for i, e := range x {
			if i > 0 {
				if prev, ok := x[i-1].(string); ok && reSecretOption.MatchString(prev) {
					x[i], *changed = redacted, true
					continue
				}
			}
			x[i] = redactValue(e, changed)
		}
		return x
	case string:
		s := RedactString(x)
		if s != x {
			*changed = true
		}
		return s
	}
	return v
}

// RedactString replaces the secrets found in one string (see Redact).
func RedactString(s string) string {
	s = redactMySQL(s)
	for _, p := range secretPatterns {
		if p.repl != "" {
			s = p.re.ReplaceAllString(s, p.repl)
			continue
		}
		s = p.re.ReplaceAllStringFunc(s, func(m string) string {
			// A path or a file name is not a key: keys have no slashes
			// (but base64's), no more than a few separators, and both
			// letters and digits.
			if strings.Contains(m, "/") && (strings.HasPrefix(m, "/") || !reBase64.MatchString(m)) ||
				strings.Count(m, "-")+strings.Count(m, "_")+strings.Count(m, ".") > 2 ||
				!reHasDigit.MatchString(m) || !reHasLetter.MatchString(m) {
				return m
			}
			return redacted
		})
	}
	return s
}

// redactMySQL replaces the password of every -pSECRET in the command
// of a MySQL client (reMySQLClient), up to the end of that command
// (| ; & or a newline).
func redactMySQL(s string) string {
	locs := reMySQLClient.FindAllStringIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	done := 0
	for _, loc := range locs {
		if loc[1] <= done {
			continue
		}
		start := max(loc[1]-1, done) // keep the space after the name: reMySQLPassword wants it
		end := len(s)
		if i := strings.IndexAny(s[start:], "|;&\n"); i >= 0 {
			end = start + i
		}
		b.WriteString(s[done:start])
		b.WriteString(reMySQLPassword.ReplaceAllString(s[start:end], "${1}-p"+redacted))
		done = end
	}
	b.WriteString(s[done:])
	return b.String()
}

// redactMySQLArgs replaces -pSECRET in an argument list once a MySQL
// client is the command run: the call's command (client), or an
// element that starts a command (sudo mysql …, docker exec db mysql …,
// kubectl exec pod -- mysql …) — not "-u mysql".
func redactMySQLArgs(args []any, client bool, changed *bool) {
	for i, a := range args {
		s, ok := a.(string)
		switch {
		case !ok:
		case client && len(s) > 2 && strings.HasPrefix(s, "-p"):
			args[i], *changed = "-p"+redacted, true
		case isMySQLClient(s) && (i == 0 || args[i-1] == "--" || i >= 2 && args[i-2] == "exec"):
			client = true // the command run: sudo mysql, docker exec db mysql, … -- mysql
		}
	}
}

// isMySQLClient reports whether a command value names a MySQL or
// MariaDB client, whose -pSECRET glues the password to the option.
func isMySQLClient(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	switch path.Base(first) {
	case "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mariadb", "mariadb-dump":
		return true
	}
	return false
}
