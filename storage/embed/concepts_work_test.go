package embed

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// TestConceptsWorkIsLinear: the mention comparisons Concepts makes for a
// long text grow with its length, not with its square. "user " × 13000
// (two entries with 13000 mentions each) and "如何配置" × 5400 made
// every mention of one entry be compared with every mention of another
// (within, same: 13000² steps, half a second).
func TestConceptsWorkIsLinear(t *testing.T) {
	for _, unit := range []string{"user ", "如何配置", "错误日志 error log 数据库 db ", "web page 网页 "} {
		for _, n := range []int{1000, 13000} {
			text := strings.Repeat(unit, n)
			work := 0
			concepts(text, &work)
			// Each entry found compares its mentions with each other
			// entry's once or twice: a bound of glossary size × 2 per
			// mention, whatever the text.
			mentions := n * len(strings.Fields(unit))
			if bound := 2 * len(builtinGlossary) * mentions; work > bound {
				t.Errorf("%q × %d: %d comparisons, want at most %d", unit, n, work, bound)
			}
		}
	}
}

// TestConceptsAsBefore: on texts made of glossary terms the sorted
// comparisons find the concepts the pairwise ones did.
func TestConceptsAsBefore(t *testing.T) {
	var terms []string
	for _, e := range builtinGlossary {
		terms = append(terms, e.zh...)
		terms = append(terms, e.en...)
	}
	terms = append(terms, "如何", "the", "，", "x")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(terms[rng.IntN(len(terms))])
			if rng.IntN(2) == 0 {
				b.WriteString(" ")
			}
		}
		text := b.String()
		if got, want := Concepts(text), pairwiseConcepts(text); !reflect.DeepEqual(got, want) {
			t.Fatalf("Concepts(%q) = %v, pairwise %v", text, got, want)
		}
	}
}

// pairwiseConcepts is Concepts as it was written first: every mention
// compared with every other, mentions deduplicated.
func pairwiseConcepts(text string) []Concept {
	type found struct {
		c     Concept
		spans []span
	}
	var all []found
	var cs []Concept
	textN, words := normWords(text)
	for _, e := range builtinGlossary {
		var f found
		for _, t := range e.zh {
			for off := 0; ; {
				i := strings.Index(textN[off:], t)
				if i < 0 {
					break
				}
				f.spans = append(f.spans, span{off + i, off + i + len(t), true})
				off += i + len(t)
			}
		}
		for _, t := range e.en {
			pat := " " + t + " "
			for off := 0; ; {
				i := strings.Index(words[off:], pat)
				if i < 0 {
					break
				}
				f.spans = append(f.spans, span{off + i + 1, off + i + 1 + len(t), false})
				off += i + len(t) + 1
			}
		}
		if len(f.spans) == 0 {
			continue
		}
		f.spans = newSpanSet(f.spans).spans
		f.c.Words = append(append([]string(nil), e.zh...), e.en...)
		for _, t := range e.zh {
			if strings.Contains(textN, t) {
				f.c.Said = append(f.c.Said, t)
			}
		}
		for _, t := range e.en {
			if strings.Contains(words, " "+t+" ") {
				f.c.Said = append(f.c.Said, t)
			}
		}
		all = append(all, f)
	}
	within := func(a, b found) bool {
		for _, s := range a.spans {
			in := false
			for _, t := range b.spans {
				in = in || s.inside(t) && t.end-t.start > s.end-s.start
			}
			if !in {
				return false
			}
		}
		return true
	}
	var out []found
next:
	for i, a := range all {
		for j, b := range all {
			if i != j && within(a, b) {
				continue next
			}
		}
		for k := range out {
			if slices.Equal(out[k].spans, a.spans) {
				out[k].c.Words = appendNew(out[k].c.Words, a.c.Words...)
				out[k].c.Said = appendNew(out[k].c.Said, a.c.Said...)
				continue next
			}
		}
		out = append(out, a)
	}
	for _, f := range out {
		cs = append(cs, f.c)
	}
	if cs == nil {
		cs = []Concept{}
	}
	return cs
}

// normWords is the text as Concepts reads it: normalised and lower case,
// and its words joined by single spaces between two spaces.
func normWords(text string) (string, string) {
	text = strings.ToLower(norm.NFKC.String(text))
	return text, " " + strings.Join(strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) || isCJK(r)
	}), " ") + " "
}
