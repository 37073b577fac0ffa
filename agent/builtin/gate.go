package builtin

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// rx is a rule's regular expression behind a cheap gate. Most rules are
// long alternations of words, and Go runs each over the whole message,
// some microseconds per KB each; a message mentioning none of a rule's
// words cannot match it, so the gate looks for them first (a substring
// search, case folded) and answers "no match" without running the
// expression. The answers are exactly the expression's: the words come
// from its syntax, and only a message containing none is turned away.
//
// The expression and its words are built when the rule is first used,
// not at package initialisation: a program that links the planner but
// never plans (the CLI) does not pay for a hundred expressions.
type rx struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
	// words are folded strings of which every match contains one; nil
	// means no such set is known and the expression always runs.
	words []string
}

// compile returns the rule for pattern, compiled with its gate when
// first used. A pattern that does not compile panics then, as
// regexp.MustCompile does; TestGateKeepsAnswers compiles every rule.
func compile(pattern string) *rx { return &rx{pattern: pattern} }

// load compiles the expression and finds the gate's words, once.
func (r *rx) load() *rx {
	r.once.Do(func() {
		r.re = regexp.MustCompile(r.pattern)
		if re, err := syntax.Parse(r.pattern, syntax.Perl); err == nil {
			for _, w := range required(re.Simplify()) {
				r.words = append(r.words, fold(w))
			}
		}
	})
	return r
}

// String returns the pattern.
func (r *rx) String() string { return r.pattern }

// maybe reports whether s may match: it holds one of the words.
func (r *rx) maybe(s string) bool {
	if r.load().words == nil {
		return true
	}
	f := fold(s)
	for _, w := range r.words {
		if strings.Contains(f, w) {
			return true
		}
	}
	return false
}

func (r *rx) MatchString(s string) bool { return r.maybe(s) && r.re.MatchString(s) }

func (r *rx) FindString(s string) string {
	if !r.maybe(s) {
		return ""
	}
	return r.re.FindString(s)
}

func (r *rx) FindStringIndex(s string) []int {
	if !r.maybe(s) {
		return nil
	}
	return r.re.FindStringIndex(s)
}

func (r *rx) FindStringSubmatch(s string) []string {
	if !r.maybe(s) {
		return nil
	}
	return r.re.FindStringSubmatch(s)
}

func (r *rx) FindStringSubmatchIndex(s string) []int {
	if !r.maybe(s) {
		return nil
	}
	return r.re.FindStringSubmatchIndex(s)
}

func (r *rx) FindAllString(s string, n int) []string {
	if !r.maybe(s) {
		return nil
	}
	return r.re.FindAllString(s, n)
}

func (r *rx) FindAllStringIndex(s string, n int) [][]int {
	if !r.maybe(s) {
		return nil
	}
	return r.re.FindAllStringIndex(s, n)
}

func (r *rx) FindAllStringSubmatch(s string, n int) [][]string {
	if !r.maybe(s) {
		return nil
	}
	return r.re.FindAllStringSubmatch(s, n)
}

func (r *rx) ReplaceAllString(s, repl string) string {
	if !r.maybe(s) {
		return s
	}
	return r.re.ReplaceAllString(s, repl)
}

// required returns strings of which every match of re contains at least
// one, or nil if it knows none.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{string(re.Rune)}
	case syntax.OpCharClass:
		// A small class: each of its characters.
		var ws []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1]-re.Rune[i] >= 16 || len(ws) > 32 {
				return nil
			}
			for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
				ws = append(ws, string(c))
			}
		}
		return ws
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			w := required(sub)
			if w == nil {
				return nil
			}
			all = append(all, w...)
		}
		return all
	case syntax.OpConcat:
		// Any part's words will do; the rarest are the longest.
		var best []string
		for _, sub := range re.Sub {
			if w := required(sub); w != nil && (best == nil || shortest(w) > shortest(best)) {
				best = w
			}
		}
		return best
	}
	return nil
}

// shortest is the length of the shortest of ws.
func shortest(ws []string) int {
	n := -1
	for _, w := range ws {
		if n < 0 || len(w) < n {
			n = len(w)
		}
	}
	return n
}

// fold maps every rune of s to the smallest rune it matches case
// insensitively (a, A → A; k, K, the Kelvin sign → K), so strings equal
// under (?i) fold to the same string.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z':
			b.WriteByte(byte(r - 'a' + 'A'))
		case r < utf8.RuneSelf:
			b.WriteByte(byte(r))
		default:
			least := r
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				least = min(least, f)
			}
			b.WriteRune(least)
		}
	}
	return b.String()
}
