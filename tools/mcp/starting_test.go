package mcp

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// TestStartingServerHasNoReason: the attempt after a failure is
// "starting" without the failure's reason (that stays in the log; a
// reason is for an unavailable server, docs/protocol/http.md).
func TestStartingServerHasNoReason(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := sdk.NewServer(&sdk.Implementation{Name: "s", Version: "1"}, nil)
		echoTool(srv, "", nil)
		ok := inMemory(map[string]*sdk.Server{"s": srv})
		var attempts atomic.Int32
		rec := &recorder{}
		m, err := New(Config{Servers: []ServerConfig{{Name: "s", URL: "u"}}, Registry: tools.NewRegistry(tools.Config{}),
			OnChange: rec.on, Jitter: func() float64 { return 0.5 },
			Transport: func(ctx context.Context, sc ServerConfig) (sdk.Transport, error) {
				if attempts.Add(1) == 1 {
					return nil, errors.New("boom")
				}
				return ok(ctx, sc)
			}})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		if st := m.Status()[0]; st.State != StateUnavailable || !strings.Contains(st.Reason, "boom") {
			t.Fatalf("after the failure: %+v", st)
		}
		time.Sleep(time.Second) // the backoff, in the bubble's time
		synctest.Wait()
		if st := m.Status()[0]; st.State != StateReady || st.Reason != "" || st.Restarts != 1 {
			t.Fatalf("after the restart: %+v", st)
		}
		rec.mu.Lock()
		defer rec.mu.Unlock()
		starting := 0
		for _, st := range rec.all {
			if st.State == StateStarting {
				starting++
				if st.Reason != "" {
					t.Errorf("starting with a reason: %q", st.Reason)
				}
			}
		}
		if starting != 1 {
			t.Errorf("%d starting statuses (%s), want 1", starting, rec.states())
		}
	})
}

// TestExpandedCommandAndCwdHidden: what ${VAR} references put into
// command and cwd (ServerConfig.Hidden) does not appear in the reason
// of a child that cannot start (exec: "…": not found; chdir …).
func TestExpandedCommandAndCwdHidden(t *testing.T) {
	dir := t.TempDir()
	for _, sc := range []ServerConfig{
		{Name: "cmd", Command: filepath.Join(dir, "s3cr3t-dir", "tool"), Hidden: []string{filepath.Join(dir, "s3cr3t-dir")}},
		{Name: "cwd", Command: "sh", Cwd: filepath.Join(dir, "s3cr3t-wd"), Hidden: []string{filepath.Join(dir, "s3cr3t-wd")}},
	} {
		ch := make(statuses, 16)
		m, err := New(Config{Servers: []ServerConfig{sc}, Registry: newRegistryForTest(), Backoff: Backoff{Base: time.Hour}, OnChange: ch.on})
		if err != nil {
			t.Fatal(err)
		}
		m.Start(context.Background())
		st := ch.waitFor(t, "unavailable", func(s ServerStatus) bool { return s.State == StateUnavailable })
		m.Close()
		if strings.Contains(st.Reason, "s3cr3t") || !strings.Contains(st.Reason, "***") {
			t.Errorf("%s: reason %q shows the expanded value", sc.Name, st.Reason)
		}
	}
}
