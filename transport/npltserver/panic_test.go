package npltserver

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"

	"opsassist/agent"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/nplt"
	"opsassist/storage/history"
	"opsassist/tools"
)

// servedAfter checks that a fresh client is still answered.
func servedAfter(t *testing.T, ts *testServer) {
	t.Helper()
	c := dial(t, ts.addr, true)
	if fs := c.chat("hello"); errorCode(t, fs) != "" || !strings.Contains(replyText(fs), "hello") {
		t.Fatalf("second client got %v", fs)
	}
}

// TestAgentPanicOverNPLT: a turn whose agent panics is answered with an
// ERROR (internal) and the end of the reply; the turn is recorded, the
// same connection and a new one are served, and the daemon lives.
func TestAgentPanicOverNPLT(t *testing.T) {
	ag := testkit.NewSwitchable(testkit.Panicking{})
	ts := startServer(t, "", func(_ *Config, cc *chat.Config) { cc.Agent = ag })
	c := dial(t, ts.addr, true)
	fs := c.chat("执行 ls -la cccc")
	if errorCode(t, fs) != api.CodeInternal {
		t.Fatalf("reply %v", fs)
	}
	for _, f := range fs {
		if f.Type == nplt.Error && !strings.Contains(string(f.Payload), "内部错误") {
			t.Fatalf("error not in the user's language: %s", f.Payload)
		}
	}
	if l := ts.svc.List(chat.Local()); len(l) != 1 || l[0].Messages != 2 {
		t.Fatalf("recorded %+v", l)
	}
	// The same connection goes on; so does a new one.
	if fs := c.chat("again"); errorCode(t, fs) != api.CodeInternal {
		t.Fatalf("second turn %v", fs)
	}
	ag.Set(agent.Placeholder{})
	servedAfter(t, ts)
}

// callOnce calls its tool, then answers with what came back.
type callOnce struct{ tool string }

func (p callOnce) Plan(ctx context.Context, req *agent.PlanRequest, delta func(string) error) (*agent.Step, error) {
	last := req.Messages[len(req.Messages)-1]
	if last.Role == "tool" {
		return &agent.Step{Content: "tool said " + last.Content}, delta("tool said " + last.Content)
	}
	return &agent.Step{ToolCalls: []history.ToolCall{{ID: "c1", Name: p.tool, Arguments: "{}"}}}, nil
}

// TestToolPanicOverNPLT: a panicking tool is a failed tool result the
// planner reads; the turn ends normally and the next client is served.
func TestToolPanicOverNPLT(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{})
	if err := reg.Register(testkit.PanicTool{Name: "boom"}); err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Config{Planners: map[string]agent.Planner{"builtin": callOnce{"boom"}}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, "", func(_ *Config, cc *chat.Config) { cc.Agent = ag })
	c := dial(t, ts.addr, true)
	fs := c.chat("run boom")
	if errorCode(t, fs) != "" || !strings.Contains(replyText(fs), "failed internally") {
		t.Fatalf("reply %v", fs)
	}
	if fs := c.chat("run boom"); !strings.Contains(replyText(fs), "failed internally") {
		t.Fatalf("second turn %v", fs)
	}
}

// TestJobPanicKeepsConnection: a request that panics outside the chat
// core (a reply helper, a handler bug) gets ERROR internal and the end of
// the reply, and the connection serves the next request.
func TestJobPanicKeepsConnection(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	ts.mu.Lock()
	var cn *conn
	for k := range ts.conns {
		cn = k
	}
	ts.mu.Unlock()
	cn.enqueue(func(context.Context) { panic("handler bug") })
	if fs := c.reply(); errorCode(t, fs) != api.CodeInternal {
		t.Fatalf("reply %v", fs)
	}
	if fs := c.chat("hello"); errorCode(t, fs) != "" || !strings.Contains(replyText(fs), "hello") {
		t.Fatalf("next request got %v", fs)
	}
	servedAfter(t, ts)
}

// panickyObserver panics when a chat starts: a bug on the worker's path
// outside the chat core.
type panickyObserver struct{ nopObserver }

func (panickyObserver) ChatStarted(string) { panic("metrics bug") }

// TestWorkerPanicOverNPLT: a chat request whose worker job panics outside
// the chat core gets ERROR internal and the end of the reply; the same
// connection serves its next request and a new client is served.
func TestWorkerPanicOverNPLT(t *testing.T) {
	ts := startServer(t, "", func(sc *Config, _ *chat.Config) { sc.Metrics = panickyObserver{} })
	c := dial(t, ts.addr, true)
	if fs := c.chat("hello"); errorCode(t, fs) != api.CodeInternal {
		t.Fatalf("reply %v", fs)
	}
	if fs := c.request(nplt.SessionList); errorCode(t, fs) != "" {
		t.Fatalf("next request got %v", fs)
	}
	c2 := dial(t, ts.addr, true)
	if fs := c2.request(nplt.SessionNew); errorCode(t, fs) != "" {
		t.Fatalf("new client got %v", fs)
	}
}

// request sends an empty request frame and returns its reply.
func (c *client) request(typ nplt.Type) []nplt.Frame {
	c.t.Helper()
	c.send(typ, nil)
	return c.reply()
}

// TestClientLeavingCancelsTool: an NPLT client that disconnects mid-turn
// cancels the tool running for it; the question is recorded and the
// server serves the next client.
func TestClientLeavingCancelsTool(t *testing.T) {
	w := testkit.NewWaitTool()
	reg := tools.NewRegistry(tools.Config{})
	if err := reg.Register(w); err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Config{Planners: map[string]agent.Planner{"builtin": callOnce{"wait"}}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, "", func(_ *Config, cc *chat.Config) { cc.Agent = ag })
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("wait for it"))
	<-w.Started
	c.nc.Close()
	<-w.Cancelled
	waitFor(t, "the question to be recorded", func() bool { l := ts.svc.List(chat.Local()); return len(l) == 1 && l[0].Messages == 1 })
	c2 := dial(t, ts.addr, true)
	if fs := c2.request(nplt.SessionList); errorCode(t, fs) != "" {
		t.Fatalf("next client got %v", fs)
	}
}

// trapListener hands out connections whose reads panic on a chunk
// holding "PANIC-R" and whose writes panic on one holding "PANIC-W", as
// a bug in the reader or writer would.
type trapListener struct{ net.Listener }

func (l trapListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return trapConn{c}, nil
}

type trapConn struct{ net.Conn }

func (c trapConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if bytes.Contains(b[:n], []byte("PANIC-R")) {
		panic("bug in the reader")
	}
	return n, err
}

func (c trapConn) Write(b []byte) (int, error) {
	if bytes.Contains(b, []byte("PANIC-W")) {
		panic("bug in the writer")
	}
	return c.Conn.Write(b)
}

// TestConnPanicClosesThatConnection: a panic in a connection's reader,
// at HELLO time or later, answers ERROR internal and closes it; one in
// its writer closes it. Each time its place (one waiting to
// authenticate, one client) is released and the next client is served;
// the daemon lives.
func TestConnPanicClosesThatConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := startServerOn(t, "", trapListener{ln}, withToken, func(c *Config, _ *chat.Config) {
		c.MaxClients, c.MaxUnauthenticated, c.MaxUnauthenticatedPerAddr = 1, 1, 1
	})
	connect := func() *client {
		nc, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nc.Close() })
		return &client{t: t, nc: nc, r: nplt.NewReader(nc), w: nplt.NewWriter(nc)}
	}
	hello := func(c *client, name string) {
		c.sendJSON(nplt.Hello, nplt.HelloPayload{Client: name, ClientType: "cli", Token: goodToken})
	}
	wantInternal := func(fs []nplt.Frame) {
		t.Helper()
		for _, f := range fs {
			if f.Type == nplt.Error && strings.Contains(string(f.Payload), api.CodeInternal) {
				return
			}
		}
		t.Fatalf("want ERROR internal before close, got %v", fs)
	}
	served := func() *client {
		t.Helper()
		waitFor(t, "the connection to be released", func() bool { return ts.ConnCount() == 0 })
		c := connect()
		hello(c, "test")
		if f := c.read(); f.Type != nplt.Hello {
			t.Fatalf("want HELLO reply, got %v %q", f.Type, f.Payload)
		}
		c.reply() // greeting
		return c
	}

	c := connect() // a panic while authenticating
	hello(c, "PANIC-R")
	wantInternal(c.expectClosed())

	c = served() // a panic in an authenticated connection's reader
	c.send(nplt.ChatText, []byte("PANIC-R"))
	wantInternal(c.expectClosed())

	c = served() // a panic in its writer
	c.send(nplt.ChatText, []byte("echo PANIC-W"))
	c.expectClosed()

	c = served()
	if fs := c.chat("hello"); errorCode(t, fs) != "" || !strings.Contains(replyText(fs), "hello") {
		t.Fatalf("last client got %v", fs)
	}
}
