package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"opsassist/api"
)

// TestShutdownWithdrawsPermissionRequests: a stream waiting for a
// permission answer does not hold Shutdown to its deadline: the request
// is withdrawn when shutdown starts, the call does not run, the stream
// ends, and Shutdown returns before ctx ends.
func TestShutdownWithdrawsPermissionRequests(t *testing.T) {
	env, probe := askEnv(t, time.Hour)
	st := env.startChat(t, map[string]string{"message": "probe a"})
	st.until(api.EventPermissionRequest, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := env.srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	var text strings.Builder
	st.until(api.EventEnd, &text)
	if len(probe.Runs()) != 0 || strings.Contains(text.String(), `"success":true`) {
		t.Fatalf("the call ran: %v %q", probe.Runs(), text.String())
	}
}
