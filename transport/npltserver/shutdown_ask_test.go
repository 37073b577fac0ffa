package npltserver

import (
	"context"
	"testing"
	"time"

	"opsassist/nplt"
)

// TestShutdownWithdrawsPermissionRequests: a turn waiting for a
// permission answer does not hold Shutdown to its deadline: the request
// is withdrawn, the call does not run, and the connection drains.
func TestShutdownWithdrawsPermissionRequests(t *testing.T) {
	ts, probe := askServer(t, time.Hour)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("probe a"))
	c.untilPermission()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if runs := probe.Runs(); len(runs) != 0 {
		t.Fatalf("the call ran: %v", runs)
	}
}
