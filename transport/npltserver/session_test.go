package npltserver

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
	"opsassist/storage/history"
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

// sessionPage is SESSION_LIST's RESULT data with paging.
type sessionPage struct {
	Sessions []history.Summary `json:"sessions"`
	Total    int               `json:"total"`
	Next     string            `json:"next"`
}

// TestSessionListPagingWhileUpdating: SESSION_LIST {"limit","before"}
// walks the list page by page; a conversation updated between pages
// (the cursor's own, which moves to the top) makes the walk neither skip
// nor repeat any other. Bad limits and cursors are bad_request, an
// oversized payload too_large.
func TestSessionListPagingWhileUpdating(t *testing.T) {
	ts := startServer(t, "")
	now := time.Now()
	for i := range 7 {
		c := ts.hist.NewOwned(now.Add(time.Duration(-i)*time.Minute), chat.LocalID)
		c.Append(history.Message{Role: "user", Content: "m", Time: now.Add(time.Duration(-i) * time.Minute)})
	}
	c := dial(t, ts.addr, true)
	seen := map[string]int{}
	touched, before := "", ""
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		b, _ := json.Marshal(nplt.SessionSearch{Limit: 3, Before: before})
		c.send(nplt.SessionList, b)
		var p sessionPage
		if kind := result(t, c.reply(), &p); kind != "session_list" || len(p.Sessions) > 3 {
			t.Fatalf("%s %+v", kind, p)
		}
		for _, s := range p.Sessions {
			seen[s.ID]++
		}
		if p.Next == "" {
			break
		}
		before = p.Next
		if pages == 0 {
			touched = p.Sessions[len(p.Sessions)-1].ID
			conv, _ := ts.hist.Get(touched)
			conv.Append(history.Message{Role: "user", Content: "again", Time: time.Now().Add(time.Hour)})
		}
	}
	for _, s := range ts.svc.List(chat.Local()) {
		if n := seen[s.ID]; n != 1 {
			t.Errorf("%s seen %d times (touched %v)", s.ID, n, s.ID == touched)
		}
	}
	for _, tc := range []struct{ payload, code string }{
		{`{"limit":-1}`, api.CodeBadRequest},
		{`{"limit":501}`, api.CodeBadRequest},
		{`{"limit":2,"before":"nope"}`, api.CodeBadRequest},
		{`{"limit":2,"before":"c1.!!"}`, api.CodeBadRequest},
		{`{"limit":"2"}`, api.CodeBadJSON},
		{`{"q":"` + strings.Repeat("x", maxSessionList) + `"}`, api.CodeTooLarge},
	} {
		c.send(nplt.SessionList, []byte(tc.payload))
		if code := errorCode(t, c.reply()); code != tc.code {
			t.Errorf("%.40s: %q, want %s", tc.payload, code, tc.code)
		}
	}
}
