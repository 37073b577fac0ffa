package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/asktest"
	"opsassist/storage/history"
)

// waitFor polls cond until it holds, failing the test after a deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(5 * time.Millisecond) // polling with a deadline
	}
}

// busyConns counts the connections the limiter sees serving a request.
func busyConns(s *Server) (busy int) {
	s.conns.mu.Lock()
	defer s.conns.mu.Unlock()
	for _, c := range s.conns.open {
		if c.busy {
			busy++
		}
	}
	return busy
}

// leaveWaiting starts n chats whose turns wait for a permission answer,
// each on its own connection, and closes their streams; it returns the
// sessions' ids.
func leaveWaiting(t *testing.T, e *testEnv, n int) []string {
	t.Helper()
	var ids []string
	for range n {
		st := e.startChat(t, map[string]string{"message": "probe a"})
		start, _ := st.until(api.EventStreamStart, nil)
		ids = append(ids, start.Data["session_id"].(string))
		st.until(api.EventPermissionRequest, nil)
		st.res.Body.Close()
	}
	return ids
}

// TestDetachedTurnsFreeTheirConnections: three clients that leave while
// their turns wait for a permission answer do not keep the server's
// three connection slots busy: the handlers return, a fresh GET
// /api/health is answered, the turns still wait (listed as pending), and
// Shutdown withdraws their requests and waits for them promptly.
func TestDetachedTurnsFreeTheirConnections(t *testing.T) {
	a, probe, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, a, func(c *Config, cc *chat.Config) {
		c.MaxConnsPerAddr, c.MaxConns = 3, 3
		cc.PermissionTimeout = time.Hour
	})
	ids := leaveWaiting(t, e, 3)
	waitFor(t, "three turns detached", func() bool { return e.srv.detached.count() == 3 })
	waitFor(t, "no connection busy", func() bool { return busyConns(e.srv) == 0 })
	cl := &http.Client{Transport: &http.Transport{}}
	res, err := cl.Get(e.ts.URL + "/api/health")
	if err != nil {
		t.Fatalf("health from a fresh connection: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("health: %d", res.StatusCode)
	}
	if pl := getPending(t, e, ids[0]); len(pl.Permissions) != 1 {
		t.Fatalf("the detached turn no longer waits: %+v", pl)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := e.srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if n := e.srv.detached.count(); n != 0 || len(probe.Runs()) != 0 {
		t.Fatalf("after shutdown: %d detached, runs %v", n, probe.Runs())
	}
}

// TestDetachedTurnsBounded: one principal's turns detach up to
// MaxDetachedPerPrincipal; the next one whose client leaves is
// cancelled, its request withdrawn, as a client's leaving did before
// turns could detach.
func TestDetachedTurnsBounded(t *testing.T) {
	e, _ := askEnv(t, time.Hour)
	ids := leaveWaiting(t, e, MaxDetachedPerPrincipal)
	waitFor(t, "turns detached", func() bool { return e.srv.detached.count() == MaxDetachedPerPrincipal })
	over := leaveWaiting(t, e, 1)[0]
	waitFor(t, "the turn over the bound cancelled", func() bool {
		pl := getPending(t, e, over)
		return len(pl.Permissions) == 0
	})
	if n := e.srv.detached.count(); n != MaxDetachedPerPrincipal {
		t.Fatalf("%d detached, want %d", n, MaxDetachedPerPrincipal)
	}
	for _, id := range ids {
		if pl := getPending(t, e, id); len(pl.Permissions) != 1 {
			t.Fatalf("a detached turn no longer waits: %+v", pl)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := e.srv.Shutdown(ctx); err != nil || e.srv.detached.count() != 0 {
		t.Fatalf("shutdown: %v, %d detached", err, e.srv.detached.count())
	}
}

// TestDetachedTurnsTotalBound: the bound in all holds across principals.
func TestDetachedTurnsTotalBound(t *testing.T) {
	d := newDetachedTurns(2, 3)
	for _, p := range []string{"a", "a", "b"} {
		if !d.admit(p) {
			t.Fatalf("%s refused", p)
		}
	}
	if d.admit("a") || d.admit("c") {
		t.Fatal("admitted over a bound")
	}
	d.release("a")
	if !d.admit("c") {
		t.Fatal("a released place not reused")
	}
	for _, p := range []string{"a", "b", "c"} {
		d.release(p)
	}
	if err := d.close(context.Background()); err != nil || d.admit("a") {
		t.Fatalf("close: %v, or admitted after close", err)
	}
}

// failingAfter runs an agent's turn, then fails it as a model would.
type failingAfter struct{ chat.Agent }

func (a failingAfter) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	if _, err := a.Agent.Respond(ctx, t, r); err != nil {
		return nil, err
	}
	return nil, errors.New("model unreachable")
}

// TestDetachedTurnFailureLogged: a detached turn that fails after its
// answer came (nobody sees its error event) is logged at Warn with its
// error, not as a stream the client ended; its place is given back.
func TestDetachedTurnFailureLogged(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	a, _, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, failingAfter{a}, func(c *Config, cc *chat.Config) { c.Logger = zap.New(core); cc.PermissionTimeout = time.Hour })
	st := e.startChat(t, map[string]string{"message": "probe a"})
	start, _ := st.until(api.EventStreamStart, nil)
	sid := start.Data["session_id"].(string)
	_, raw := st.until(api.EventPermissionRequest, nil)
	var p api.PermissionRequest
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	st.res.Body.Close()
	waitFor(t, "the turn detached", func() bool { return e.srv.detached.count() == 1 })
	if res, body := e.do(t, "POST", "/api/sessions/"+sid+"/permissions/"+p.RequestID, map[string]string{"decision": api.DecisionAllowOnce}); res.StatusCode != http.StatusOK {
		t.Fatalf("answer: %d %s", res.StatusCode, body)
	}
	waitFor(t, "the detached turn ended", func() bool { return e.srv.detached.count() == 0 })
	got := logs.FilterMessage("detached chat turn failed").All()
	if len(got) != 1 || got[0].Level != zapcore.WarnLevel || !strings.Contains(got[0].ContextMap()["error"].(string), "model unreachable") {
		t.Fatalf("logged %+v", logs.All())
	}
}
