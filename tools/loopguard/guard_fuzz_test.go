package loopguard

import "testing"

// FuzzCheck feeds a sequence of calls drawn from the input: the Guard
// never panics, stays bounded, never marks a call Persisted without
// stopping it, and always stops the third identical call.
func FuzzCheck(f *testing.F) {
	f.Add([]byte("a{}b{}a{}b{}"), []byte(`{"x":1}`))
	f.Add([]byte("aaaa"), []byte(`{"command":"false"}`))
	f.Add([]byte{0, 1, 0, 1, 2, 255}, []byte(`{oops`))
	f.Fuzz(func(t *testing.T, script, args []byte) {
		if len(script) > 4096 {
			script = script[:4096]
		}
		g := New()
		for i, c := range script {
			tool := string(rune('a' + c%4))
			a := args
			if c&0x10 != 0 {
				a = append([]byte(" "), args...)
			}
			if c&0x20 != 0 {
				a = []byte{c}
			}
			v := g.Check(tool, a)
			if v.Persisted && !v.Stop {
				t.Fatalf("call %d persisted but not stopped", i)
			}
			if v.Stop && v.Reason == "" {
				t.Fatalf("call %d stopped without a reason", i)
			}
			if c&0x40 != 0 && v.Stop {
				g.Allow(tool, a)
			}
		}
		if len(g.seen) > MaxSignatures || len(g.swings) > MaxSignatures || len(g.recent) > 3 {
			t.Fatalf("unbounded: %d %d %d", len(g.seen), len(g.swings), len(g.recent))
		}
		g2 := New()
		for i := range Repeats {
			if v := g2.Check("t", args); v.Stop != (i == Repeats-1) {
				t.Fatalf("identical call %d: stop %v", i+1, v.Stop)
			}
		}
	})
}
