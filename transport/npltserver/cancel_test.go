package npltserver

import (
	"bytes"
	"strings"
	"testing"

	"opsassist/agent"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/nplt"
	"opsassist/storage/history"
)

// startBlocking starts a server whose first turn blocks (testkit.Blocking
// streaming "partial ") and whose later turns are agent.Placeholder's.
func startBlocking(t *testing.T) (*testServer, *testkit.Blocking, *testkit.Switchable) {
	ag := testkit.NewBlocking()
	ag.Before = "partial "
	sw := testkit.NewSwitchable(ag)
	ts := startServer(t, "", func(_ *Config, cc *chat.Config) { cc.Agent = sw })
	return ts, ag, sw
}

// TestCancelEndsReplyAndKeepsQueuedQuestion: CANCEL during a streaming
// answer cancels the turn's context, the reply ends normally with no
// error, a question sent right behind the CANCEL is answered next, and
// the history holds the partial answer marked cancelled. A replayed
// CANCEL is harmless.
func TestCancelEndsReplyAndKeepsQueuedQuestion(t *testing.T) {
	ts, ag, sw := startBlocking(t)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("long question"))
	<-ag.Started
	sw.Set(agent.Placeholder{})
	// The replayed CANCEL goes before the next question: the reader reads
	// in order, so it can reach only the first turn (or nothing), never
	// the queued one.
	c.send(nplt.Cancel, nil)
	c.send(nplt.Cancel, nil) // replayed
	c.send(nplt.ChatText, []byte("queued question"))
	fs := c.reply()
	for _, f := range fs {
		if f.Type == nplt.Error {
			t.Fatalf("cancelled reply carries an ERROR: %q", f.Payload)
		}
	}
	if got := replyText(fs); got != "partial " {
		t.Fatalf("cancelled reply %q", got)
	}
	<-ag.Cancelled
	if got := replyText(c.reply()); !strings.Contains(got, "queued question") {
		t.Fatalf("queued question's reply %q", got)
	}
	c.send(nplt.HistoryRequest, nil)
	var hist struct {
		Messages []history.Message `json:"messages"`
	}
	fs = c.reply()
	if got := replyText(fs); !strings.Contains(got, "partial （已取消 cancelled）") {
		t.Errorf("history text %q lacks the cancel mark", got)
	}
	result(t, fs, &hist)
	if m := hist.Messages; len(m) != 4 || m[1].Content != "partial " || !m[1].Cancelled || m[3].Cancelled {
		t.Fatalf("history %+v", m)
	}
}

// TestCancelIdleIsIgnored: a CANCEL with no running turn gets no reply;
// the next question is answered as usual.
func TestCancelIdleIsIgnored(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	c.send(nplt.Cancel, nil)
	if got := replyText(c.chat("hi")); !strings.Contains(got, "hi") {
		t.Fatalf("reply after idle CANCEL %q", got)
	}
}

// TestCancelWithPayloadRefused: a CANCEL with a payload is a
// bad_request reply after the running one, and cancels nothing.
func TestCancelWithPayloadRefused(t *testing.T) {
	ts, ag, _ := startBlocking(t)
	ag.After = "done"
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("q"))
	<-ag.Started
	c.send(nplt.Cancel, []byte(`{"now":true}`))
	c.send(nplt.Ping, nil) // the reader handled the CANCEL once the PONG comes
	var before []nplt.Frame
	for f := c.read(); f.Type != nplt.Pong; f = c.read() {
		before = append(before, f)
	}
	close(ag.Release)
	if got := replyText(append(before, c.reply()...)); got != "partial done" {
		t.Fatalf("reply %q: the turn was cut", got)
	}
	if code := errorCode(t, c.reply()); code != api.CodeBadRequest {
		t.Fatalf("code %q", code)
	}
}

// TestCancelSlowFrame: a CANCEL arriving a byte at a time is read whole.
func TestCancelSlowFrame(t *testing.T) {
	ts, ag, _ := startBlocking(t)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("q"))
	<-ag.Started
	var b bytes.Buffer
	w := nplt.NewWriter(&b)
	w.WriteFrame(nplt.Cancel, nil)
	w.Flush()
	for _, x := range b.Bytes() {
		if _, err := c.nc.Write([]byte{x}); err != nil {
			t.Fatal(err)
		}
	}
	if got := replyText(c.reply()); got != "partial " {
		t.Fatalf("reply %q", got)
	}
}

// TestCancelOtherConnectionUnaffected: CANCEL on one connection leaves
// another connection's turn running.
func TestCancelOtherConnectionUnaffected(t *testing.T) {
	ts, ag, sw := startBlocking(t)
	ag.After = "done"
	a := dial(t, ts.addr, true)
	b := dial(t, ts.addr, true)
	a.send(nplt.ChatText, []byte("q"))
	<-ag.Started
	sw.Set(agent.Placeholder{})
	b.send(nplt.Cancel, nil)
	if got := replyText(b.chat("hi")); !strings.Contains(got, "hi") {
		t.Fatalf("b's reply %q", got)
	}
	close(ag.Release)
	if got := replyText(a.reply()); got != "partial done" {
		t.Fatalf("a's reply %q: cancelled by another connection", got)
	}
}
