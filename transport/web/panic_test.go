package web

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
)

func postChat(t *testing.T, e *testEnv, body string) []sseEvent {
	t.Helper()
	res, err := e.ts.Client().Post(e.ts.URL+"/api/chat", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	return readSSE(t, res.Body)
}

// TestAgentPanicOverSSE: a turn whose agent panics ends with "error"
// (code internal, in the user's language) and "end"; the question is
// recorded and the next request is served.
func TestAgentPanicOverSSE(t *testing.T) {
	ag := testkit.NewSwitchable(testkit.Panicking{})
	e := newEnv(t, ag)
	evs := postChat(t, e, `{"message":"下载 /bbbb"}`)
	if got := types(evs); got != "stream_start status error end" {
		t.Fatalf("events %s", got)
	}
	if evs[2].Data["code"] != api.CodeInternal || !strings.HasPrefix(evs[2].Data["message"].(string), "内部错误") {
		t.Fatalf("error event %+v", evs[2].Data)
	}
	if l := e.svc.List(chat.Local()); len(l) != 1 || l[0].Messages != 2 {
		t.Fatalf("recorded %+v", l)
	}
	ag.Set(testkit.Scripted{})
	if got := types(postChat(t, e, `{"message":"CPU?"}`)); got != "stream_start status delta delta delta end" {
		t.Fatalf("next request: %s", got)
	}
}

// TestEscapedPanicEndsStream: a panic the chat core does not catch (a
// transport bug) still ends the stream with "error" and "end".
func TestEscapedPanicEndsStream(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	for _, tc := range []struct{ msg, want string }{{"cpu", "internal error"}, {"看看", "内部错误"}} {
		rec := newRecorder()
		sse := newSSEWriter(rec, 0)
		sse.event("stream_start", map[string]string{"session_id": "x"})
		err := e.srv.endOnPanic(sse, "x", tc.msg, func() error { panic("transport bug") })
		var ce *chat.Error
		if !errors.As(err, &ce) || ce.Code != api.CodeInternal {
			t.Fatalf("err %v", err)
		}
		evs := readSSE(t, rec.Body)
		if got := types(evs); got != "stream_start error end" {
			t.Fatalf("events %s", got)
		}
		if evs[1].Data["code"] != api.CodeInternal || !strings.HasPrefix(evs[1].Data["message"].(string), tc.want) {
			t.Fatalf("error event %+v", evs[1].Data)
		}
	}
}

// TestMessageTooLarge: a message over chat.MaxMessage is refused before
// the stream starts.
func TestMessageTooLarge(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	res, body := e.do(t, "POST", "/api/chat", `{"message":"`+strings.Repeat("a", chat.MaxMessage+1)+`"}`)
	wantError(t, res, body, http.StatusRequestEntityTooLarge, api.CodeTooLarge)
	// In the user's language: a Chinese message is refused in Chinese.
	res, body = e.do(t, "POST", "/api/chat", `{"message":"`+strings.Repeat("长", chat.MaxMessage/3+1)+`"}`)
	wantError(t, res, body, http.StatusRequestEntityTooLarge, api.CodeTooLarge)
	if !strings.Contains(string(body), "消息太长") {
		t.Fatalf("Chinese message refused with %s", body)
	}
	if l := e.svc.List(chat.Local()); len(l) != 0 {
		t.Fatalf("recorded %+v", l)
	}
}

// TestHandlerPanicIsJSON500: a panic in any other handler, before the
// response started, is a JSON 500 with code internal.
func TestHandlerPanicIsJSON500(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	h := e.srv.guard(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("handler bug") }))
	rec := newRecorder()
	h.ServeHTTP(rec, mustRequest(t, "GET", "/api/sessions"))
	res := rec.Result()
	body := rec.Body.Bytes()
	wantError(t, res, body, http.StatusInternalServerError, api.CodeInternal)
}

// panicWriter is a ResponseWriter whose body writes panic, after saying
// so on hit.
type panicWriter struct {
	http.ResponseWriter
	hit chan struct{}
}

func (p panicWriter) Write(b []byte) (int, error) {
	close(p.hit)
	panic("write exploded")
}

// TestKeepAlivePanicRecovered: a panic in the keep-alive goroutine of a
// chat stream is recovered (it used to kill the daemon) and stop still
// returns.
func TestKeepAlivePanicRecovered(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.KeepAlive = time.Millisecond })
	pw := panicWriter{ResponseWriter: newRecorder(), hit: make(chan struct{})}
	stop := e.srv.keepAlive(context.Background(), newSSEWriter(pw, time.Second))
	<-pw.hit
	stop()
}
