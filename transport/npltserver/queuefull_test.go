package npltserver

import (
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/nplt"
)

// TestAnswerBehindFullQueue: requests sent while a turn waits for a
// permission answer fill the connection's queue; the reader does not
// wait for room, so the PERMISSION_RESPONSE behind them is delivered and
// the call runs. The requests that found the queue full are answered
// server_busy, in their place in the reply order.
func TestAnswerBehindFullQueue(t *testing.T) {
	ts, probe := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("probe a"))
	p := c.untilPermission()
	const flood = 10
	for range flood {
		c.send(nplt.SessionList, nil)
	}
	c.answer(p.RequestID, api.DecisionAllowOnce)
	text := replyText(c.reply())
	if !strings.Contains(text, `call-a {"success":true`) || len(probe.Runs()) != 1 {
		t.Fatalf("the answer was not delivered: runs %v, reply %.300q", probe.Runs(), text)
	}
	var lists, busy int
	for i := range flood {
		fs := c.reply()
		switch {
		case len(fs) == 2 && fs[0].Type == nplt.Error && strings.Contains(string(fs[0].Payload), api.CodeServerBusy):
			busy++
		case busy == 0 && fs[0].Type == nplt.Result:
			lists++
		default:
			t.Fatalf("reply %d = %v %q (after %d lists, %d busy)", i, fs[0].Type, fs[0].Payload, lists, busy)
		}
	}
	if busy == 0 || lists == 0 {
		t.Errorf("%d session lists, %d server_busy: want both", lists, busy)
	}
	// The connection goes on serving.
	c.send(nplt.SessionList, nil)
	if fs := c.reply(); fs[0].Type != nplt.Result {
		t.Errorf("after the flood: %v %q", fs[0].Type, fs[0].Payload)
	}
}
