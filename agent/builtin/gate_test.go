package builtin

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestGateKeepsAnswers checks that the gates never change a rule's
// answer: on the evaluation's messages, the hostile shapes and random
// mixes of each rule's own words, case changed, every gated expression
// answers as the bare one.
func TestGateKeepsAnswers(t *testing.T) {
	var texts []string
	f, err := os.Open("../../testdata/evals/tool_selection.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c struct {
			Input string `json:"input"`
		}
		if json.Unmarshal(sc.Bytes(), &c) == nil && c.Input != "" {
			texts = append(texts, c.Input, normalize(c.Input), strings.ToUpper(c.Input))
		}
	}
	if len(texts) < 300 {
		t.Fatalf("only %d evaluation messages read", len(texts))
	}
	for _, sh := range hostileShapes {
		texts = append(texts, sh.make(1024))
	}
	gated := 0
	for _, r := range allRx {
		if r.words != nil {
			gated++
		}
	}
	if gated < len(allRx)*3/4 {
		t.Errorf("only %d of %d rules gated", gated, len(allRx))
	}
	rng := rand.New(rand.NewPCG(3, 7))
	for _, r := range allRx {
		all := texts
		for range 200 {
			var b strings.Builder
			for range 1 + rng.IntN(4) {
				if len(r.words) > 0 && rng.IntN(2) == 0 {
					w := r.words[rng.IntN(len(r.words))]
					if rng.IntN(2) == 0 {
						w = strings.ToLower(w)
					}
					b.WriteString(w)
				} else {
					b.WriteString([]string{" ", "a", "ls -la ", "/var/log", "的", "？", "K", "\u212a", "\xff", "吗"}[rng.IntN(10)])
				}
			}
			all = append(all, b.String())
		}
		for _, s := range all {
			if got, want := r.MatchString(s), r.Regexp.MatchString(s); got != want {
				t.Errorf("%s on %.80q: gated %v, bare %v", r, s, got, want)
			}
		}
	}
}

// TestGatesTurnHostileTextsAway checks that on the hostile shapes of
// BenchmarkPlanPerKB at 16 KiB, the texts that made every rule scan them
// whole, at most half the rules run their expression (without gates,
// all of them did, at some 100-400 ms a plan).
func TestGatesTurnHostileTextsAway(t *testing.T) {
	for _, sh := range hostileShapes {
		in := sh.make(16 << 10)
		n := 0
		for _, r := range allRx {
			if r.maybe(in) {
				n++
			}
		}
		if n > len(allRx)/2 {
			t.Errorf("%s: %d of %d rules run", sh.name, n, len(allRx))
		}
	}
}
