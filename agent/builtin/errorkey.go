package builtin

import (
	"encoding/json"
	"regexp"
	"strings"
)

// sev is a log line's severity as an errors answer counts it.
type sev int

const (
	sevNone sev = iota
	sevWarn
	sevError
)

// maskers replace what differs between two occurrences of one error —
// timestamps, UUIDs, hex, IP addresses, paths, ids and numbers — by a
// placeholder, in this order (a timestamp before its numbers).
var maskers = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?(Z|[+-]\d{2}:?\d{2})?|\d{2}/[A-Z][a-z]{2}/\d{4}(:\d{2}:\d{2}:\d{2})?( [+-]\d{4})?|\b[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}\b|\b\d{2}:\d{2}:\d{2}([.,]\d+)?\b`), "<time>"},
	{regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`), "<uuid>"},
	{regexp.MustCompile(`(?i)\b0x[0-9a-f]+\b`), "<hex>"},
	{regexp.MustCompile(`\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b`), "<ip>"},
	{regexp.MustCompile(`(^|[\s=:"'(\[])(/[\w.@%+-]+)+/?`), "$1<path>"},
	// A word of letters and digits (a trace id, a pod's suffix, a hex
	// digest) is an id; a word of letters only is not.
	{regexp.MustCompile(`\b[A-Za-z_-]*\d[\w-]*[A-Za-z][\w-]*\b|\b[0-9a-f]{8,}\b`), "<id>"},
}

// reNumber is a number, masked as "<n>" but for a status code
// (maskNumbers).
var reNumber = regexp.MustCompile(`\d+(\.\d+)?`)

// reUnit is a unit after a number: "250ms", "500 ms", "200 bytes",
// "404%" make the number a measure, not a code.
var reUnit = regexp.MustCompile(`(?i)^ ?(ms|s|sec|secs|seconds?|us|ns|m|min|h|b|kb|mb|gb|kib|mib|gib|bytes?|%|x)\b`)

// maskLine is a line with what varies between occurrences masked.
func maskLine(l string) string {
	for _, m := range maskers {
		l = m.re.ReplaceAllString(l, m.with)
	}
	return strings.ToLower(strings.Join(strings.Fields(maskNumbers(l)), " "))
}

// maskNumbers replaces numbers by "<n>" but a status code — a whole
// number 100–599 of three digits, not part of a word, not a measure and
// not a key's value but a status's ("returned 502", "HTTP 404",
// "status=503"; not "500ms", "took 250 ms", "conn=170"): an error
// with another status is another error.
func maskNumbers(l string) string {
	var b strings.Builder
	done := 0
	for _, m := range reNumber.FindAllStringIndex(l, -1) {
		if statusCode(l, m[0], m[1]) {
			continue
		}
		b.WriteString(l[done:m[0]] + "<n>")
		done = m[1]
	}
	b.WriteString(l[done:])
	return b.String()
}

// statusCode reports whether l[i:j], a number, reads as a status code.
func statusCode(l string, i, j int) bool {
	if j-i != 3 || l[i] < '1' || l[i] > '5' {
		return false
	}
	if i > 0 && (isWordByte(l[i-1]) || l[i-1] == '.') || j < len(l) && (isWordByte(l[j]) || l[j] == '.') {
		return false
	}
	if i > 0 && (l[i-1] == '=' || l[i-1] == ':') {
		// "conn=170" is a count; "status=502", "code: 404" a status.
		before := strings.ToLower(strings.TrimRight(l[:i-1], " "))
		if !strings.HasSuffix(before, "status") && !strings.HasSuffix(before, "code") {
			return false
		}
	}
	return !reUnit.MatchString(l[j:])
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// severity is a line's severity, the key of its kind and the line as
// an example shows it. A JSON log line ({"level":"error","msg":…}) is
// read by its fields: its level, and its message and error make its
// kind; the example is "time level msg: error". A text line is an error
// if it has an error word before any quiet level word ("INFO retry
// after error" is information), else a warning if it has a warning
// word.
func severity(l string) (sev, string, string) {
	if strings.HasPrefix(l, "{") {
		if s, key, example, ok := jsonSeverity(l); ok {
			return s, key, example
		}
	}
	e := reErrorLevel.FindStringIndex(l)
	if q := reQuietLevel.FindStringIndex(l); q != nil && (e == nil || q[0] < e[0]) {
		return sevNone, "", ""
	}
	switch {
	case e != nil:
		return sevError, maskLine(l), l
	case reWarnLevel.MatchString(l):
		return sevWarn, maskLine(l), l
	}
	return sevNone, "", ""
}

// jsonSeverity reads a JSON log line's level, message and error.
func jsonSeverity(l string) (sev, string, string, bool) {
	var m map[string]any
	if json.Unmarshal([]byte(l), &m) != nil {
		return sevNone, "", "", false
	}
	str := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := m[k].(string); ok {
				return v
			}
		}
		return ""
	}
	level := strings.ToLower(str("level", "lvl", "severity", "log.level", "levelname"))
	if level == "" {
		return sevNone, "", "", false
	}
	msg, cause := str("msg", "message", "event"), str("error", "err", "exception", "error.message")
	key := maskLine(level + " " + msg + " " + cause)
	example := strings.TrimSpace(str("ts", "time", "timestamp", "@timestamp") + " " + level + " " + msg)
	if cause != "" {
		example += ": " + cause
	}
	switch level {
	case "error", "err", "fatal", "panic", "critical", "crit", "alert", "emerg", "emergency", "severe", "dpanic":
		return sevError, key, example, true
	case "warn", "warning":
		return sevWarn, key, example, true
	}
	return sevNone, "", "", true
}
