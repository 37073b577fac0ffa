package builtin

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// An alternation gates each branch of an expression that is an
// alternation at its top level, a|b|c: a branch needs every one of
// some sets of words (each set: one of its words, case folded), and a
// message lacking one cannot match the branch anywhere. The planner's
// longest rules (reInert, rePastEvent) are such alternations of twenty
// branches, each needing a Chinese verb or an English keyword, and Go
// runs every branch at every position of the message; most messages
// can match two or three of them.
//
// Running the alternation of only the branches that may match gives
// the whole expression's matches: at each position Go prefers, as Perl
// does, the first branch in order that matches there, and a branch that
// matches nowhere is never the one preferred. It gives its groups other
// numbers, so only the answers that tell no groups apart use it
// (rx.narrow).
type alternation struct {
	flags    string       // the leading flag group, such as (?i), put before every narrowed expression
	branches []string     // the branches, in order
	needs    [][][]string // per branch: sets of folded words it needs one of each
	mu       sync.Mutex
	narrowed map[uint64]*regexp.Regexp // by the set of branches kept
}

// maxNarrowed bounds the expressions compiled for one rule; past it the
// whole expression runs.
const maxNarrowed = 64

// splitAlternation returns the alternation pattern is, or nil when it
// is not one at its top level or its branches cannot be told apart
// simply (\Q, a flag group other than a leading one, more than 64
// branches). A branch without needs is always kept.
func splitAlternation(pattern string) *alternation {
	if strings.Contains(pattern, `\Q`) {
		return nil
	}
	a := &alternation{}
	rest := pattern
	if strings.HasPrefix(rest, "(?") {
		end := strings.IndexByte(rest, ')')
		if end < 0 || strings.ContainsAny(rest[:end], ":<P'") {
			return nil // a group, not flags
		}
		a.flags, rest = rest[:end+1], rest[end+1:]
	}
	depth, class, start := 0, false, 0
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '\\':
			i++
		case class:
			if c == '[' && i+1 < len(rest) && rest[i+1] == ':' {
				end := strings.Index(rest[i:], ":]")
				if end < 0 {
					return nil
				}
				i += end + 1
			} else if c == ']' {
				class = false
			}
		case c == '[':
			class = true
			if i+1 < len(rest) && rest[i+1] == '^' {
				i++
			}
			if i+1 < len(rest) && rest[i+1] == ']' {
				i++ // a ] first is a member
			}
		case c == '(':
			if depth == 0 && strings.HasPrefix(rest[i:], "(?") && !strings.HasPrefix(rest[i:], "(?:") &&
				!strings.HasPrefix(rest[i:], "(?P<") && !strings.HasPrefix(rest[i:], "(?<") {
				if end := strings.IndexAny(rest[i:], ":)"); end < 0 || rest[i+end] == ')' {
					return nil // flags changed midway
				}
			}
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			a.branches = append(a.branches, rest[start:i])
			start = i + 1
		}
	}
	a.branches = append(a.branches, rest[start:])
	if len(a.branches) < 2 || len(a.branches) > 64 || depth != 0 || class {
		return nil
	}
	if a.flags+strings.Join(a.branches, "|") != pattern {
		return nil
	}
	for _, b := range a.branches {
		re, err := syntax.Parse(a.flags+b, syntax.Perl)
		if err != nil {
			return nil
		}
		var sets [][]string
		for _, ws := range requiredAll(re.Simplify()) {
			set := make([]string, len(ws))
			for i, w := range ws {
				set[i] = fold(w)
			}
			sets = append(sets, set)
		}
		a.needs = append(a.needs, sets) // none: the branch always runs
	}
	return a
}

// requiredAll returns sets of strings such that every match of re
// contains one string of each set, or nil if it knows none.
func requiredAll(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpConcat:
		var all [][]string
		for _, sub := range re.Sub {
			all = append(all, requiredAll(sub)...)
		}
		return all
	case syntax.OpCapture, syntax.OpPlus:
		return requiredAll(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredAll(re.Sub[0])
		}
		return nil
	}
	if w := required(re); w != nil {
		return [][]string{w}
	}
	return nil
}

// pick returns the expression of the branches that folded text f may
// match, whole when it is all of them, nil when none.
func (a *alternation) pick(f string, whole *regexp.Regexp) *regexp.Regexp {
	var keep uint64
	for i, sets := range a.needs {
		if needsMet(f, sets) {
			keep |= 1 << i
		}
	}
	switch {
	case keep == 0:
		return nil
	case keep == 1<<len(a.branches)-1:
		return whole
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if re, ok := a.narrowed[keep]; ok {
		return re
	}
	if len(a.narrowed) >= maxNarrowed {
		return whole
	}
	var kept []string
	for i, b := range a.branches {
		if keep&(1<<i) != 0 {
			kept = append(kept, b)
		}
	}
	re := regexp.MustCompile(a.flags + strings.Join(kept, "|"))
	if a.narrowed == nil {
		a.narrowed = map[uint64]*regexp.Regexp{}
	}
	a.narrowed[keep] = re
	return re
}

// needsMet reports whether f holds one word of each set.
func needsMet(f string, sets [][]string) bool {
	for _, set := range sets {
		if !holdsAny(f, set) {
			return false
		}
	}
	return true
}
