package npltserver

import (
	"strings"
	"testing"

	"opsassist/nplt"
)

// TestFitResultIsMaximalAndFits checks the RESULT trimming around the
// frame limit, where the {"kind","data"} wrapper decides.
func TestFitResultIsMaximalAndFits(t *testing.T) {
	for _, itemLen := range []int{1, 37, 200, 4000, 70000} {
		for _, n := range []int{0, 1, 5, 300, 2000} {
			if itemLen*n > 1<<20 {
				continue // enough to cross the limit many times over
			}
			items := make([]string, n)
			for i := range items {
				items[i] = strings.Repeat("x", itemLen)
			}
			build := func(k int) any { return map[string]any{"items": nonNil(items[:k]), "total": n} }
			data := fitResult("test", n, build, jsonSizes(items))
			b, err := marshal(nplt.ResultPayload{Kind: "test", Data: data})
			if err != nil || len(b) > nplt.MaxPayload {
				t.Fatalf("len %d n %d: RESULT of %d bytes (%v)", itemLen, n, len(b), err)
			}
			k := len(data.(map[string]any)["items"].([]string))
			if k < n {
				more, _ := marshal(nplt.ResultPayload{Kind: "test", Data: build(k + 1)})
				if len(more) <= nplt.MaxPayload {
					t.Fatalf("len %d n %d: kept %d, but %d fit", itemLen, n, k, k+1)
				}
			}
		}
	}
}

// TestFitResultAtTheWrapperBoundary: data that fits MaxPayload only
// without the wrapper must be trimmed.
func TestFitResultAtTheWrapperBoundary(t *testing.T) {
	for pad := 0; pad < 40; pad++ {
		one := strings.Repeat("y", nplt.MaxPayload-30+pad)
		build := func(k int) any { return map[string]any{"items": []string{one}[:k]} }
		data := fitResult("history", 1, build, jsonSizes([]string{one}))
		if b, _ := marshal(nplt.ResultPayload{Kind: "history", Data: data}); len(b) > nplt.MaxPayload {
			t.Fatalf("pad %d: %d bytes", pad, len(b))
		}
	}
}

func TestCutBytes(t *testing.T) {
	if got := cutBytes("数据库", 4); got != "数…[truncated]" {
		t.Fatal(got)
	}
	if got := cutBytes("ok", 4); got != "ok" {
		t.Fatal(got)
	}
}
