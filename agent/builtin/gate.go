package builtin

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"sync/atomic"
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
// An expression that is an alternation at its top level is, past the
// gate, run with only the branches whose words the message holds
// (alts.go), for every answer that tells no groups apart.
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
	// alts gates each branch of an expression that is an alternation at
	// its top level (alts.go); nil for any other.
	alts *alternation
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
		r.alts = splitAlternation(r.pattern)
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
	return holdsAny(fold(s), r.words)
}

// holdsAny reports whether f contains one of words.
func holdsAny(f string, words []string) bool {
	for _, w := range words {
		if strings.Contains(f, w) {
			return true
		}
	}
	return false
}

// narrow is the expression to run on s for an answer that tells no
// groups apart (whether, where and what it matches, not its groups):
// the expression without the branches of its top-level alternation
// that s cannot match, nil when s cannot match at all. The answer is
// the whole expression's (alts.go).
func (r *rx) narrow(s string) *regexp.Regexp {
	if r.load().words == nil && r.alts == nil {
		return r.re
	}
	f := fold(s)
	if r.words != nil && !holdsAny(f, r.words) {
		return nil
	}
	if r.alts == nil {
		return r.re
	}
	return r.alts.pick(f, r.re)
}

func (r *rx) MatchString(s string) bool {
	re := r.narrow(s)
	return re != nil && re.MatchString(s)
}

func (r *rx) FindString(s string) string {
	re := r.narrow(s)
	if re == nil {
		return ""
	}
	return re.FindString(s)
}

func (r *rx) FindStringIndex(s string) []int {
	re := r.narrow(s)
	if re == nil {
		return nil
	}
	return re.FindStringIndex(s)
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
	re := r.narrow(s)
	if re == nil {
		return nil
	}
	return re.FindAllString(s, n)
}

func (r *rx) FindAllStringIndex(s string, n int) [][]int {
	re := r.narrow(s)
	if re == nil {
		return nil
	}
	return re.FindAllStringIndex(s, n)
}

func (r *rx) FindAllStringSubmatch(s string, n int) [][]string {
	if !r.maybe(s) {
		return nil
	}
	return r.re.FindAllStringSubmatch(s, n)
}

// ReplaceAllString is as regexp's; a repl that names no group ($)
// runs the narrowed expression.
func (r *rx) ReplaceAllString(s, repl string) string {
	if strings.Contains(repl, "$") {
		if !r.maybe(s) {
			return s
		}
		return r.re.ReplaceAllString(s, repl)
	}
	re := r.narrow(s)
	if re == nil {
		return s
	}
	return re.ReplaceAllString(s, repl)
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
//
// The rules' gates fold the same message again and again in one plan
// (some sixty rules, each folding what it is given), so the last
// message folded is kept with its fold and asked first; a string equal
// to it folds to the same string. ASCII is upper-cased byte by byte,
// and a rune that folds to no other (all of Chinese) is copied without
// asking unicode.SimpleFold.
func fold(s string) string {
	if m := lastFold.Load(); m != nil && m.s == s {
		return m.f
	}
	f := foldRunes(s)
	if len(s) >= minMemoFold {
		lastFold.Store(&foldMemo{s: s, f: f})
	}
	return f
}

// foldMemo is a string and its fold.
type foldMemo struct{ s, f string }

// lastFold is the last long string folded, shared by every plan: a pure
// function's answer, right for anyone who asks with the same string.
var lastFold atomic.Pointer[foldMemo]

// minMemoFold is the length from which a fold is kept: shorter strings
// (clauses, words) fold faster than they would be compared.
const minMemoFold = 256

// foldRunes is fold without the memo.
func foldRunes(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		b := make([]byte, len(s))
		for i := 0; i < len(s); i++ {
			c := s[i]
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			b[i] = c
		}
		return string(b)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z':
			b.WriteByte(byte(r - 'a' + 'A'))
		case r < utf8.RuneSelf:
			b.WriteByte(byte(r))
		case r < 0x10000 && foldsBMP()[r>>6]&(1<<(r&63)) == 0:
			b.WriteRune(r) // folds to no other rune
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

// foldsBMP is a bit per rune of the Basic Multilingual Plane, set when
// unicode.SimpleFold maps the rune to another (its case orbit has more
// than itself), built when first needed.
var foldsBMP = sync.OnceValue(func() *[1024]uint64 {
	var bits [1024]uint64
	for r := rune(0); r < 0x10000; r++ {
		if unicode.SimpleFold(r) != r {
			bits[r>>6] |= 1 << (r & 63)
		}
	}
	return &bits
})
