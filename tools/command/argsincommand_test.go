package command

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"opsassist/tools"
	"opsassist/tools/policy"
)

// TestArgsInCommand: a command field with arguments in it is refused,
// never run, with the call as it should be written; other command
// fields keep their refusals.
func TestArgsInCommand(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct{ raw, hint string }{
		{`{"command":"df -h"}`, `{"command":"df","args":["-h"]}`},
		{`{"command":"df -h","args":["/"]}`, `{"command":"df","args":["-h","/"]}`},
		{`{"command":"ls\t-la"}`, `{"command":"ls","args":["-la"]}`},
		{`{"command":" df  -h "}`, `{"command":"df","args":["-h"]}`},
		{`{"command":"ps aux"}`, `{"command":"ps","args":["aux"]}`},
		{`{"command":"systemctl status nginx"}`, `{"command":"systemctl","args":["status","nginx"]}`},
	} {
		v, err := f.e.Run(t.Context(), &tools.Call{Approved: true}, json.RawMessage(tc.raw))
		if v != nil || !errors.Is(err, ErrArgsInCommand) || !strings.Contains(err.Error(), tc.hint) {
			t.Errorf("%s: %v, %v; want ErrArgsInCommand with %s", tc.raw, v, err, tc.hint)
		}
		if tools.Classify(err) != tools.ClassParameter {
			t.Errorf("%s: class %q", tc.raw, tools.Classify(err))
		}
		if tg, err := f.e.Inspect(json.RawMessage(tc.raw)); err != nil || tg.Tier != tools.Allow {
			t.Errorf("%s: Inspect = %+v, %v; want Allow (the tool refuses it)", tc.raw, tg, err)
		}
	}
	for _, raw := range []string{`{"command":"rm -rf /"}`, `{"command":"uname -a"}`, `{"command":"df;ls"}`, `{"command":"sh -c ls"}`} {
		if _, err := f.e.Run(t.Context(), &tools.Call{Approved: true}, json.RawMessage(raw)); !errors.Is(err, ErrNotAllowed) {
			t.Errorf("%s: %v, want ErrNotAllowed", raw, err)
		}
	}
	// A command field as long as a request: refused at once, quoted
	// only in part.
	long, _ := json.Marshal(map[string]string{"command": "df " + strings.Repeat("-h ", 300_000)})
	_, err := f.e.Run(t.Context(), nil, long)
	if !errors.Is(err, ErrArgsInCommand) || len(err.Error()) > 1000 {
		t.Errorf("long command field: %d bytes of %v", len(err.Error()), errors.Unwrap(err) != nil)
	}
}

// TestArgsInCommandThroughRegistry: through the registry and the
// permission policy, "df -h" is neither asked about nor denied for any
// role: it fails with the code args_in_command, which the user reads in
// their language, and the model reads how to write the call.
func TestArgsInCommandThroughRegistry(t *testing.T) {
	f := newFixture(t)
	p, err := policy.New(policy.Config{Inspectors: map[string]policy.Inspector{"command_executor": f.e}})
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(tools.Config{Policy: p})
	if err := reg.Register(f.e); err != nil {
		t.Fatal(err)
	}
	for _, role := range []string{policy.RoleOperator, policy.RoleViewer} {
		asked := false
		call := &tools.Call{Role: role, Confirm: func(context.Context, tools.Confirmation) (tools.Confirmed, error) {
			asked = true
			return tools.Confirmed{}, nil
		}}
		o := reg.Execute(t.Context(), call, "command_executor", `{"command":"df -h"}`)
		if asked || o.Result.Success || o.Result.Code != tools.CodeArgsInCommand ||
			!strings.Contains(o.Result.Error, `{"command":"df","args":["-h"]}`) || !strings.Contains(o.ForModel, `\"args\":[\"-h\"]`) {
			t.Errorf("%s: asked %v, %+v", role, asked, o.Result)
		}
	}
	zh, en := tools.UserText(tools.CodeArgsInCommand, "command_executor", true), tools.UserText(tools.CodeArgsInCommand, "command_executor", false)
	if !strings.Contains(zh, "命令名里带了参数") || !strings.Contains(en, "inside the command's name") {
		t.Errorf("user texts %q / %q", zh, en)
	}
}
