package daemon

import (
	"net"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap/zaptest"

	"opsassist/config"
)

// TestNewUndoesFailedSteps makes the first listener (HTTP) and the last
// one (NPLT) fail in turn: New reports which, and releases what the
// earlier steps opened, so a daemon then starts on the same data
// directory.
func TestNewUndoesFailedSteps(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	data := t.TempDir()
	cfgWith := func(o func(*config.Config)) config.Config {
		cfg := config.Defaults()
		cfg.NPLT, cfg.HTTP, cfg.RDT = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
		cfg.Data = data
		cfg.Workspace = filepath.Join(data, "workspace")
		cfg.Search.DocRoots = nil
		o(&cfg)
		return cfg
	}
	for _, tc := range []struct {
		name string
		set  func(*config.Config)
	}{
		{"http: ", func(c *config.Config) { c.HTTP = busy.Addr().String() }},
		{"nplt: ", func(c *config.Config) { c.NPLT = busy.Addr().String() }},
		{"rate_limits: no such tool: sys_monitr (", func(c *config.Config) {
			c.RateLimits = map[string]config.RateLimit{"sys_monitr": {PerMinute: 5}, "*": {PerHour: 100}, "command_executor": {PerMinute: 1}}
		}},
	} {
		a, err := New(cfgWith(tc.set), zaptest.NewLogger(t))
		if err == nil {
			stop(t, a)
			t.Fatalf("%s: New succeeded on a busy port", tc.name)
		}
		if !strings.HasPrefix(err.Error(), tc.name) {
			t.Errorf("error %q, want it to start with %q", err, tc.name)
		}
	}
	a, err := New(cfgWith(func(*config.Config) {}), zaptest.NewLogger(t))
	if err != nil {
		t.Fatalf("after failed starts: %v", err)
	}
	a.Start()
	stop(t, a)
}
