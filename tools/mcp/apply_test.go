package mcp

import (
	"fmt"
	"testing"
	"testing/synctest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

func TestApplyAddsChangesRemoves(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mk := func(prefix string) *sdk.Server {
			s := sdk.NewServer(&sdk.Implementation{Name: prefix, Version: "1"}, nil)
			echoTool(s, prefix, nil)
			return s
		}
		servers := map[string]*sdk.Server{"a": mk("a:"), "b": mk("b:"), "c": mk("c:")}
		reg := tools.NewRegistry(tools.Config{})
		m, _ := New(Config{Servers: []ServerConfig{{Name: "a", URL: "u"}, {Name: "b", URL: "u"}}, Registry: reg, Transport: inMemory(servers)})
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		aBefore := m.servers[0]

		// Invalid: nothing changes.
		if err := m.Apply([]ServerConfig{{Name: "x"}}); err == nil {
			t.Fatal("invalid set applied")
		}
		// a unchanged, b changed (its tools filtered away), c added; then d removed… none.
		servers["b"] = mk("B:")
		if err := m.Apply([]ServerConfig{{Name: "a", URL: "u"}, {Name: "b", URL: "u2"}, {Name: "c", URL: "u"}}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if m.servers[0] != aBefore {
			t.Fatal("an unchanged server was restarted")
		}
		for _, s := range []string{"a", "b", "c"} {
			want := map[string]string{"a": "a:", "b": "B:", "c": "c:"}[s] + "x"
			if o := run(reg, "mcp__"+s+"__echo", `{"text":"x"}`); string(o.Result.Output) != `{"text":"`+want+`"}` {
				t.Fatalf("%s: %s", s, o.ForModel)
			}
		}
		if err := m.Apply([]ServerConfig{{Name: "c", URL: "u"}}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if got := fmt.Sprint(reg.Names()); got != "[mcp__c__echo]" {
			t.Fatalf("after removal: %s", got)
		}
		if st := m.Status(); len(st) != 1 || st[0].Name != "c" || st[0].State != StateReady {
			t.Fatalf("status %+v", st)
		}
		m.Close()
		if len(reg.Names()) != 0 {
			t.Fatalf("tools left after Close: %v", reg.Names())
		}
		if err := m.Apply(nil); err == nil {
			t.Fatal("Apply after Close")
		}
	})
}
