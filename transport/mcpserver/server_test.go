package mcpserver

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/api"
	"opsassist/tools"
)

func TestListsTheFiveBuiltinTools(t *testing.T) {
	e := newEnv(t, Config{})
	cs := e.connect(t, alice, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		byName[tl.Name] = tl
	}
	want := []string{"command_executor", "file_download", "file_upload", "semantic_search", "sys_monitor"}
	if slices.Sort(names); !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v (no ask_user, no mcp__ tools)", names, want)
	}
	for _, n := range want {
		tl := byName[n]
		var got, spec any
		b, _ := json.Marshal(tl.InputSchema)
		json.Unmarshal(b, &got)
		json.Unmarshal(e.tools[n].spec.Parameters, &spec)
		if !reflect.DeepEqual(got, spec) {
			t.Errorf("%s: inputSchema %s, want the registry's %s", n, b, e.tools[n].spec.Parameters)
		}
		a := tl.Annotations
		if a == nil || a.Title == "" || tl.Title == "" {
			t.Fatalf("%s: no title or annotations: %+v", n, tl)
		}
		ro := e.tools[n].spec.Risk == tools.RiskReadOnly
		if a.ReadOnlyHint != ro || a.IdempotentHint != ro || a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("%s: annotations %+v for risk %s", n, a, e.tools[n].spec.Risk)
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint != (n == "command_executor") {
			t.Errorf("%s: openWorldHint %v", n, a.OpenWorldHint)
		}
	}
}

func TestDangerousIsDestructive(t *testing.T) {
	a := annotations(tools.Spec{Name: "x", Risk: tools.RiskDangerous}, "X")
	if !*a.DestructiveHint || a.ReadOnlyHint || a.IdempotentHint {
		t.Fatalf("dangerous: %+v", a)
	}
}

func TestCallSysMonitor(t *testing.T) {
	e := newEnv(t, Config{})
	cs := e.connect(t, alice, nil)
	res := call(t, cs, "sys_monitor", `{"metric":"cpu"}`)
	if res.IsError || !strings.Contains(text(res), `"cpu_percent":12.5`) {
		t.Fatalf("result: error %v, %q", res.IsError, text(res))
	}
	if m, ok := res.StructuredContent.(map[string]any); !ok || m["cpu_percent"] != 12.5 {
		t.Fatalf("structured content %#v", res.StructuredContent)
	}
	rec := e.rec.Last(t)
	if rec.Client != api.ClientMCP || rec.User != "alice" || rec.Role != "operator" || !strings.HasPrefix(rec.Session, "mcp-") ||
		!strings.HasPrefix(rec.ToolCallID, "mcp-") || rec.Tool != "sys_monitor" || rec.Status != tools.StatusOK {
		t.Fatalf("audit record %+v", rec)
	}
	// The same session id for every call of the session, a fresh call id.
	call(t, cs, "sys_monitor", `{}`)
	if r2 := e.rec.Last(t); r2.Session != rec.Session || r2.ToolCallID == rec.ToolCallID {
		t.Fatalf("second call: session %q call %q, first %q %q", r2.Session, r2.ToolCallID, rec.Session, rec.ToolCallID)
	}
	// No arguments at all is {}.
	if res := call(t, cs, "file_upload", ``); res.IsError || !strings.Contains(text(res), `"total":0`) {
		t.Fatalf("file_upload without a conversation: %v %q", res.IsError, text(res))
	}
}

func TestBadArgumentsAreAToolError(t *testing.T) {
	e := newEnv(t, Config{})
	cs := e.connect(t, alice, nil)
	for args, want := range map[string]string{
		`{}`:                         "missing property 'command'",
		`{"command":""}`:             "/command",
		`{"command":"ls","extra":1}`: "additional properties 'extra' not allowed",
		`[1]`:                        "invalid arguments for command_executor",
	} {
		res := call(t, cs, "command_executor", args)
		if !res.IsError || !strings.Contains(text(res), want) {
			t.Errorf("%s: error %v %q, want %q", args, res.IsError, text(res), want)
		}
	}
	if n := e.tools["command_executor"].runs.Load(); n != 0 {
		t.Fatalf("tool ran %d times", n)
	}
	// An unknown tool is the SDK's protocol error.
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask_user", Arguments: map[string]any{}}); err == nil {
		t.Fatal("ask_user callable over MCP")
	}
}

func TestDeniedCommand(t *testing.T) {
	e := newEnv(t, Config{})
	var mu sync.Mutex
	var asked []string
	cs := e.connect(t, alice, &mcp.ClientOptions{ElicitationHandler: answer(api.DecisionAllowOnce, &asked, &mu)})
	res := call(t, cs, "command_executor", `{"command":"rm -rf /"}`)
	if !res.IsError || !strings.Contains(text(res), "denied by policy: rm is never run") {
		t.Fatalf("result %v %q", res.IsError, text(res))
	}
	if len(asked) != 0 || e.tools["command_executor"].runs.Load() != 0 {
		t.Fatalf("asked %v, runs %d", asked, e.tools["command_executor"].runs.Load())
	}
	if rec := e.rec.Last(t); rec.Decision != "deny" || rec.Status != tools.StatusDenied {
		t.Fatalf("record %+v", rec)
	}
}

func TestAskAllowOnceRuns(t *testing.T) {
	e := newEnv(t, Config{})
	var mu sync.Mutex
	var asked []string
	cs := e.connect(t, alice, &mcp.ClientOptions{ElicitationHandler: answer(api.DecisionAllowOnce, &asked, &mu)})
	res := call(t, cs, "command_executor", `{"command":"systemctl restart nginx"}`)
	if res.IsError || !strings.Contains(text(res), `"approved":true`) {
		t.Fatalf("result %v %q", res.IsError, text(res))
	}
	if len(asked) != 1 {
		t.Fatalf("asked %d times", len(asked))
	}
	for _, w := range []string{"command_executor", `"systemctl restart nginx"`, "sensitive", "systemctl changes services", api.DecisionAllowSession} {
		if !strings.Contains(asked[0], w) {
			t.Errorf("question %q lacks %q", asked[0], w)
		}
	}
	if rec := e.rec.Last(t); rec.Decision != "ask" || rec.DecidedBy != tools.ByUser || rec.Status != tools.StatusOK || rec.Client != api.ClientMCP {
		t.Fatalf("record %+v", rec)
	}
	// allow_once grants nothing: asked again.
	call(t, cs, "command_executor", `{"command":"systemctl restart nginx"}`)
	if len(asked) != 2 {
		t.Fatalf("asked %d times after two allow_once", len(asked))
	}
}

func TestAskDeclinedOrCancelledDoesNotRun(t *testing.T) {
	for _, tc := range []struct{ answer, by, says string }{
		{"decline", tools.ByUser, "declined command_executor, so it did not run; do not retry it in this session"},
		{api.DecisionDeny, tools.ByUser, "declined"},
		{"cancel", tools.ByCancel, "the user dismissed the confirmation"},
	} {
		t.Run(tc.answer, func(t *testing.T) {
			e := newEnv(t, Config{})
			var mu sync.Mutex
			var asked []string
			cs := e.connect(t, alice, &mcp.ClientOptions{ElicitationHandler: answer(tc.answer, &asked, &mu)})
			res := call(t, cs, "command_executor", `{"command":"systemctl restart nginx"}`)
			if !res.IsError || !strings.Contains(text(res), tc.says) || strings.Contains(text(res), "turn") { // an MCP session has no turns
				t.Fatalf("result %v %q", res.IsError, text(res))
			}
			if n := e.tools["command_executor"].runs.Load(); n != 0 || len(asked) != 1 {
				t.Fatalf("runs %d, asked %d", n, len(asked))
			}
			if rec := e.rec.Last(t); rec.Decision != "ask" || rec.DecidedBy != tc.by || rec.Status != tools.StatusDenied {
				t.Fatalf("record %+v", rec)
			}
		})
	}
}

func TestAllowSessionLastsForTheSession(t *testing.T) {
	e := newEnv(t, Config{})
	var mu sync.Mutex
	var asked []string
	opts := &mcp.ClientOptions{ElicitationHandler: answer(api.DecisionAllowSession, &asked, &mu)}
	cs := e.connect(t, alice, opts)
	call(t, cs, "command_executor", `{"command":"systemctl restart nginx"}`)
	res := call(t, cs, "command_executor", `{"command":"systemctl restart nginx --now"}`)
	if res.IsError || len(asked) != 1 {
		t.Fatalf("second call in scope: error %v %q, asked %d", res.IsError, text(res), len(asked))
	}
	if rec := e.rec.Last(t); rec.DecidedBy != tools.BySessionGrant {
		t.Fatalf("record %+v", rec)
	}
	// Another scope is asked about.
	call(t, cs, "command_executor", `{"command":"systemctl stop nginx"}`)
	if len(asked) != 2 {
		t.Fatalf("other scope: asked %d", len(asked))
	}
	// Another session starts without grants.
	cs2 := e.connect(t, alice, opts)
	call(t, cs2, "command_executor", `{"command":"systemctl restart nginx"}`)
	if len(asked) != 3 {
		t.Fatalf("new session: asked %d", len(asked))
	}
}

func TestWithoutElicitationAskIsRefused(t *testing.T) {
	e := newEnv(t, Config{})
	cs := e.connect(t, alice, nil)
	res := call(t, cs, "command_executor", `{"command":"systemctl restart nginx"}`)
	if !res.IsError || !strings.Contains(text(res), "needs the user's confirmation, and this client cannot be asked") {
		t.Fatalf("result %v %q", res.IsError, text(res))
	}
	if rec := e.rec.Last(t); rec.DecidedBy != tools.DecidedByNoClient || rec.Status != tools.StatusDenied {
		t.Fatalf("record %+v", rec)
	}
}

func TestAskTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Config{PermissionTimeout: time.Minute})
		waited := make(chan struct{})
		cs := e.connect(t, alice, &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			<-ctx.Done() // the server gives up and cancels the request
			close(waited)
			return nil, ctx.Err()
		}})
		res := call(t, cs, "command_executor", `{"command":"systemctl restart nginx"}`)
		if !res.IsError || !strings.Contains(text(res), "did not answer the confirmation for command_executor in time") {
			t.Fatalf("result %v %q", res.IsError, text(res))
		}
		<-waited
		if rec := e.rec.Last(t); rec.DecidedBy != tools.ByTimeout || e.tools["command_executor"].runs.Load() != 0 {
			t.Fatalf("record %+v", rec)
		}
	})
}

func TestPanicAndHugeOutputKeepTheSession(t *testing.T) {
	e := newEnv(t, Config{})
	cs := e.connect(t, alice, nil)
	res := call(t, cs, "semantic_search", `{"query":"panic"}`)
	if !res.IsError || !strings.Contains(text(res), "failed internally") {
		t.Fatalf("panic: %v %q", res.IsError, text(res))
	}
	res = call(t, cs, "semantic_search", `{"query":"huge"}`)
	if res.IsError || len(text(res)) > 64<<10 || !strings.Contains(text(res), "truncated") || res.StructuredContent != nil {
		t.Fatalf("huge: error %v, %d bytes of text", res.IsError, len(text(res)))
	}
	if res := call(t, cs, "sys_monitor", `{}`); res.IsError {
		t.Fatalf("after: %q", text(res))
	}
}

func TestDownloadOfferReachesTheClient(t *testing.T) {
	e := newEnv(t, Config{})
	cs := e.connect(t, alice, nil)
	res := call(t, cs, "file_download", `{"file_path":"/etc/hosts"}`)
	if res.IsError || !strings.Contains(text(res), "GET "+offerURL) || !strings.Contains(text(res), "hosts, 12 bytes, sha256 abc") {
		t.Fatalf("result %v %q", res.IsError, text(res))
	}
	o, ok := res.Meta[MetaOffer].(map[string]any)
	if !ok || o["download_url"] != offerURL || o["filename"] != "hosts" {
		t.Fatalf("meta %#v", res.Meta)
	}
	if !strings.Contains(text(res), `"client":"mcp"`) {
		t.Fatalf("client type not mcp: %q", text(res))
	}
}

func TestServeEndsWithContextAndShutdown(t *testing.T) {
	e := newEnv(t, Config{})
	st, ct := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- e.srv.Serve(context.Background(), st, alice) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := e.srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != ErrClosed {
		t.Fatalf("Serve after Shutdown: %v", err)
	}
	st2, _ := mcp.NewInMemoryTransports()
	if err := e.srv.Serve(context.Background(), st2, alice); err == nil {
		t.Fatal("Serve after Shutdown succeeded")
	}
}
