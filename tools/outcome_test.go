package tools

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestModelViewAlwaysFits is a property test of the cap on the model's
// view: whatever the output and error (escape-heavy, CJK, invalid UTF-8,
// tiny or huge) and whatever the cap, ForModel is valid JSON, valid
// UTF-8 and at most MaxModelOutput bytes.
func TestModelViewAlwaysFits(t *testing.T) {
	check := func(t *testing.T, limit int, out json.RawMessage, errText string) {
		t.Helper()
		r := NewRegistry(Config{MaxModelOutput: limit})
		o := r.outcome("x", Result{Success: errText == "", Output: out, Error: errText, DurationMS: 1234567})
		var m map[string]any
		if len(o.ForModel) > r.cfg.MaxModelOutput || !utf8.ValidString(o.ForModel) || json.Unmarshal([]byte(o.ForModel), &m) != nil {
			t.Fatalf("cap %d, output %d bytes, error %d bytes: model view %d bytes, valid UTF-8 %v: %.120q",
				limit, len(out), len(errText), len(o.ForModel), utf8.ValidString(o.ForModel), o.ForModel)
		}
		if r.cfg.MaxModelOutput >= 1024 && strings.Contains(o.ForModel, `"result too large"`) {
			t.Errorf("cap %d, output %d bytes, error %d bytes: nothing kept", limit, len(out), len(errText))
		}
	}
	// The reviewer's case: a short output and an error of N '<' (six
	// bytes each in JSON) then 5000 'a'.
	for n := 2000; n <= 2600; n += 7 {
		check(t, 0, json.RawMessage(`{"x":1}`), strings.Repeat("<", n)+strings.Repeat("a", 5000))
	}
	pieces := []string{"a", "<", "\x01", "\"", "\\", "执行", "\xff", "\xe6\x89", "é", "\u2028", " "}
	gen := func(rng *rand.Rand, n int) string {
		var b strings.Builder
		p := pieces[rng.IntN(len(pieces))]
		for b.Len() < n {
			if rng.IntN(8) == 0 {
				p = pieces[rng.IntN(len(pieces))]
			}
			b.WriteString(p)
		}
		return b.String()
	}
	sizes := []int{0, 1, 100, 1000, 3000, 5000, 16000, 17000, 40000, 70000}
	limits := []int{0, 256, 300, 512, 1024, 4096, 16384, 20000}
	rng := rand.New(rand.NewPCG(10, 4))
	for i := range 1000 {
		limit := limits[rng.IntN(len(limits))]
		if i%4 == 0 {
			limit = 256 + rng.IntN(20000)
		}
		outN, errN := sizes[rng.IntN(len(sizes))]+rng.IntN(500), sizes[rng.IntN(len(sizes))]+rng.IntN(500)
		// Outputs are JSON, as a tool's encoded value is: a string.
		out, _ := json.Marshal(gen(rng, outN))
		if rng.IntN(5) == 0 {
			out = nil
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { check(t, limit, out, gen(rng, errN)) })
	}
}
