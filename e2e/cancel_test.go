package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/client"
	"opsassist/config"
	"opsassist/daemon"
)

// Issue 12's acceptance for cancel: over real NPLT and HTTP connections,
// a cancel mid-generation ends the server's request to the model (the
// fake model's handler sees its request context done), and a cancel
// mid-tool kills the command's child process.

// hangingModel is an OpenAI-compatible server that streams one text
// chunk, then holds the stream open until the client goes away, which
// it reports by closing gone.
type hangingModel struct {
	*httptest.Server
	gone     chan struct{}
	goneOnce sync.Once
}

func newHangingModel(t *testing.T) *hangingModel {
	m := &hangingModel{gone: make(chan struct{})}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"正在思考 thinking"}}]}`+"\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the daemon cancelled its request
		m.goneOnce.Do(func() { close(m.gone) })
	}))
	t.Cleanup(m.Close)
	return m
}

// startWithModel starts a daemon whose sessions use the hanging model.
func startWithModel(t *testing.T, m *hangingModel) *daemon.App {
	a := startApp(t, t.TempDir(), func(c *config.Config) {
		c.Providers = []config.Provider{{Name: "hanging", BaseURL: m.URL + "/v1", Model: "m"}}
		c.LLM = "hanging"
	})
	t.Cleanup(func() { stop(t, a) })
	return a
}

// waitGone waits for ch or fails after the test's deadline.
func waitGone(ctx context.Context, t *testing.T, what string, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-ctx.Done():
		t.Fatalf("%s: %v", what, ctx.Err())
	}
}

func TestCancelModelStreamNPLT(t *testing.T) {
	m := newHangingModel(t)
	a := startWithModel(t, m)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var text strings.Builder
	var last client.Event
	err = conn.Chat(ctx, "你好", func(e client.Event) {
		last = e
		if e.Type == client.EventDelta {
			if text.Len() == 0 {
				if err := conn.Cancel(); err != nil {
					t.Errorf("Cancel: %v", err)
				}
			}
			text.WriteString(e.Text)
		}
	})
	if err != nil || last.Type != client.EventEnd || !strings.Contains(text.String(), "thinking") {
		t.Fatalf("Chat = %v, last event %v, text %q", err, last.Type, text.String())
	}
	waitGone(ctx, t, "the model request's context", m.gone)
	// The connection goes on: the next request is answered.
	if _, err := conn.History(ctx); err != nil {
		t.Fatalf("history after cancel: %v", err)
	}
}

func TestCancelModelStreamHTTP(t *testing.T) {
	m := newHangingModel(t)
	a := startWithModel(t, m)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	base := "http://" + a.HTTPAddr().String()
	isDelta := func(event, _ string) bool { return event == api.EventDelta }
	evs := streamAndCancel(ctx, t, base, "你好", isDelta, func() {})
	if evs[len(evs)-1] != api.EventEnd {
		t.Fatalf("events %v do not end with end", evs)
	}
	waitGone(ctx, t, "the model request's context", m.gone)
}

// streamAndCancel posts msg to /api/chat, and at the first event that
// match accepts calls before and posts the conversation's cancel; it
// returns the stream's event types to its end.
func streamAndCancel(ctx context.Context, t *testing.T, base, msg string, match func(event, data string) bool, before func()) []string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"message": msg})
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/chat", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var (
		evs     []string
		event   string
		session string
		sent    bool
	)
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			event = e
			evs = append(evs, e)
			continue
		}
		d, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		if event == api.EventStreamStart {
			var v struct {
				SessionID string `json:"session_id"`
			}
			json.Unmarshal([]byte(d), &v)
			session = v.SessionID
		}
		if match(event, d) && !sent {
			sent = true
			before()
			cres, err := http.Post(base+"/api/sessions/"+session+"/cancel", "application/json", nil)
			if err != nil {
				t.Fatal(err)
			}
			var v struct{ Cancelled bool }
			json.NewDecoder(cres.Body).Decode(&v)
			cres.Body.Close()
			if cres.StatusCode != 200 || !v.Cancelled {
				t.Fatalf("cancel: %d %+v", cres.StatusCode, v)
			}
		}
	}
	if !sent {
		t.Fatalf("no matching event in %v", evs)
	}
	return evs
}

// fifoDaemon starts a daemon with the built-in planner and a FIFO in its
// workspace: `cat` of it blocks until someone writes, which nobody does.
func fifoDaemon(t *testing.T) (*daemon.App, string) {
	data := t.TempDir()
	ws := filepath.Join(data, "workspace")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(ws, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	a := startApp(t, data)
	t.Cleanup(func() { stop(t, a) })
	return a, fifo
}

// catOf returns the pid of this process's child that holds fifo open,
// polling until one does (the tool starts it after its tool_call
// status) or ctx ends.
func catOf(ctx context.Context, t *testing.T, fifo string) int {
	t.Helper()
	for {
		if pid := childHolding(fifo); pid != 0 {
			return pid
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no child process opened %s: %v", fifo, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// childHolding finds a process whose parent is this process and which
// has fifo among its open files (cat has it open, or is opening it: the
// executor hands it a pinned descriptor of it).
func childHolding(fifo string) int {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		pid, err := strconv.Atoi(filepath.Base(p))
		if err != nil || !isChild(pid) {
			continue
		}
		fds, _ := filepath.Glob(p + "/fd/*")
		for _, fd := range fds {
			if target, err := os.Readlink(fd); err == nil && target == fifo {
				return pid
			}
		}
	}
	return 0
}

// isChild reports whether pid's parent is this process.
func isChild(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // comm may hold spaces
	if i < 0 {
		return false
	}
	f := strings.Fields(s[i+1:]) // state, ppid, …
	return len(f) > 1 && f[1] == strconv.Itoa(os.Getpid())
}

// alive reports whether pid still exists (a zombie counts: not reaped).
func alive(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

// waitDead polls until pid is gone or ctx ends.
func waitDead(ctx context.Context, t *testing.T, pid int) {
	t.Helper()
	for alive(pid) {
		select {
		case <-ctx.Done():
			t.Fatalf("process %d still alive after cancel", pid)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func TestCancelToolKillsChildNPLT(t *testing.T) {
	a, fifo := fifoDaemon(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	pid := 0
	var last client.Event
	err = conn.Chat(ctx, "执行 cat "+fifo, func(e client.Event) {
		last = e
		if e.Type == client.EventStatus && e.Status.Type == api.StatusToolCall && pid == 0 {
			pid = catOf(ctx, t, fifo)
			if err := conn.Cancel(); err != nil {
				t.Errorf("Cancel: %v", err)
			}
		}
	})
	if err != nil || pid == 0 || last.Type != client.EventEnd {
		t.Fatalf("Chat = %v, pid %d, last event %v", err, pid, last.Type)
	}
	waitDead(ctx, t, pid)
	// The connection goes on: the next question is answered.
	if got, _ := chatOnce(ctx, t, conn, "执行 pwd"); !strings.Contains(got, "workspace") {
		t.Fatalf("answer after cancel %q", got)
	}
}

func TestCancelToolKillsChildHTTP(t *testing.T) {
	a, fifo := fifoDaemon(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	base := "http://" + a.HTTPAddr().String()
	pid := 0
	toolCall := func(event, data string) bool {
		return event == api.EventStatus && strings.Contains(data, `"`+api.StatusToolCall+`"`)
	}
	evs := streamAndCancel(ctx, t, base, "执行 cat "+fifo, toolCall, func() { pid = catOf(ctx, t, fifo) })
	if evs[len(evs)-1] != api.EventEnd {
		t.Fatalf("events %v do not end with end", evs)
	}
	waitDead(ctx, t, pid)
}
