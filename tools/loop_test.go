package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const loopReason = "循环检测：… The loop guard stopped echo."

// TestLoopRefusedWithoutClient: a call the loop guard stopped does not
// run when nobody can be asked; the model is given the guard's reason;
// the Observer sees it denied; the Policy is never consulted.
func TestLoopRefusedWithoutClient(t *testing.T) {
	obs := &observed{}
	pol := &countingPolicy{}
	r := newRegistry(t, Config{Observer: obs, Policy: pol})
	o := r.Execute(context.Background(), &Call{Loop: loopReason}, "echo", `{"text":"x"}`)
	if o.Result.Success || o.Result.Output != nil || o.Result.Error != loopReason {
		t.Fatalf("%+v", o.Result)
	}
	if len(obs.calls) != 1 || obs.calls[0] != "echo:denied" || pol.n != 0 {
		t.Fatalf("observer %v, policy consulted %d times", obs.calls, pol.n)
	}
	_, by, ok := r.loopCheck(context.Background(), &Call{Loop: loopReason}, echo{}.Spec(), json.RawMessage(`{}`))
	if ok || by != DecidedByLoopGuard {
		t.Fatalf("decided by %q, ok %v", by, ok)
	}
}

// TestLoopAsksUser: with a client, the user is asked once, with the
// guard's reason, the redacted arguments and the loop scope; allowed,
// the call goes on to the Policy as usual (which may ask again, about
// the ordinary permission); refused, it does not run and the decider
// is the answer's.
func TestLoopAsksUser(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy Policy
		ans    Confirmed
		err    error
		want   string // in output or error
		asked  int
		by     string
	}{
		{"allowed", AllowAll{}, Confirmed{Allowed: true, By: ByUser}, nil, `"text":"x"`, 1, ByUser},
		{"allowed then policy asks", verdictPolicy{Verdict{Decision: Ask, Reason: "reads /etc", Scope: "echo:/etc/"}}, Confirmed{Allowed: true, By: ByUser}, nil, `"approved":"yes"`, 2, ByUser},
		{"allowed then policy denies", policy{Deny, "not today"}, Confirmed{Allowed: true, By: ByUser}, nil, "denied by policy: not today", 1, ByUser},
		{"declined", AllowAll{}, Confirmed{By: ByUser}, nil, loopReason + " 用户选择不再执行。The user chose not to run it again.", 1, ByUser},
		{"disconnect", AllowAll{}, Confirmed{By: ByDisconnect}, nil, "The user chose not to run it again", 1, ByDisconnect},
		{"timeout", AllowAll{}, Confirmed{By: ByTimeout}, nil, loopReason + " 用户未及时回答", 1, ByTimeout},
		{"error", AllowAll{}, Confirmed{}, errors.New("gone"), loopReason + " (the user could not be asked: gone)", 1, DecidedByLoopGuard},
	} {
		r := newRegistry(t, Config{Policy: tc.policy})
		var asked []Confirmation
		call := &Call{ToolCallID: "call_9", Loop: loopReason, Confirm: func(_ context.Context, c Confirmation) (Confirmed, error) {
			asked = append(asked, c)
			if len(asked) > 1 {
				return Confirmed{Allowed: true, By: ByUser}, nil // the Policy's question
			}
			return tc.ans, tc.err
		}}
		args := `{ "text":"x", "n":1 }`
		o := r.Execute(context.Background(), call, "echo", args)
		if text := string(o.Result.Output) + o.Result.Error; !strings.Contains(text, tc.want) {
			t.Errorf("%s: %+v", tc.name, o.Result)
		}
		if len(asked) != tc.asked {
			t.Fatalf("%s: asked %d times", tc.name, len(asked))
		}
		c := asked[0]
		if c.ToolCallID != "call_9" || c.Tool != "echo" || c.Risk != RiskReadOnly || c.Reason != loopReason+" 是否继续执行？Run it anyway?" ||
			c.Scope != `loop_guard:echo:{"n":1,"text":"x"}` || string(c.Args) != args {
			t.Errorf("%s: loop confirmation %+v", tc.name, c)
		}
		if tc.asked == 2 && asked[1].Scope != "echo:/etc/" {
			t.Errorf("%s: second question %+v", tc.name, asked[1])
		}
		call.Confirm = func(context.Context, Confirmation) (Confirmed, error) { return tc.ans, tc.err }
		if _, by, _ := r.loopCheck(context.Background(), call, echo{}.Spec(), json.RawMessage(args)); by != tc.by {
			t.Errorf("%s: decided by %q, want %q", tc.name, by, tc.by)
		}
	}
}

// TestLoopScope: the loop scope is the tool and its canonical
// arguments, secrets redacted; it never equals a tool's own scope.
func TestLoopScope(t *testing.T) {
	if got := LoopScope("echo", json.RawMessage(` {"text":"a",  "mode":"ok"} `)); got != `loop_guard:echo:{"mode":"ok","text":"a"}` {
		t.Errorf("scope %s", got)
	}
	got := LoopScope("command_executor", json.RawMessage(`{"command":"mysql","args":["--password=hunter2"]}`))
	if strings.Contains(got, "hunter2") || !strings.HasPrefix(got, LoopScopePrefix+"command_executor:") {
		t.Errorf("scope %s", got)
	}
}

// TestLoopAfterValidation: an invalid call is refused for what is wrong
// with it before the loop guard's question.
func TestLoopAfterValidation(t *testing.T) {
	r := newRegistry(t, Config{})
	asked := false
	call := &Call{Loop: loopReason, Confirm: func(context.Context, Confirmation) (Confirmed, error) {
		asked = true
		return Confirmed{Allowed: true}, nil
	}}
	o := r.Execute(context.Background(), call, "echo", `{"text":1}`)
	if o.Result.Success || !strings.Contains(o.Result.Error, "invalid arguments") || asked {
		t.Fatalf("%+v, asked %v", o.Result, asked)
	}
}

type countingPolicy struct{ n int }

func (p *countingPolicy) Decide(context.Context, *Call, Spec, json.RawMessage) Verdict {
	p.n++
	return Verdict{Decision: Allow}
}
