package mcpserver

import (
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/api"
	"opsassist/tools"
)

// TestAllowSessionIsTheRawArguments: with no policy scope, an
// allow_session answer covers the exact raw arguments — not every call
// whose redacted arguments read the same ("deploy ***").
func TestAllowSessionIsTheRawArguments(t *testing.T) {
	e := newEnv(t, Config{})
	var mu sync.Mutex
	var asked []string
	cs := e.connect(t, alice, &mcp.ClientOptions{ElicitationHandler: answer(api.DecisionAllowSession, &asked, &mu)})
	const first = `{"command":"deploy 3f9a2c4e1b7d8f6a5c3e2d1b0a9f8e7d6c5b4a39"}`
	call(t, cs, "command_executor", first)
	if res := call(t, cs, "command_executor", first); res.IsError || len(asked) != 1 {
		t.Fatalf("the granted call: error %v %q, asked %d", res.IsError, text(res), len(asked))
	}
	if rec := e.rec.Last(t); rec.DecidedBy != tools.BySessionGrant {
		t.Fatalf("record %+v", rec)
	}
	call(t, cs, "command_executor", `{"command":"deploy 0000000000000000000000000000000000000001a"}`)
	if len(asked) != 2 {
		t.Fatalf("other arguments, shown the same: asked %d, want 2", len(asked))
	}
	if rec := e.rec.Last(t); rec.DecidedBy == tools.BySessionGrant {
		t.Fatalf("other arguments ran on the grant: %+v", rec)
	}
}
