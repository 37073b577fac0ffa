package mcp

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// TestCallAsSoonAsToolsRegistered: a call made the moment a server's
// tools appear (here from OnChange, right after the first
// registration) finds the session, not "its session just ended".
func TestCallAsSoonAsToolsRegistered(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "s", Version: "1"}, nil)
	echoTool(srv, "", nil)
	reg := newRegistryForTest()
	first := make(chan tools.Outcome, 1)
	on := func(st ServerStatus) {
		if st.State == StateReady && st.Tools > 0 {
			select {
			case first <- run(reg, "mcp__s__echo", `{"text":"hi"}`):
			default:
			}
		}
	}
	m, err := New(Config{Servers: []ServerConfig{{Name: "s", Command: "x"}}, Registry: reg, OnChange: on,
		Transport: inMemory(map[string]*sdk.Server{"s": srv})})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Start(context.Background())
	if o := <-first; !o.Result.Success {
		t.Fatalf("first call: %s", o.ForModel)
	}
}
