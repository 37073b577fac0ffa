package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// textResult is a result with one text content.
func textResult(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

var textSchema = json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`)

// echoTool adds "echo": read-only, returns its text with a prefix;
// calls counts its calls.
func echoTool(s *sdk.Server, prefix string, calls *atomic.Int32) {
	s.AddTool(&sdk.Tool{Name: "echo", Description: "echoes", InputSchema: textSchema,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if calls != nil {
				calls.Add(1)
			}
			var a struct{ Text string }
			json.Unmarshal(req.Params.Arguments, &a)
			return textResult(prefix + a.Text), nil
		})
}

// inMemory is a Config.Transport connecting each session to a new
// session of srv over in-memory transports.
func inMemory(servers map[string]*sdk.Server) func(context.Context, ServerConfig) (sdk.Transport, error) {
	return func(ctx context.Context, sc ServerConfig) (sdk.Transport, error) {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := servers[sc.Name].Connect(context.WithoutCancel(ctx), st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}
}

// statuses collects OnChange calls.
type statuses chan ServerStatus

func (c statuses) on(st ServerStatus) {
	select {
	case c <- st:
	default:
	}
}

// waitFor reads statuses until one satisfies ok; a minute without one
// fails the test (a guard, not a synchronisation).
func (c statuses) waitFor(t *testing.T, what string, ok func(ServerStatus) bool) ServerStatus {
	t.Helper()
	guard := time.NewTimer(time.Minute)
	defer guard.Stop()
	for {
		select {
		case st := <-c:
			if ok(st) {
				return st
			}
		case <-guard.C:
			t.Fatalf("no status %s", what)
		}
	}
}

// run executes a call of name with args.
func run(r *tools.Registry, name, args string) tools.Outcome {
	return r.Execute(context.Background(), nil, name, args)
}

func sources(r *tools.Registry, source string) []string {
	var out []string
	for _, s := range r.Specs() {
		if s.Source == source {
			out = append(out, s.Name)
		}
	}
	return out
}

func mustContain(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Fatalf("%s: %q lacks %q", what, s, sub)
		}
	}
}

func newRegistryForTest() *tools.Registry { return tools.NewRegistry(tools.Config{}) }
