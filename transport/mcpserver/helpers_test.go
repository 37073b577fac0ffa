package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/tools"
)

// fake is a tool of the test registry: its spec, and what it does.
type fake struct {
	spec tools.Spec
	run  func(ctx context.Context, call *tools.Call, args json.RawMessage) (any, error)
	runs atomic.Int32
}

func (f *fake) Spec() tools.Spec { return f.spec }

func (f *fake) Run(ctx context.Context, call *tools.Call, args json.RawMessage) (any, error) {
	f.runs.Add(1)
	return f.run(ctx, call, args)
}

// policy denies commands starting "rm", asks about those starting
// "systemctl" (scope: the first two words) and "deploy" (no scope: the
// exact arguments, shown redacted), allows the rest.
type policy struct{}

func (policy) Decide(_ context.Context, _ *tools.Call, spec tools.Spec, args json.RawMessage) tools.Verdict {
	if spec.Name != "command_executor" {
		return tools.Verdict{Decision: tools.Allow}
	}
	var a struct {
		Command string `json:"command"`
	}
	json.Unmarshal(args, &a)
	switch {
	case strings.HasPrefix(a.Command, "rm"):
		return tools.Verdict{Decision: tools.Deny, Reason: "rm is never run", By: tools.DecidedByDefault}
	case strings.HasPrefix(a.Command, "deploy"):
		return tools.Verdict{Decision: tools.Ask, Reason: "deploys", Shown: tools.Redact(args), By: tools.DecidedByDefault}
	case strings.HasPrefix(a.Command, "systemctl"):
		f := strings.Fields(a.Command)
		return tools.Verdict{Decision: tools.Ask, Reason: "systemctl changes services", Scope: "command_executor:" + strings.Join(f[:min(2, len(f))], " "), By: tools.DecidedByDefault}
	}
	return tools.Verdict{Decision: tools.Allow}
}

// env is a registry of the five built-in tools (fakes with the real
// names), ask_user and a consumed MCP tool, and a Server over it.
type env struct {
	reg   *tools.Registry
	rec   *testkit.Records
	srv   *Server
	tools map[string]*fake
}

var offerURL = "http://127.0.0.1:8080/api/files/download/tok1"

func newEnv(t *testing.T, cfg Config) *env {
	t.Helper()
	e := &env{rec: &testkit.Records{}, tools: map[string]*fake{}}
	e.reg = tools.NewRegistry(tools.Config{Policy: policy{}, Audit: e.rec})
	obj := func(props string, required ...string) json.RawMessage {
		req, _ := json.Marshal(required)
		if required == nil {
			req = []byte("[]")
		}
		return json.RawMessage(`{"type":"object","properties":{` + props + `},"required":` + string(req) + `,"additionalProperties":false}`)
	}
	add := func(spec tools.Spec, run func(context.Context, *tools.Call, json.RawMessage) (any, error)) {
		f := &fake{spec: spec, run: run}
		e.tools[spec.Name] = f
		if err := e.reg.Register(f); err != nil {
			t.Fatal(err)
		}
	}
	add(tools.Spec{Name: "sys_monitor", Description: "system metrics", Risk: tools.RiskReadOnly,
		Parameters: obj(`"metric":{"type":"string","enum":["cpu","all"]}`)},
		func(context.Context, *tools.Call, json.RawMessage) (any, error) {
			return map[string]any{"cpu_percent": 12.5}, nil
		})
	add(tools.Spec{Name: "command_executor", Description: "runs a command", Risk: tools.RiskSensitive,
		Parameters: obj(`"command":{"type":"string","minLength":1}`, "command")},
		func(_ context.Context, call *tools.Call, args json.RawMessage) (any, error) {
			var a struct{ Command string }
			json.Unmarshal(args, &a)
			return map[string]any{"stdout": "ran " + a.Command, "approved": call.Approved}, nil
		})
	add(tools.Spec{Name: "semantic_search", Description: "search", Risk: tools.RiskReadOnly,
		Parameters: obj(`"query":{"type":"string"}`, "query")},
		func(_ context.Context, _ *tools.Call, args json.RawMessage) (any, error) {
			var a struct{ Query string }
			json.Unmarshal(args, &a)
			switch a.Query {
			case "panic":
				panic("boom")
			case "huge":
				return map[string]string{"text": strings.Repeat("x", 2<<20)}, nil
			}
			return []string{"hit"}, nil
		})
	add(tools.Spec{Name: "file_download", Description: "offer a file", Risk: tools.RiskSensitive,
		Parameters: obj(`"file_path":{"type":"string"}`, "file_path")},
		func(_ context.Context, call *tools.Call, _ json.RawMessage) (any, error) {
			o := api.Offer{TransportMode: api.TransportHTTP, DownloadToken: "tok1", DownloadURL: offerURL, Filename: "hosts", FileSize: 12, SHA256: "abc", ExpiresAt: "2030-01-01T00:00:00Z"}
			if call.Offer != nil {
				if err := call.Offer(o); err != nil {
					return nil, err
				}
			}
			return map[string]any{"download_url": o.DownloadURL, "client": call.ClientType}, nil
		})
	add(tools.Spec{Name: "file_upload", Description: "uploads", Risk: tools.RiskReadOnly, Source: tools.SourceBuiltin,
		Parameters: obj(`"action":{"type":"string"}`)},
		func(_ context.Context, call *tools.Call, _ json.RawMessage) (any, error) {
			return map[string]any{"total": len(call.Uploads)}, nil
		})
	add(tools.Spec{Name: "ask_user", Description: "asks the user", Risk: tools.RiskReadOnly, Parameters: obj(``)},
		func(context.Context, *tools.Call, json.RawMessage) (any, error) { return "x", nil })
	add(tools.Spec{Name: "mcp__fs__read_file", Description: "someone else's", Risk: tools.RiskReadOnly, Source: "fs", SourceName: "read_file", Parameters: obj(``)},
		func(context.Context, *tools.Call, json.RawMessage) (any, error) { return "x", nil })
	cfg.Runner = e.reg
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return e
}

var alice = chat.Principal{ID: "u-alice", Name: "alice", Role: "operator"}

// connect serves one in-memory session for who and connects a client
// with opts (an ElicitationHandler makes it elicitation-capable).
func (e *env) connect(t *testing.T, who chat.Principal, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- e.srv.Serve(ctx, st, who) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs
}

// call calls tool with args (a JSON object).
func call(t *testing.T, cs *mcp.ClientSession, tool, args string) *mcp.CallToolResult {
	t.Helper()
	p := &mcp.CallToolParams{Name: tool}
	if args != "" {
		p.Arguments = json.RawMessage(args)
	}
	res, err := cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatalf("CallTool %s: %v", tool, err)
	}
	return res
}

// text joins a result's text contents.
func text(r *mcp.CallToolResult) string {
	var b []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b = append(b, tc.Text)
		}
	}
	return strings.Join(b, "\n")
}

// answer is an elicitation handler that gives decision (or action, when
// it is "decline" or "cancel") and counts the questions it saw.
func answer(decision string, asked *[]string, mu *sync.Mutex) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		*asked = append(*asked, req.Params.Message)
		mu.Unlock()
		switch decision {
		case "decline", "cancel":
			return &mcp.ElicitResult{Action: decision}, nil
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": decision}}, nil
	}
}
