package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"opsassist/client"
	"opsassist/config"
)

// longToolErrors are issue 10's one-message crashes: a tool error longer
// than the model's 16 KB view made the registry slice with a negative
// bound, in the NPLT worker, and the daemon exited.
var longToolErrors = []struct{ name, text, zh string }{
	{"cat", "cat /" + strings.Repeat("a", 60000), ""},
	{"exec ls", "执行 ls -la " + strings.Repeat("c", 60000), "执行"},
	{"download", "下载 /" + strings.Repeat("b", 60000), "下载"},
}

// planAll raises the planner's cap so a 60 KB message reaches the tools.
func planAll(c *config.Config) { c.Limits.MaxPlanInput = 64 << 10 }

// TestLongToolErrorOverNPLT sends each 60 KB message over NPLT, with the
// planner reading all of it (the tools run and fail with a 60 KB error)
// and with the default 16 KiB cap (a polite refusal); each turn ends and
// a second client is served afterwards.
func TestLongToolErrorOverNPLT(t *testing.T) {
	t.Parallel()
	for _, cap := range []struct {
		name string
		opts []func(*config.Config)
	}{{"planned", []func(*config.Config){planAll}}, {"capped", nil}} {
		t.Run(cap.name, func(t *testing.T) {
			a := startApp(t, t.TempDir(), cap.opts...)
			defer stop(t, a)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			addr := a.NPLTAddr().String()
			for _, tc := range longToolErrors {
				conn, err := client.Dial(ctx, addr, client.Options{})
				if err != nil {
					t.Fatal(err)
				}
				got, _ := chatOnce(ctx, t, conn, tc.text)
				failed := strings.Contains(got, "failed") || strings.Contains(got, "失败")
				if cap.opts != nil && !failed || cap.opts == nil && !strings.Contains(got, "16 KB") {
					t.Fatalf("%s: answer %.200q", tc.name, got)
				}
				conn.Close()
				other, err := client.Dial(ctx, addr, client.Options{})
				if err != nil {
					t.Fatalf("%s: daemon gone: %v", tc.name, err)
				}
				if got, _ := chatOnce(ctx, t, other, "你好"); !strings.Contains(got, "opsassist") {
					t.Fatalf("%s: second client got %q", tc.name, got)
				}
				other.Close()
			}
		})
	}
}

// sse posts a chat message and returns the event types and the text of
// the error and delta events.
func sse(t *testing.T, base, msg string) (types []string, text string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"message": msg})
	res, err := http.Post(base+"/api/chat", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return []string{res.Status}, ""
	}
	var b strings.Builder
	event := ""
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			event = e
			types = append(types, e)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok && (event == "delta" || event == "error") {
			var v struct{ Text, Message string }
			json.Unmarshal([]byte(d), &v)
			b.WriteString(v.Text + v.Message)
		}
	}
	return types, b.String()
}

// TestLongToolErrorOverHTTP is TestLongToolErrorOverNPLT over SSE: the
// stream ends with "end" and the next request is answered. A 256 KB
// message is refused before any turn starts.
func TestLongToolErrorOverHTTP(t *testing.T) {
	t.Parallel()
	a := startApp(t, t.TempDir(), planAll)
	defer stop(t, a)
	base := "http://" + a.HTTPAddr().String()
	for _, tc := range longToolErrors {
		types, text := sse(t, base, tc.text)
		if len(types) < 2 || types[0] != "stream_start" || types[len(types)-1] != "end" || !strings.Contains(text, "failed") && !strings.Contains(text, "失败") {
			t.Fatalf("%s: events %v, text %.200q", tc.name, types, text)
		}
		if types, text := sse(t, base, "hello"); types[len(types)-1] != "end" || !strings.Contains(text, "opsassist") {
			t.Fatalf("%s: next request %v %q", tc.name, types, text)
		}
	}
	if types, _ := sse(t, base, "ls"+strings.Repeat(" -la", 64<<10)); len(types) != 1 || types[0] != "413 Request Entity Too Large" {
		t.Fatalf("256 KB message: %v", types)
	}
}
