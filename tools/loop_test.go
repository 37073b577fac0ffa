package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"opsassist/api"
)

const loopReason = "循环检测：… The loop guard stopped echo."

// TestLoopRefusedWithoutClient: a call the loop guard stopped does not
// run when nobody can be asked; the model is given the guard's reason;
// the Observer sees it denied; the record says the loop guard refused
// it, nobody answered (no_client), and keeps the Policy's decision.
func TestLoopRefusedWithoutClient(t *testing.T) {
	obs := &observed{}
	pol := &countingPolicy{}
	rec := &fakeRecorder{}
	r := newRegistry(t, Config{Observer: obs, Policy: pol, Audit: rec})
	o := r.Execute(context.Background(), &Call{Loop: loopReason}, "echo", `{"text":"x"}`)
	if o.Result.Success || o.Result.Output != nil || o.Result.Error != loopReason {
		t.Fatalf("%+v", o.Result)
	}
	if len(obs.calls) != 1 || obs.calls[0] != "echo:denied" || pol.n != 1 {
		t.Fatalf("observer %v, policy consulted %d times", obs.calls, pol.n)
	}
	got := rec.only(t)
	if got.Decision != "allow" || got.DecidedBy != DecidedByLoopGuard || got.LoopDecidedBy != DecidedByNoClient || got.Status != StatusDenied {
		t.Fatalf("record %+v", got)
	}
}

// TestLoopAsksUser: with a client, the user is asked once, with the
// guard's question for the user (not the model's reason), the redacted
// arguments and the loop scope; allowed, the call goes on to the
// permission question when the Policy put it at Ask; refused, it does
// not run, the record's decider is the loop guard, its decision the
// Policy's, and who answered is in LoopDecidedBy. A Policy that denies
// the call refuses it before anybody is asked.
func TestLoopAsksUser(t *testing.T) {
	question := api.Text{Zh: "模型已第 3 次以相同参数调用 echo。是否仍要执行？", En: "The model has called echo with the same arguments 3 times. Run it anyway?"}
	for _, tc := range []struct {
		name     string
		policy   Policy
		ans      Confirmed
		err      error
		want     string // in output or error
		asked    int
		decision string
		by       string // DecidedBy
		loopBy   string // LoopDecidedBy
	}{
		{"allowed", AllowAll{}, Confirmed{Allowed: true, By: ByUser}, nil, `"text":"x"`, 1, "allow", DecidedByDefault, ByUser},
		{"allowed by grant", AllowAll{}, Confirmed{Allowed: true, By: BySessionGrant}, nil, `"text":"x"`, 1, "allow", DecidedByDefault, BySessionGrant},
		// The Policy asks anyway: one question, the permission's, saying
		// the call repeats.
		{"policy asks", verdictPolicy{Verdict{Decision: Ask, Reason: "reads /etc", Scope: "echo:/etc/"}}, Confirmed{Allowed: true, By: ByUser}, nil, `"approved":"yes"`, 1, "ask", ByUser, ByUser},
		{"policy denies unasked", verdictPolicy{Verdict{Decision: Deny, Reason: "not today", By: DecidedByRole, Rule: "roles.viewer"}}, Confirmed{Allowed: true, By: ByUser}, nil, "denied by policy: not today", 0, "deny", DecidedByRole, ""},
		{"declined", AllowAll{}, Confirmed{By: ByUser}, nil, loopReason + " 用户选择不再执行。The user chose not to run it again.", 1, "allow", DecidedByLoopGuard, ByUser},
		// Declined: refused, the answer recorded for the loop guard too,
		// and the model told the guard's reason (no loop question
		// follows; a call declined earlier in the turn is refused
		// unasked).
		{"declined at ask", verdictPolicy{Verdict{Decision: Ask, Reason: "writes", Scope: "echo:/etc/"}}, Confirmed{By: ByUser}, nil, "the user declined echo, so it did not run; do not retry it, and do not ask again in this turn " + loopReason, 1, "ask", ByUser, ByUser},
		// Allowed by a session grant, unseen by the user: the loop
		// question follows (a grant never answers it).
		{"granted at ask, then asked", verdictPolicy{Verdict{Decision: Ask, Reason: "writes", Scope: "echo:/etc/"}}, Confirmed{Allowed: true, By: BySessionGrant}, nil, `"approved":"yes"`, 2, "ask", BySessionGrant, ByUser},
		{"disconnect", AllowAll{}, Confirmed{By: ByDisconnect}, nil, "The user chose not to run it again", 1, "allow", DecidedByLoopGuard, ByDisconnect},
		{"timeout", AllowAll{}, Confirmed{By: ByTimeout}, nil, loopReason + " 用户未及时回答", 1, "allow", DecidedByLoopGuard, ByTimeout},
		{"error", AllowAll{}, Confirmed{}, errors.New("gone"), loopReason + " (the user could not be asked: gone)", 1, "allow", DecidedByLoopGuard, ByDisconnect},
	} {
		rec := &fakeRecorder{}
		r := newRegistry(t, Config{Policy: tc.policy, Audit: rec})
		var asked []Confirmation
		call := &Call{ToolCallID: "call_9", Loop: loopReason, LoopQuestion: question, Confirm: func(_ context.Context, c Confirmation) (Confirmed, error) {
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
		if got := rec.only(t); got.Decision != tc.decision || got.DecidedBy != tc.by || got.LoopDecidedBy != tc.loopBy {
			t.Errorf("%s: record decision %q by %q, loop answered by %q; want %q %q %q", tc.name, got.Decision, got.DecidedBy, got.LoopDecidedBy, tc.decision, tc.by, tc.loopBy)
		}
		if tc.asked == 0 {
			continue
		}
		c := asked[0]
		if tc.decision == "ask" {
			if !strings.HasPrefix(c.Reason, question.Both()+" ") || c.Scope != "echo:/etc/" || !c.Repeat {
				t.Errorf("%s: the permission question %+v does not say the call repeats", tc.name, c)
			}
			continue
		}
		if c.ToolCallID != "call_9" || c.Tool != "echo" || c.Risk != RiskReadOnly || c.Reason != question.Both() || c.ReasonText != question ||
			c.Scope != `loop_guard:echo:{"n":1,"text":"x"}` || string(c.Args) != args {
			t.Errorf("%s: loop confirmation %+v", tc.name, c)
		}
	}
}

// TestLoopQuestionAheadOfTheReasonInEachLanguage: the permission
// question about a repeating call says so in each language, ahead of
// the Policy's reason in that language.
func TestLoopQuestionAheadOfTheReasonInEachLanguage(t *testing.T) {
	why := api.Text{Zh: "需要确认。", En: "It needs confirmation."}
	r := newRegistry(t, Config{Policy: verdictPolicy{Verdict{Decision: Ask, Reason: why.Both(), ReasonText: why, Scope: "echo:/etc/"}}})
	q := api.Text{Zh: "是否仍要执行？", En: "Run it anyway?"}
	var got Confirmation
	r.Execute(context.Background(), &Call{Loop: loopReason, LoopQuestion: q, Confirm: func(_ context.Context, c Confirmation) (Confirmed, error) {
		got = c
		return Confirmed{By: ByUser}, nil
	}}, "echo", `{"text":"x"}`)
	if got.ReasonText.Zh != "是否仍要执行？需要确认。" || got.ReasonText.En != "Run it anyway? It needs confirmation." {
		t.Fatalf("reason text %+v", got.ReasonText)
	}
}

// TestLoopQuestionDefault: without a LoopQuestion the user is asked a
// generic question naming the tool, never the model's reason.
func TestLoopQuestionDefault(t *testing.T) {
	r := newRegistry(t, Config{})
	var reason string
	r.Execute(context.Background(), &Call{Loop: loopReason, Confirm: func(_ context.Context, c Confirmation) (Confirmed, error) {
		reason = c.Reason
		return Confirmed{By: ByUser}, nil
	}}, "echo", `{"text":"x"}`)
	if strings.Contains(reason, loopReason) || !strings.Contains(reason, "echo") || !strings.HasSuffix(reason, "Run it anyway?") {
		t.Fatalf("question %q", reason)
	}
}

// TestLoopAfterRateLimit: a rate-limited call is refused by the limiter
// before the loop guard's question.
func TestLoopAfterRateLimit(t *testing.T) {
	rec := &fakeRecorder{}
	r := newRegistry(t, Config{Limiter: &fakeLimiter{}, Audit: rec})
	asked := false
	o := r.Execute(context.Background(), &Call{Loop: loopReason, Confirm: func(context.Context, Confirmation) (Confirmed, error) {
		asked = true
		return Confirmed{Allowed: true, By: ByUser}, nil
	}}, "echo", `{"text":"x"}`)
	if asked || !strings.Contains(o.Result.Error, "Rate limit") {
		t.Fatalf("asked %v: %+v", asked, o.Result)
	}
	if got := rec.only(t); got.DecidedBy != DecidedByRateLimit || got.LoopDecidedBy != "" {
		t.Fatalf("record %+v", got)
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
