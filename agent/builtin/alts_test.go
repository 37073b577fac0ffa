package builtin

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// sameAnswers reports the first answer of r on s that differs from its
// bare expression's, or "".
func sameAnswers(r *rx, s string) string {
	re := r.re
	switch {
	case r.MatchString(s) != re.MatchString(s):
		return "MatchString"
	case r.FindString(s) != re.FindString(s):
		return "FindString"
	case !slices.Equal(r.FindStringIndex(s), re.FindStringIndex(s)):
		return "FindStringIndex"
	case !slices.Equal(r.FindAllString(s, -1), re.FindAllString(s, -1)):
		return "FindAllString"
	case !slices.EqualFunc(r.FindAllStringIndex(s, -1), re.FindAllStringIndex(s, -1), slices.Equal):
		return "FindAllStringIndex"
	case !slices.EqualFunc(r.FindAllStringIndex(s, 2), re.FindAllStringIndex(s, 2), slices.Equal):
		return "FindAllStringIndex(2)"
	case r.ReplaceAllString(s, " ") != re.ReplaceAllString(s, " "):
		return "ReplaceAllString"
	case r.ReplaceAllString(s, "<$1>") != re.ReplaceAllString(s, "<$1>"):
		return "ReplaceAllString($1)"
	}
	return ""
}

// branchWords are the words of every branch of r, as written (some
// lower-cased) and folded, for texts that match several branches.
func branchWords(r *rx) []string {
	var ws []string
	for _, sets := range r.alts.needs {
		for _, set := range sets {
			for _, w := range set {
				ws = append(ws, w, strings.ToLower(w))
			}
		}
	}
	return ws
}

// TestNarrowedKeepsAnswers checks that narrowing an alternation to the
// branches a message may match (alts.go) never changes an answer: for
// every rule that is an alternation (reInert and rePastEvent among
// them), on the evaluation's messages and on random texts made of the
// branches' own words — several branches matching, overlapping, next
// to each other — every answer of the gated rule equals the bare
// expression's, the one regexp.MustCompile(pattern) gives.
func TestNarrowedKeepsAnswers(t *testing.T) {
	texts := evalInputs(t, "../../testdata/evals/tool_selection.jsonl")
	n := 250
	if underRace {
		n = 60
	}
	texts = texts[:min(len(texts), n)]
	size := 1024
	if underRace {
		size = 256
	}
	for _, sh := range hostileShapes {
		texts = append(texts, sh.make(size))
	}
	var split []*rx
	for _, r := range allRules(t) {
		if r.alts != nil {
			split = append(split, r)
		}
	}
	if len(split) < 20 || reInert.load().alts == nil || rePastEvent.load().alts == nil {
		t.Fatalf("%d rules split into branches; reInert %v, rePastEvent %v", len(split), reInert.alts != nil, rePastEvent.alts != nil)
	}
	split = append(split, reInert, rePastEvent)
	fill := []string{" ", "  ", "a", "the ", "last ", "ls -la ", "/var/log/x.sh", "的", "了", "吗", "？", "，", "。", "\n", "'", "\"", "「", "」", "K", "\u212a", "\xff", "nginx", "服务", "一下"}
	rng := rand.New(rand.NewPCG(16, 16))
	for _, r := range split {
		ws := branchWords(r)
		all := slices.Clone(texts)
		for range n {
			var b strings.Builder
			for range 1 + rng.IntN(12) {
				if len(ws) > 0 && rng.IntN(3) > 0 {
					b.WriteString(ws[rng.IntN(len(ws))])
				} else {
					b.WriteString(fill[rng.IntN(len(fill))])
				}
			}
			all = append(all, b.String())
		}
		for _, s := range all {
			if d := sameAnswers(r, s); d != "" {
				t.Errorf("%.60s: %s on %.80q differs from the bare expression's", r, d, s)
			}
		}
	}
}

// FuzzNarrowedKeepsAnswers: on any text, reInert, rePastEvent and the
// other alternations answer as their bare expressions.
func FuzzNarrowedKeepsAnswers(f *testing.F) {
	for _, s := range []string{"since the upgrade nginx is slow", "最后一次重启是什么时候", "不要删除任何文件，", "connection reset by peer", "last reboot", "被删了", "grep 'kill' x"} {
		f.Add(s)
	}
	rules := []*rx{reInert, rePastEvent, reDangerZh, reRestartWords, reNotRestart}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range rules {
			r.load()
			if d := sameAnswers(r, s); d != "" {
				t.Errorf("%.60s: %s on %q differs from the bare expression's", r, d, s)
			}
		}
	})
}

// evalInputs is the input of every case of the eval file at path, in
// order (the property tests and the decision oracle read them).
func evalInputs(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var inputs []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c struct {
			Input string `json:"input"`
		}
		if json.Unmarshal(sc.Bytes(), &c) == nil && c.Input != "" {
			inputs = append(inputs, c.Input)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return inputs
}
