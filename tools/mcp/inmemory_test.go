package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"opsassist/tools"
	"opsassist/tools/policy"
)

func ptr[T any](v T) *T { return &v }

// richServer has tools for every kind of result.
func richServer(calls *atomic.Int32) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "rich", Version: "1"}, nil)
	echoTool(s, "", calls)
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&sdk.Tool{Name: "fail", InputSchema: obj},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			r := textResult("disk is full")
			r.IsError = true
			return r, nil
		})
	s.AddTool(&sdk.Tool{Name: "rich", InputSchema: obj, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{
				Content: []sdk.Content{
					&sdk.TextContent{Text: "line one"},
					&sdk.ImageContent{Data: []byte("PNGDATA-SECRET-BYTES"), MIMEType: "image/png"},
					&sdk.TextContent{Text: "line two"},
					&sdk.ResourceLink{URI: "file:///tmp/x.log", Name: "x.log", Size: ptr(int64(42))},
				},
				StructuredContent: map[string]any{"free_gb": 3},
			}, nil
		})
	s.AddTool(&sdk.Tool{Name: "slow", InputSchema: obj, Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true)}},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(&sdk.Tool{Name: "plain", InputSchema: obj},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return textResult("ok"), nil })
	return s
}

func TestListCallAndResults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		reg := tools.NewRegistry(tools.Config{})
		m, err := New(Config{
			Servers:   []ServerConfig{{Name: "s1", Command: "unused", CallTimeout: 5 * time.Second, Risk: map[string]tools.Risk{"plain": tools.RiskReadOnly}}},
			Registry:  reg,
			Transport: inMemory(map[string]*sdk.Server{"s1": richServer(&calls)}),
		})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		if st := m.Status(); st[0].State != StateReady || st[0].Tools != 5 {
			t.Fatalf("status %+v", st)
		}
		risks := map[string]tools.Risk{}
		for _, s := range reg.Specs() {
			risks[s.Name] = s.Risk
			if s.Source != "s1" || s.Timeout != 5*time.Second {
				t.Fatalf("spec %+v", s)
			}
		}
		want := map[string]tools.Risk{"mcp__s1__echo": tools.RiskReadOnly, "mcp__s1__fail": tools.RiskSensitive,
			"mcp__s1__rich": tools.RiskReadOnly, "mcp__s1__slow": tools.RiskDangerous, "mcp__s1__plain": tools.RiskReadOnly}
		if fmt.Sprint(risks) != fmt.Sprint(want) {
			t.Fatalf("risks %v", risks)
		}

		o := run(reg, "mcp__s1__echo", `{"text":"hi"}`)
		if !o.Result.Success || string(o.Result.Output) != `{"text":"hi"}` {
			t.Fatalf("echo: %s", o.ForModel)
		}
		// Invalid arguments are refused before the server sees them.
		o = run(reg, "mcp__s1__echo", `{"text":5}`)
		if o.Result.Success || calls.Load() != 1 {
			t.Fatalf("invalid arguments: %s, calls %d", o.ForModel, calls.Load())
		}
		mustContain(t, "invalid", o.Result.Error, "invalid arguments")

		o = run(reg, "mcp__s1__fail", `{}`)
		if o.Result.Success || o.Result.Error != "disk is full" {
			t.Fatalf("isError: %s", o.ForModel)
		}

		o = run(reg, "mcp__s1__rich", `{}`)
		mustContain(t, "rich", string(o.Result.Output), `"text":"line one\nline two"`, `"structured_content":{"free_gb":3}`,
			`{"type":"image","mime_type":"image/png","bytes":20}`, `"uri":"file:///tmp/x.log"`)
		if strings.Contains(o.ForModel, "PNGDATA") || strings.Contains(o.ForModel, "UE5HREFUQ") {
			t.Fatalf("image bytes given to the model: %s", o.ForModel)
		}

		start := time.Now()
		o = run(reg, "mcp__s1__slow", `{}`)
		if o.Result.Success || time.Since(start) != 5*time.Second {
			t.Fatalf("slow: %s after %s", o.ForModel, time.Since(start))
		}
		mustContain(t, "slow", o.ForModel, "timed out")
	})
}

func TestListChangedUpdatesRegistry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := sdk.NewServer(&sdk.Implementation{Name: "x", Version: "1"}, nil)
		echoTool(srv, "", nil)
		reg := tools.NewRegistry(tools.Config{})
		m, _ := New(Config{Servers: []ServerConfig{{Name: "s", URL: "http://unused"}}, Registry: reg,
			Transport: inMemory(map[string]*sdk.Server{"s": srv})})
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		srv.AddTool(&sdk.Tool{Name: "added", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return textResult("new"), nil
			})
		time.Sleep(time.Second) // fake time: lets the server's notification delay pass
		synctest.Wait()
		if got := fmt.Sprint(sources(reg, "s")); got != "[mcp__s__added mcp__s__echo]" {
			t.Fatalf("after add: %s", got)
		}
		srv.RemoveTools("echo")
		time.Sleep(time.Second)
		synctest.Wait()
		if got := fmt.Sprint(sources(reg, "s")); got != "[mcp__s__added]" {
			t.Fatalf("after remove: %s", got)
		}
		if o := run(reg, "mcp__s__added", `{}`); !o.Result.Success {
			t.Fatal(o.ForModel)
		}
	})
}

func TestTwoServersSameToolName(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := sdk.NewServer(&sdk.Implementation{Name: "a", Version: "1"}, nil)
		echoTool(a, "a:", nil)
		b := sdk.NewServer(&sdk.Implementation{Name: "b", Version: "1"}, nil)
		echoTool(b, "b:", nil)
		reg := tools.NewRegistry(tools.Config{})
		m, _ := New(Config{Servers: []ServerConfig{{Name: "a", URL: "u"}, {Name: "b", URL: "u"}}, Registry: reg,
			Transport: inMemory(map[string]*sdk.Server{"a": a, "b": b})})
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		for _, s := range []string{"a", "b"} {
			o := run(reg, "mcp__"+s+"__echo", `{"text":"x"}`)
			if string(o.Result.Output) != `{"text":"`+s+`:x"}` {
				t.Fatalf("%s: %s", s, o.ForModel)
			}
		}
	})
}

func TestThreeHundredToolsCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := sdk.NewServer(&sdk.Implementation{Name: "big", Version: "1"}, nil)
		for i := range 300 {
			srv.AddTool(&sdk.Tool{Name: fmt.Sprintf("t%03d", i), InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return textResult("ok"), nil })
		}
		core, logs := observer.New(zap.WarnLevel)
		reg := tools.NewRegistry(tools.Config{Logger: zap.New(core)})
		m, _ := New(Config{Servers: []ServerConfig{{Name: "big", URL: "u"}}, Registry: reg,
			Transport: inMemory(map[string]*sdk.Server{"big": srv})})
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		if n := m.Status()[0].Tools; n != 300 {
			t.Fatalf("registered %d", n)
		}
		specs, left := reg.Offered()
		if len(specs) != 100 || len(left) != 200 || left[199] != "mcp__big__t299" {
			t.Fatalf("offered %d left %d", len(specs), len(left))
		}
		if logs.FilterMessageSnippet("left out").Len() != 1 {
			t.Fatalf("warnings: %v", logs.All())
		}
		if o := run(reg, "mcp__big__t250", `{}`); !o.Result.Success {
			t.Fatalf("left-out tool: %s", o.ForModel)
		}
	})
}

func TestFilterAndBadSchema(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := sdk.NewServer(&sdk.Implementation{Name: "f", Version: "1"}, nil)
		for _, n := range []string{"keep", "drop", "other"} {
			srv.AddTool(&sdk.Tool{Name: n, InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return textResult("ok"), nil })
		}
		srv.AddTool(&sdk.Tool{Name: "weird", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"nonsense"}}}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return textResult("ok"), nil })
		core, logs := observer.New(zap.WarnLevel)
		reg := tools.NewRegistry(tools.Config{})
		m, _ := New(Config{Servers: []ServerConfig{{Name: "f", URL: "u", EnabledTools: []string{"keep", "drop", "weird"}, DisabledTools: []string{"drop"}}},
			Registry: reg, Logger: zap.New(core), Transport: inMemory(map[string]*sdk.Server{"f": srv})})
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		if got := fmt.Sprint(sources(reg, "f")); got != "[mcp__f__keep]" {
			t.Fatalf("tools %s", got)
		}
		if logs.FilterMessageSnippet("skipped").Len() == 0 {
			t.Fatal("no warning for the bad schema")
		}
		if st := m.Status()[0]; st.State != StateReady || st.Tools != 1 {
			t.Fatalf("%+v", st)
		}
	})
}

func TestPolicyAsksForNonReadOnlyMCPTool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol := newDefaultPolicy(t)
		reg := tools.NewRegistry(tools.Config{Policy: pol})
		m, _ := New(Config{Servers: []ServerConfig{{Name: "s1", URL: "u"}}, Registry: reg,
			Transport: inMemory(map[string]*sdk.Server{"s1": richServer(nil)})})
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		call := &tools.Call{User: "u", Role: "admin"}
		if o := reg.Execute(t.Context(), call, "mcp__s1__echo", `{"text":"x"}`); !o.Result.Success {
			t.Fatalf("read-only tool: %s", o.ForModel)
		}
		asked := 0
		call.Confirm = func(_ context.Context, c tools.Confirmation) (tools.Confirmed, error) {
			asked++
			return tools.Confirmed{Allowed: true, By: tools.ByUser}, nil
		}
		if o := reg.Execute(t.Context(), call, "mcp__s1__plain", `{}`); !o.Result.Success || asked != 1 {
			t.Fatalf("sensitive tool: asked %d, %s", asked, o.ForModel)
		}
		call.Confirm = nil
		if o := reg.Execute(t.Context(), call, "mcp__s1__plain", `{}`); o.Result.Success {
			t.Fatalf("sensitive tool ran unasked: %s", o.ForModel)
		}
	})
}

func TestRolePatternsMatchTheServersToolName(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := sdk.NewServer(&sdk.Implementation{Name: "x", Version: "1"}, nil)
		for _, n := range []string{"read.file", "write.file"} {
			srv.AddTool(&sdk.Tool{Name: n, InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return textResult("ok"), nil })
		}
		pol, err := policy.New(policy.Config{Roles: map[string]policy.Role{
			"reader": {Tools: map[string]tools.Decision{"my.srv:read.file": tools.Allow}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		reg := tools.NewRegistry(tools.Config{Policy: pol})
		m, _ := New(Config{Servers: []ServerConfig{{Name: "my.srv", URL: "u"}}, Registry: reg,
			Transport: inMemory(map[string]*sdk.Server{"my.srv": srv})})
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		byRemote := map[string]string{}
		for _, s := range reg.Specs() {
			byRemote[s.SourceName] = s.Name
		}
		call := &tools.Call{User: "u", Role: "reader"}
		if o := reg.Execute(t.Context(), call, byRemote["read.file"], `{}`); !o.Result.Success {
			t.Fatalf("%s: %s", byRemote["read.file"], o.ForModel)
		}
		if o := reg.Execute(t.Context(), call, byRemote["write.file"], `{}`); o.Result.Success {
			t.Fatalf("%s ran for a role without it", byRemote["write.file"])
		}
	})
}

func TestOversizedListsSchemasAndDescriptions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := sdk.NewServer(&sdk.Implementation{Name: "huge", Version: "1"}, nil)
		ok := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return textResult("ok"), nil }
		for i := range MaxServerTools + 5 {
			srv.AddTool(&sdk.Tool{Name: fmt.Sprintf("t%04d", i), InputSchema: json.RawMessage(`{"type":"object"}`)}, ok)
		}
		big := `{"type":"object","description":"` + strings.Repeat("x", MaxSchemaBytes) + `"}`
		srv.AddTool(&sdk.Tool{Name: "a_big_schema", InputSchema: json.RawMessage(big)}, ok)
		srv.AddTool(&sdk.Tool{Name: "a_long_desc", Description: strings.Repeat("长", MaxDescriptionBytes), InputSchema: json.RawMessage(`{"type":"object"}`)}, ok)
		core, logs := observer.New(zap.WarnLevel)
		reg := tools.NewRegistry(tools.Config{})
		m, _ := New(Config{Servers: []ServerConfig{{Name: "huge", URL: "u"}}, Registry: reg, Logger: zap.New(core),
			Transport: inMemory(map[string]*sdk.Server{"huge": srv})})
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		if n := m.Status()[0].Tools; n != MaxServerTools-1 {
			t.Fatalf("%d tools registered", n)
		}
		for _, s := range reg.Specs() {
			if s.Name == "mcp__huge__a_big_schema" {
				t.Fatal("the oversized schema was registered")
			}
			if s.Name == "mcp__huge__a_long_desc" && (len(s.Description) > MaxDescriptionBytes || !utf8.ValidString(s.Description)) {
				t.Fatalf("description of %d bytes", len(s.Description))
			}
		}
		if logs.FilterMessageSnippet("too many tools").Len() != 1 || logs.FilterMessageSnippet("tool skipped").Len() != 1 {
			t.Fatalf("warnings %v", logs.All())
		}
	})
}
