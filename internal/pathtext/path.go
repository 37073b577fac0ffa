package pathtext

import (
	"strings"
	"sync/atomic"
)

// Path is a path of the server a message names.
type Path struct {
	// Text is the path as written, without quotes.
	Text string
	// Abs is true for an absolute path and one under the home
	// directory (~/…); false for a relative one (workspace/app.log).
	Abs bool
	// Quoted is true for a path written in quotes or backticks.
	Quoted bool
	// Start and End are where Text is in the message (inside its
	// quotes).
	Start, End int
}

// Dir reports whether the path is written as a directory, with its
// trailing slash.
func (p Path) Dir() bool { return strings.HasSuffix(p.Text, "/") }

// All calls yield with each path of text, left to right, until yield
// returns false.
func All(text string, yield func(Path) bool) {
	var s Scanner
	s.Scan(text, yield)
	scanned.Add(int64(s.Steps))
}

// scanned is the steps of every scan All made in this process.
var scanned atomic.Int64

// Scanned is the number of steps (Scanner.Steps) of every scan made
// through All, First, Blank, Mask, MapOutside and IndexOutside in this
// process: a cost meter that only grows, read by the tests that hold a
// caller — the offline planner — to a number of steps linear in its
// message's length, whatever the clock says.
func Scanned() int64 { return scanned.Load() }

// First is the first path of text that want accepts (any path when want
// is nil).
func First(text string, want func(Path) bool) (found Path, ok bool) {
	All(text, func(p Path) bool {
		if want == nil || want(p) {
			found, ok = p, true
			return false
		}
		return true
	})
	return found, ok
}

// Blank is s with each path it names replaced by one space: its prose.
func Blank(s string) string {
	var b strings.Builder
	last := 0
	All(s, func(p Path) bool {
		b.WriteString(s[last:p.Start])
		b.WriteByte(' ')
		last = p.End
		return true
	})
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Mask is s with each byte of the paths it names replaced by '_', so
// words found in the result are words of the prose, at the same
// offsets: the "a" of "run cat /srv/x/a.log" is part of a path.
func Mask(s string) string {
	var b []byte
	All(s, func(p Path) bool {
		if b == nil {
			b = []byte(s)
		}
		for i := p.Start; i < p.End; i++ {
			b[i] = '_'
		}
		return true
	})
	if b == nil {
		return s
	}
	return string(b)
}

// MapOutside is s with f applied to each rune outside the paths s names
// (a quoted path's quotes are outside it).
func MapOutside(s string, f func(rune) rune) string {
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	All(s, func(p Path) bool {
		b.WriteString(strings.Map(f, s[last:p.Start]))
		b.WriteString(p.Text)
		last = p.End
		return true
	})
	b.WriteString(strings.Map(f, s[last:]))
	return b.String()
}

// IndexOutside is the index of the first rune of s outside its paths
// for which f is true, or -1.
func IndexOutside(s string, f func(rune) bool) int {
	at, last := -1, 0
	first := func(from, to int) bool {
		if i := strings.IndexFunc(s[from:to], f); i >= 0 {
			at = from + i
			return true
		}
		return false
	}
	All(s, func(p Path) bool {
		if first(last, p.Start) {
			return false
		}
		last = p.End
		return true
	})
	if at < 0 {
		first(last, len(s))
	}
	return at
}
