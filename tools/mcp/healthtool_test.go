package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// TestHealthCheckToolMustBeListedAndReadOnly: a health_check_tool that
// is not read-only, not listed or filtered out is never called; the
// ready server's reason says why. A risk override makes it read-only.
func TestHealthCheckToolMustBeListedAndReadOnly(t *testing.T) {
	cases := []struct {
		name string
		sc   ServerConfig
		note string // "" when the tool is called
	}{
		{"not read-only", ServerConfig{HealthCheckTool: "drop"}, "is not read-only"},
		{"not listed", ServerConfig{HealthCheckTool: "missing"}, "not among the server's tools"},
		{"filtered out", ServerConfig{HealthCheckTool: "ping", DisabledTools: []string{"ping"}}, "not among the server's tools"},
		{"risk override", ServerConfig{HealthCheckTool: "drop", Risk: map[string]tools.Risk{"drop": tools.RiskReadOnly}}, ""},
		{"read-only", ServerConfig{HealthCheckTool: "ping"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var calls atomic.Int32
				h := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
					calls.Add(1)
					return textResult("ok"), nil
				}
				srv := sdk.NewServer(&sdk.Implementation{Name: "h", Version: "1"}, nil)
				obj := json.RawMessage(`{"type":"object"}`)
				srv.AddTool(&sdk.Tool{Name: "drop", InputSchema: obj}, h)
				srv.AddTool(&sdk.Tool{Name: "ping", InputSchema: obj, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, h)
				sc := c.sc
				sc.Name, sc.URL = "h", "u"
				m, _ := New(Config{Servers: []ServerConfig{sc}, Registry: newRegistryForTest(), HealthInterval: 10 * time.Second,
					Transport: inMemory(map[string]*sdk.Server{"h": srv})})
				defer m.Close()
				m.Start(t.Context())
				time.Sleep(25 * time.Second) // two health checks
				synctest.Wait()
				st := m.Status()[0]
				if st.State != StateReady {
					t.Fatalf("status %+v", st)
				}
				if c.note == "" {
					if calls.Load() != 2 || st.Reason != "" {
						t.Fatalf("%d calls, reason %q; want 2 and none", calls.Load(), st.Reason)
					}
					return
				}
				if calls.Load() != 0 || !strings.Contains(st.Reason, c.note) {
					t.Fatalf("%d calls, reason %q; want 0 and %q", calls.Load(), st.Reason, c.note)
				}
			})
		})
	}
}
