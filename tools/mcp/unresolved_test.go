package mcp

import (
	"context"
	"testing"
	"testing/synctest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// TestUnavailableServerAloneIsDown: a server whose configuration could
// not be resolved (an unset ${VAR}) is shown unavailable with the
// reason and has no tools; the other server runs; an Apply with a
// configuration that resolves starts it.
func TestUnavailableServerAloneIsDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		servers := map[string]*sdk.Server{"a": sdk.NewServer(&sdk.Implementation{Name: "a", Version: "1"}, nil), "b": sdk.NewServer(&sdk.Implementation{Name: "b", Version: "1"}, nil)}
		echoTool(servers["a"], "a:", nil)
		echoTool(servers["b"], "b:", nil)
		reg := tools.NewRegistry(tools.Config{})
		why := "mcp_servers.b.headers.Authorization: environment variable B_TOKEN is not set"
		m, err := New(Config{Servers: []ServerConfig{{Name: "a", URL: "u"}, {Name: "b", Unavailable: why}}, Registry: reg, Transport: inMemory(servers)})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		if st := m.Status()[1]; st.State != StateUnavailable || st.Reason != why {
			t.Fatalf("before Start: %+v", st)
		}
		m.Start(context.Background())
		synctest.Wait()
		st := m.Status()
		if st[0].State != StateReady || st[1].State != StateUnavailable || st[1].Reason != why || st[1].Tools != 0 {
			t.Fatalf("statuses %+v", st)
		}
		if n := reg.Names(); len(n) != 1 || n[0] != "mcp__a__echo" {
			t.Fatalf("tools %v", n)
		}
		// The configuration fixed: b starts, a keeps its session.
		if err := m.Apply([]ServerConfig{{Name: "a", URL: "u"}, {Name: "b", URL: "u"}}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		st = m.Status()
		if st[0].State != StateReady || st[0].Restarts != 0 || st[1].State != StateReady || st[1].Reason != "" {
			t.Fatalf("after the fix %+v", st)
		}
		if o := run(reg, "mcp__b__echo", `{"text":"x"}`); string(o.Result.Output) != `{"text":"b:x"}` {
			t.Fatalf("b: %s", o.ForModel)
		}
		// Broken again: its tools go.
		if err := m.Apply([]ServerConfig{{Name: "a", URL: "u"}, {Name: "b", Unavailable: why}}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if n := reg.Names(); len(n) != 1 || m.Status()[1].State != StateUnavailable {
			t.Fatalf("tools %v, %+v", n, m.Status()[1])
		}
	})
}
