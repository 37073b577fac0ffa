package mcp

import (
	"context"
	"testing"
	"testing/synctest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// TestApplyRemovesServerWithCallInFlight: a server removed while one of
// its tools runs is stopped; the call ends with a clear tool error (no
// hang, no panic), Apply returns, and the tool is gone from the
// registry. A call that had finished before is unaffected.
func TestApplyRemovesServerWithCallInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		entered := make(chan struct{})
		s := sdk.NewServer(&sdk.Implementation{Name: "a", Version: "1"}, nil)
		echoTool(s, "a:", nil)
		s.AddTool(&sdk.Tool{Name: "wait", InputSchema: textSchema, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
			func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				close(entered)
				<-ctx.Done() // until the session goes
				return nil, ctx.Err()
			})
		reg := tools.NewRegistry(tools.Config{})
		m, _ := New(Config{Servers: []ServerConfig{{Name: "a", URL: "u"}}, Registry: reg, Transport: inMemory(map[string]*sdk.Server{"a": s})})
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		if o := run(reg, "mcp__a__echo", `{"text":"x"}`); o.Result.Error != "" {
			t.Fatalf("echo before: %s", o.ForModel)
		}
		done := make(chan tools.Outcome)
		go func() { done <- run(reg, "mcp__a__wait", `{"text":"x"}`) }()
		<-entered
		if err := m.Apply(nil); err != nil {
			t.Fatal(err)
		}
		o := <-done
		if o.Result.Success || o.Result.Error == "" {
			t.Fatalf("the call in flight on a removed server: %+v", o.Result)
		}
		t.Logf("in-flight call: %s", o.Result.Error)
		if n := reg.Names(); len(n) != 0 {
			t.Fatalf("tools left: %v", n)
		}
		if o := run(reg, "mcp__a__echo", `{"text":"x"}`); o.Result.Success {
			t.Fatal("a removed server's tool still runs")
		}
	})
}
