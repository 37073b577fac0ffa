package tools

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
)

// redacted replaces a secret in the arguments shown to the user.
const redacted = "***"

// secretName is a name (an option without its dashes, a variable, a
// "name: value" label, a config key) that names a secret: one word of
// letters, digits, '_' and '-' holding password, passwd, passphrase,
// secret, credential, bearer, an api/access/private/
// secret/signing/encryption/ssh/session/master key, token (not tokens,
// tokenizer), requirepass, masterauth, pass, auth, salt or dsn as a part
// of its own (db-pass, DB_PASS, --auth, SENTRY_DSN; not passive, bypass,
// author, basalt), or pwd as its own part (--pwd, DB_PWD, MYSQL_PWD,
// pwd, dbPwd; not the variable PWD, the working directory). It is the
// one list of these names: a key whose value is a secret (SecretKey),
// the option that takes a secret as its next argument (--access-token
// X, --db-password X) and the "name=value" form (--access-token=X,
// GITHUB_TOKEN=X) all use it.
const secretName = `[\w-]*` + secretPart + `[\w-]*`

// secretPart is the part of a word that makes it a secret's name
// (secretName); a key holding it is one (SecretKey).
const secretPart = `(?:password|passwd|passphrase|secret|credential|bearer|requirepass|masterauth|` +
	`(?:api|access|private|secret|signing|encryption|ssh|session|master)[_-]?key|token(?:\b|[_0-9])|` +
	`(?:\b|_)(?:pass|auth|salt|dsn)(?:\b|_)|[_-]pwd(?:\b|_)|(?-i:(?:\b|[a-z])[pP]wd\b))`

// secretHeader is an HTTP header that carries a secret.
const secretHeader = `(?:proxy-)?authorization|cookie|x-api-key`

// secretValue is the value a secret name is given: quoted, or up to the
// next space.
const secretValue = `("[^"]*"|'[^']*'|\S+)`

var (
	// reSecretKey is a key whose value is a secret (SecretKey): a
	// secret's name, or a header that carries one.
	reSecretKey = regexp.MustCompile(`(?i)` + secretPart + `|^(?:` + secretHeader + `)$`)
	// reSecretOption is an option that takes a secret as its next
	// argument ("--password", "--token", "--access-token").
	reSecretOption = regexp.MustCompile(`(?i)^--?` + secretName + `$`)
	// secretPatterns find secrets inside a string, with what replaces
	// them.
	secretPatterns = []struct {
		re   *regexp.Regexp
		repl string
	}{
		// --password=x, token: x, api_key=x, PGPASSWORD=x
		{regexp.MustCompile(`(?i)((?:\b|-)` + secretName + `\s*[=:]\s*)` + secretValue), "${1}" + redacted},
		// --password x, --db-password x, -token x: the word after an
		// option named like a secret (not another option).
		{regexp.MustCompile(`(?i)((?:^|[\s'"])--?` + secretName + `[ \t]+)("[^"]*"|'[^']*'|[^\s-]\S*)`), "${1}" + redacted},
		// Redis: "requirepass x", "masterauth x" (redis.conf, CONFIG
		// SET), redis-cli -a x.
		{regexp.MustCompile(`(?i)(\b(?:requirepass|masterauth)[ \t]+)` + secretValue), "${1}" + redacted},
		{regexp.MustCompile(`(\bredis-cli\b[^|;&\n]*?[ \t]-a[ \t]+)` + secretValue), "${1}" + redacted},
		// SQL: PASSWORD 'x', IDENTIFIED BY 'x'.
		{regexp.MustCompile(`(?i)(\b(?:password|identified[ \t]+by)[ \t]+)('[^']*'|"[^"]*")`), "${1}" + redacted},
		// Authorization: Bearer x, Cookie: x
		{regexp.MustCompile(`(?i)\b(` + secretHeader + `)(\s*:\s*)(?:(bearer|basic|token|digest)\s+)?\S+`), "${1}${2}${3} " + redacted},
		// https://user:password@host, redis://:password@host
		{regexp.MustCompile(`(://[^/\s:@]*:)[^/\s@]+@`), "${1}" + redacted + "@"},
		// A Go MySQL DSN: user:password@tcp(host:3306)/db
		{regexp.MustCompile(`(\b[\w.-]+:)[^\s@/:]+(@(?:tcp|unix|udp)\()`), "${1}" + redacted + "${2}"},
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
	reHasDigit  = regexp.MustCompile(`[0-9]`)
	reBase64    = regexp.MustCompile(`^[A-Za-z0-9+/]{32,}={0,2}$`)
	reHasLetter = regexp.MustCompile(`[A-Za-z]`)
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
		command, _ := x["command"].(string)
		for k, e := range x {
			if reSecretKey.MatchString(k) {
				if s, ok := e.(string); ok && s == "" {
					continue
				}
				x[k], *changed = redacted, true
				continue
			}
			if args, ok := e.([]any); ok && k == "args" {
				redactMySQLArgs(command, args, changed)
				redactRedisArgs(command, args, changed)
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

// SecretKey reports whether a key (a JSON or config key, a variable's
// name, an option without its dashes) names a secret — password, token,
// api_key, MYSQL_PWD, requirepass … (secretName) — whose value Redact
// hides: the one rule for answers that show settings too.
func SecretKey(k string) bool { return reSecretKey.MatchString(k) }

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

// RedactArgs returns a command's arguments as they may be shown or
// logged, args itself unchanged: the argument after an option such as
// --password or --token, the value of "--password=…" and the like, a
// MySQL client's -pSECRET, credentials in URLs and strings that look
// like keys are "***" (as in Redact), and an argument that is a URL
// has its password and query values hidden too (RedactURL).
func RedactArgs(command string, args []string) []string {
	if args == nil {
		return nil
	}
	vs := make([]any, len(args))
	for i, a := range args {
		vs[i] = a
	}
	changed := false
	redactMySQLArgs(command, vs, &changed)
	redactRedisArgs(command, vs, &changed)
	redactValue(vs, &changed)
	out := make([]string, len(args))
	for i, v := range vs {
		s, _ := v.(string)
		if strings.Contains(s, "://") {
			s = RedactURL(s)
		}
		out[i] = s
	}
	return out
}

// RedactURL returns u with its password and the values of its query
// "***" (a value that is a whole ${VAR} reference, which is no secret,
// is kept); a u that is not an absolute URL is returned through
// RedactString, what stands between "scheme://user:" and its last '@'
// hidden first (a password with an unescaped '/').
func RedactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Scheme == "" || p.Host == "" {
		// A password with a '/' or '%' unescaped is what makes many a
		// URL unparsable: hide up to the last '@' of the authority.
		return RedactString(reLooseUserinfo.ReplaceAllString(u, "${1}"+redacted+"@"))
	}
	if _, ok := p.User.Password(); ok {
		p.User = url.UserPassword(p.User.Username(), redacted)
	}
	if p.RawQuery != "" {
		parts := strings.Split(p.RawQuery, "&")
		for i, kv := range parts {
			if k, v, ok := strings.Cut(kv, "="); ok && v != "" && !reWholeRef.MatchString(v) {
				parts[i] = k + "=" + redacted
			}
		}
		p.RawQuery = strings.Join(parts, "&")
	}
	// String escapes the "***" of a password: put it back as written.
	return strings.Replace(p.String(), ":"+url.PathEscape(redacted)+"@", ":"+redacted+"@", 1)
}

// reLooseUserinfo is "scheme://user:" and the password after it, up to
// the last '@' before a space, in a URL that does not parse.
var reLooseUserinfo = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]*:)[^\s]*@`)

// reWholeRef is a value that is one ${VAR} reference.
var reWholeRef = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}$`)
