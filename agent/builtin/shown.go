package builtin

import (
	"strings"

	"opsassist/internal/confkv"
	"opsassist/internal/runecut"
	"opsassist/tools"
)

// Bounds of quoted text.
const (
	// maxQuotedLineBytes caps a line an answer quotes, cut at a rune
	// boundary with "…".
	maxQuotedLineBytes = 500
	// redactWindowBytes is how much of a long line is searched for
	// secrets before it is cut: a secret that starts within the part
	// shown ends within it.
	redactWindowBytes = 4 * maxQuotedLineBytes
	// maxPathShownBytes caps a setting's path as an answer shows it:
	// its beginning and its end, "…" between.
	maxPathShownBytes = 120
)

// shownPath is a setting's path as an answer shows it, at most about
// maxPathShownBytes: a longer one keeps its beginning and its last key,
// "…" between (confkv caps each key at confkv.MaxKeyBytes, but a deep
// path repeats every key above it).
func shownPath(p string) string {
	if len(p) <= maxPathShownBytes {
		return p
	}
	return runecut.Head(p, maxPathShownBytes/2) + "…" + runecut.Tail(p, maxPathShownBytes/2-len("…"))
}

// shownLine is a line of a file, a log or a command line as an answer
// quotes it: its secrets hidden by the one rule (tools.RedactString:
// secret keys and options, Redis's requirepass and redis-cli -a, URL
// passwords, DSNs, key-like strings), on one line, at most
// maxQuotedLineBytes. It is the one place the offline answers quote
// file or command text — quoted lines, address lines, the beginning of
// a file, line diffs, log examples, ps rows (quotedBlock, compareLines,
// describeErrors, describeProcesses); a setting's value goes through
// shownValue.
func shownLine(l string) string {
	if len(l) > redactWindowBytes {
		l = runecut.Head(l, redactWindowBytes)
	}
	l = tools.RedactString(strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(l))
	if len(l) > maxQuotedLineBytes {
		l = runecut.Head(l, maxQuotedLineBytes) + "…"
	}
	return l
}

// quotedBlock fences lines as an answer quotes them (shownLine).
func quotedBlock(lines []string) string {
	shown := make([]string, len(lines))
	for i, l := range lines {
		shown[i] = shownLine(l)
	}
	return codeBlock(strings.Join(shown, "\n"))
}

// setting is a parsed setting and whether its value is a secret.
type setting struct {
	confkv.Entry
	secret bool
}

// settingsOf marks the secrets among a file's settings: a setting
// under a key named like a secret (tools.SecretKey: password, MYSQL_PWD,
// requirepass …, at any depth), and an item of a list that, read as a
// command's arguments, is one (tools.RedactArgs: the item after
// "--requirepass" or redis-cli's "-a", "--password=x"): `command:
// ["redis-server", "--requirepass", "x"]`.
func settingsOf(entries []confkv.Entry) []setting {
	out := make([]setting, len(entries))
	// Paths repeat the keys above them: each key is read once.
	secretKey := map[string]bool{}
	for i, e := range entries {
		out[i] = setting{Entry: e}
		for _, k := range confkv.Segments(e.Path) {
			s, ok := secretKey[k]
			if !ok {
				s = !strings.HasPrefix(k, "[") && tools.SecretKey(k)
				secretKey[k] = s
			}
			out[i].secret = out[i].secret || s
		}
	}
	// Runs of items of one list, in order: [start, i).
	for start := 0; start < len(out); {
		list, ok := listOf(out[start].Path)
		end := start + 1
		if !ok {
			start = end
			continue
		}
		for end < len(out) {
			if l, ok := listOf(out[end].Path); !ok || l != list {
				break
			}
			end++
		}
		args := make([]string, end-start)
		for k := range args {
			args[k] = out[start+k].Value
		}
		for k, a := range tools.RedactArgs(args[0], args) {
			if a != args[k] {
				out[start+k].secret = true
			}
		}
		start = end
	}
	return out
}

// listOf is the path of the list a path is an item of ("a.args[2]" →
// "a.args"); ok is false when it is no list item.
func listOf(path string) (string, bool) {
	if !strings.HasSuffix(path, "]") {
		return "", false
	}
	i := strings.LastIndexByte(path, '[')
	if i < 0 {
		return "", false
	}
	return path[:i], true
}

// shownValue is a setting's value as an answer shows it: "***" for a
// secret, with the secrets inside it hidden (a URL's password, a
// key-like string: tools.RedactURL, tools.RedactString), `""` for an
// empty one, on one line and at most maxValueBytes.
func shownValue(e setting) string {
	if e.secret {
		return "***"
	}
	v := e.Value
	if len(v) > redactWindowBytes {
		v = runecut.Head(v, redactWindowBytes)
	}
	if strings.Contains(v, "://") {
		v = tools.RedactURL(v)
	} else {
		v = tools.RedactString(v)
	}
	v = strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(v)
	if v == "" {
		return `""`
	}
	if len(v) > maxValueBytes {
		v = runecut.Head(v, maxValueBytes) + "…"
	}
	return v
}
