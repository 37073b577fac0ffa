package toolcall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/tools"
)

// fakeRunner knows "echo" and records the calls it runs.
type fakeRunner struct {
	calls   []*tools.Call
	refused []string
}

func (f *fakeRunner) Names() []string { return []string{"echo"} }

func (f *fakeRunner) Execute(_ context.Context, call *tools.Call, name, raw string) tools.Outcome {
	f.calls = append(f.calls, call)
	return tools.Outcome{Tool: name, Result: api.ToolResult{Success: true, Output: json.RawMessage(raw)}}
}

func (f *fakeRunner) Refuse(call *tools.Call, name, raw, by, reason string) tools.Outcome {
	f.refused = append(f.refused, by)
	return tools.Outcome{Tool: name, Result: api.ToolResult{Error: reason}}
}

// TestDirectCancelled: a call whose context ended before it ran (a
// CANCEL that reached it in a queue) does not run; it is refused by the
// cancel, recorded, and its result says so.
func TestDirectCancelled(t *testing.T) {
	r := &fakeRunner{}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err := Direct(ctx, r, Caller{User: "alice"}, "echo", nil, "TOOL_LIST")
	if err != nil || res.Success || res.Error != cancelledText {
		t.Fatalf("%+v %v", res, err)
	}
	if len(r.calls) != 0 || len(r.refused) != 1 || r.refused[0] != tools.ByCancel {
		t.Fatalf("ran %d, refused %v", len(r.calls), r.refused)
	}
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

// maxFuzzInput bounds FuzzCheck's inputs (a TOOL_CALL payload is at
// most 32 KiB), so one input's cost stays bounded.
const maxFuzzInput = 64 << 10

// FuzzCheck feeds Check hostile tool names and arguments: it never
// panics; what it accepts names a registered tool and is a JSON object
// ({} for none, else the arguments themselves, trimmed); what it
// refuses is an *Error whose code matches its sentinel — bad_request
// for arguments that are not an object, not_found for an unknown tool,
// whose message quotes the name safely.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"", "null", "{}", `{"a":1}`, "[1]", `"x"`, " {", "5", "\t{\"a\":{}}\n"} {
		f.Add("echo", []byte(s))
	}
	for _, n := range []string{"", "Echo", "echo ", "echo\x00", "../echo", "\u202eecho", strings.Repeat("e", 4096), "mcp__fs__read"} {
		f.Add(n, []byte(`{}`))
	}
	f.Fuzz(func(t *testing.T, name string, p []byte) {
		if len(name)+len(p) > maxFuzzInput {
			return
		}
		if !json.Valid(p) && len(strings.TrimSpace(string(p))) != 0 {
			return // the transports reject what is not JSON first
		}
		r := &fakeRunner{}
		args, err := Check(r, name, p, "TOOL_LIST")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%q %q: %T %v", name, p, err, err)
			}
			switch {
			case errors.Is(err, ErrNotObject) && e.Code == api.CodeBadRequest:
				var m map[string]any
				if json.Unmarshal(p, &m) == nil && m != nil {
					t.Fatalf("object %q refused as not one", p)
				}
			case errors.Is(err, ErrUnknownTool) && e.Code == api.CodeNotFound:
				if name == "echo" {
					t.Fatalf("known tool refused: %v", err)
				}
				if !strings.Contains(e.Message, strconv.Quote(name)) {
					t.Fatalf("message %q does not quote %q", e.Message, name)
				}
			default:
				t.Fatalf("%q %q: code %q for %v", name, p, e.Code, err)
			}
			return
		}
		if name != "echo" {
			t.Fatalf("unknown tool %q accepted", name)
		}
		var m map[string]any
		if json.Unmarshal(args, &m) != nil || m == nil {
			t.Fatalf("accepted %q as %q", p, args)
		}
		if tp := bytes.TrimSpace(p); len(tp) != 0 && string(tp) != "null" && !bytes.Equal(args, tp) {
			t.Fatalf("arguments %q became %q", p, args)
		}
		if len(r.calls) != 0 || len(r.refused) != 0 {
			t.Fatal("Check ran or refused a call")
		}
	})
}
