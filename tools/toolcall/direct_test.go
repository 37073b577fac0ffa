package toolcall

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/tools"
)

// fakeRunner knows "echo" and records the calls it runs.
type fakeRunner struct{ calls []*tools.Call }

func (f *fakeRunner) Names() []string { return []string{"echo"} }

func (f *fakeRunner) Execute(_ context.Context, call *tools.Call, name, raw string) tools.Outcome {
	f.calls = append(f.calls, call)
	return tools.Outcome{Tool: name, Result: api.ToolResult{Success: true, Output: json.RawMessage(raw)}}
}

// TestDirect: absent or null arguments are {}; arguments that are not an
// object and an unknown tool are refused with their api codes and run
// nothing; a call runs as Direct for the caller.
func TestDirect(t *testing.T) {
	r := &fakeRunner{}
	who := Caller{ClientType: api.ClientCLI, User: "alice", Role: "operator", SessionID: "s1"}
	for _, a := range []string{"", "null", " null "} {
		res, err := Direct(context.Background(), r, who, "echo", json.RawMessage(a), "TOOL_LIST")
		if err != nil || string(res.Output) != "{}" {
			t.Fatalf("%q: %+v %v", a, res, err)
		}
	}
	c := r.calls[0]
	if !c.Direct || c.User != "alice" || c.Role != "operator" || c.SessionID != "s1" || c.ClientType != api.ClientCLI {
		t.Fatalf("call %+v", c)
	}
	for _, a := range []string{"[1]", `"x"`, "5"} {
		_, err := Direct(context.Background(), r, who, "echo", json.RawMessage(a), "TOOL_LIST")
		var te *Error
		if !errors.As(err, &te) || te.Code != api.CodeBadRequest || !errors.Is(err, ErrNotObject) {
			t.Fatalf("%s: %v", a, err)
		}
	}
	_, err := Direct(context.Background(), r, who, "nope", nil, "TOOL_LIST")
	var te *Error
	if !errors.As(err, &te) || te.Code != api.CodeNotFound || !errors.Is(err, ErrUnknownTool) || !strings.Contains(te.Message, `"nope" (TOOL_LIST lists them)`) {
		t.Fatalf("unknown: %v", err)
	}
	if len(r.calls) != 3 {
		t.Fatalf("%d calls ran", len(r.calls))
	}
}

// emptyCatalog has neither tools nor servers.
type emptyCatalog struct{}

func (emptyCatalog) Tools() []api.ToolInfo        { return nil }
func (emptyCatalog) Servers() []api.MCPServerInfo { return nil }

// TestListEmpty: nil slices are listed as [].
func TestListEmpty(t *testing.T) {
	b, err := json.Marshal(List(emptyCatalog{}))
	if err != nil || string(b) != `{"tools":[],"servers":[]}` {
		t.Fatalf("%s %v", b, err)
	}
}

// FuzzCheck: arguments Check accepts are a JSON object, {} for none;
// it never panics.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"", "null", "{}", `{"a":1}`, "[1]", `"x"`, " {", "5"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		if !json.Valid(p) && len(strings.TrimSpace(string(p))) != 0 {
			return // the transports reject what is not JSON first
		}
		args, err := Check(&fakeRunner{}, "echo", p, "TOOL_LIST")
		if err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal(args, &m) != nil || m == nil {
			t.Fatalf("accepted %q as %q", p, args)
		}
	})
}
