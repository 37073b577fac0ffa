package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
	"opsassist/tools"
)

// failing is the tool "run" {"command": string}, which always fails,
// as a command that does not exist would; it counts its runs per
// command.
type failing struct {
	mu   sync.Mutex
	runs map[string]int
}

func (*failing) Spec() tools.Spec {
	return tools.Spec{Name: "run", Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)}
}

func (f *failing) Run(_ context.Context, _ *tools.Call, args json.RawMessage) (any, error) {
	var a struct{ Command string }
	json.Unmarshal(args, &a)
	f.mu.Lock()
	f.runs[a.Command]++
	f.mu.Unlock()
	return nil, errors.New("exit status 127: " + a.Command + ": command not found")
}

func (f *failing) ran(command string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.runs[command]
}

// loopAgent returns an agent with the failing tool and upper whose
// planner plays steps, and the failing tool.
func loopAgent(t *testing.T, steps []Step) (*Agent, *scriptPlanner, *failing) {
	t.Helper()
	reg := tools.NewRegistry(tools.Config{})
	f := &failing{runs: map[string]int{}}
	for _, tool := range []tools.Tool{f, upper{}} {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	p := &scriptPlanner{steps: steps}
	a, err := New(Config{Planners: map[string]Planner{"builtin": p}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	return a, p, f
}

// repeating is DefaultMaxSteps steps each calling the tool run with
// the arguments args, in turn (ids s1-0, s2-0…).
func repeating(args ...string) []Step {
	var steps []Step
	for i := range DefaultMaxSteps {
		a := args[i%len(args)]
		steps = append(steps, Step{ToolCalls: []history.ToolCall{call(fmt.Sprintf("s%d-0", i+1), "run", a)}})
	}
	return steps
}

// toolMessages checks that every tool call of msgs has exactly one tool
// message, in order, and returns the tool messages.
func toolMessages(t *testing.T, msgs []history.Message) []history.Message {
	t.Helper()
	var want []string
	var got []history.Message
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			want = append(want, tc.ID)
		}
		if m.Role == "tool" {
			got = append(got, m)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d tool calls, %d tool messages", len(want), len(got))
	}
	for i, m := range got {
		if m.ToolCallID != want[i] {
			t.Fatalf("tool message %d answers %s, want %s", i, m.ToolCallID, want[i])
		}
	}
	return got
}

// TestLoopGuardStopsRepeatedCall: a model that repeats one failing call
// every step gets it run twice; the third is not run and the model is
// told why; when it asks a fourth time the turn ends, long before
// MaxSteps, with an answer naming the call; every call has its tool
// message. The user, asked about the third and fourth, is away.
func TestLoopGuardStopsRepeatedCall(t *testing.T) {
	a, p, f := loopAgent(t, repeating(`{"command":"systemctl restrat nginx"}`))
	r := &testkit.Recorder{}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "restart nginx"}, r)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.ran("systemctl restrat nginx"); n != 2 {
		t.Fatalf("the tool ran %d times, want 2", n)
	}
	if len(p.reqs) != 4 {
		t.Fatalf("%d planning steps, want 4 (of %d)", len(p.reqs), DefaultMaxSteps)
	}
	tms := toolMessages(t, msgs)
	if len(tms) != 4 {
		t.Fatalf("%d tool messages", len(tms))
	}
	for i, tm := range tms {
		stopped := strings.Contains(tm.Content, "The loop guard stopped run")
		if stopped != (i >= 2) || (i < 2) != strings.Contains(tm.Content, "command not found") {
			t.Errorf("tool message %d: %s", i, tm.Content)
		}
	}
	// The model was told, in the request of the fourth step.
	told := p.reqs[3].Messages[len(p.reqs[3].Messages)-1]
	if told.Role != "tool" || !strings.Contains(told.Content, "Do not call it again this turn") {
		t.Fatalf("the model was told %+v", told)
	}
	last := msgs[len(msgs)-1]
	want := `The same call kept repeating and was stopped: run {"command":"systemctl restrat nginx"}.`
	if last.Role != "assistant" || len(last.ToolCalls) != 0 || !strings.HasPrefix(last.Content, want) || !strings.HasSuffix(r.Text.String(), last.Content) {
		t.Fatalf("last message %+v", last)
	}
	if n := strings.Count(strings.Join(r.Events, " "), "confirm:run"); n != 2 {
		t.Fatalf("asked %d times, want 2 (the third and the fourth call)", n)
	}
}

// TestLoopGuardChinese: the answer ending a stuck turn follows the
// user's language.
func TestLoopGuardChinese(t *testing.T) {
	a, _, _ := loopAgent(t, repeating(`{"command":"false"}`))
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "重启服务"}, &testkit.Recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if last := msgs[len(msgs)-1].Content; !strings.HasPrefix(last, `同一个调用反复出现，已停止：run {"command":"false"}。`) {
		t.Fatalf("last %q", last)
	}
}

// TestLoopGuardStopsOscillation: A, B, A, B: the fourth call is not
// run; the model continuing the swing ends the turn.
func TestLoopGuardStopsOscillation(t *testing.T) {
	a, p, f := loopAgent(t, repeating(`{"command":"a"}`, `{"command":"b"}`))
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "fix it"}, &testkit.Recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if f.ran("a") != 2 || f.ran("b") != 1 {
		t.Fatalf("ran a %d, b %d times; want 2 and 1", f.ran("a"), f.ran("b"))
	}
	tms := toolMessages(t, msgs)
	if len(p.reqs) != 5 || len(tms) != 5 || !strings.Contains(tms[3].Content, "A-B-A-B") || !strings.Contains(tms[4].Content, "The loop guard stopped run") {
		t.Fatalf("%d steps, tool messages %+v", len(p.reqs), tms)
	}
	if last := msgs[len(msgs)-1].Content; !strings.Contains(last, `kept repeating and was stopped: run {"command":"a"}`) {
		t.Fatalf("last %q", last)
	}
}

// TestLoopGuardUserAllows: with a client that allows, the user is asked
// once, the call runs, and the turn goes on to the model's answer.
func TestLoopGuardUserAllows(t *testing.T) {
	args := `{"command":"false"}`
	steps := repeating(args)[:3]
	steps = append(steps, Step{Content: "it keeps failing"})
	a, _, f := loopAgent(t, steps)
	var asked []chat.Confirmation
	r := &testkit.Recorder{Answer: func(c chat.Confirmation) chat.Confirmed {
		asked = append(asked, c)
		return chat.Confirmed{Allowed: true, By: chat.AnsweredByUser}
	}}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "x"}, r)
	if err != nil {
		t.Fatal(err)
	}
	if f.ran("false") != 3 || len(asked) != 1 {
		t.Fatalf("ran %d times, asked %d times", f.ran("false"), len(asked))
	}
	if c := asked[0]; c.Scope != tools.LoopScope("run", json.RawMessage(args)) || !strings.HasSuffix(c.Reason, "Run it anyway?") || c.ToolCallID != "s3-0" ||
		!strings.Contains(c.Reason, "The model has called run with the same arguments 3 times") || strings.Contains(c.Reason, "Do not call it again") {
		t.Fatalf("asked %+v", c)
	}
	if last := msgs[len(msgs)-1]; last.Content != "it keeps failing" {
		t.Fatalf("last %+v", last)
	}
}

// TestLoopGuardAllowStartsOver: once the user allowed a repeat, the next
// one runs without asking, and the one after is asked about again.
func TestLoopGuardAllowStartsOver(t *testing.T) {
	steps := repeating(`{"command":"false"}`)[:5]
	steps = append(steps, Step{Content: "done"})
	a, _, f := loopAgent(t, steps)
	asked := 0
	r := &testkit.Recorder{Answer: func(chat.Confirmation) chat.Confirmed {
		asked++
		return chat.Confirmed{Allowed: true, By: chat.AnsweredByUser}
	}}
	if _, err := a.Respond(context.Background(), &chat.Turn{Input: "x"}, r); err != nil {
		t.Fatal(err)
	}
	if f.ran("false") != 5 || asked != 2 {
		t.Fatalf("ran %d times, asked %d times; want 5 and 2", f.ran("false"), asked)
	}
}

// TestLoopGuardParallelInOrder: the calls of one step are checked in
// call order: of four identical calls the first two run, the third and
// fourth are stopped, whatever order the tools finish in; a different
// call in the step runs; the turn goes on (not every call was stopped).
func TestLoopGuardParallelInOrder(t *testing.T) {
	same := `{"command":"uptime"}`
	for range 20 {
		step := Step{ToolCalls: []history.ToolCall{
			call("c1", "run", same), call("c2", "run", same), call("c3", "upper", `{"text":"x"}`),
			call("c4", "run", same), call("c5", "run", ` { "command" : "uptime" } `),
		}}
		a, p, f := loopAgent(t, []Step{step, {Content: "done"}})
		msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "x"}, &testkit.Recorder{})
		if err != nil {
			t.Fatal(err)
		}
		tms := toolMessages(t, msgs)
		for i, want := range []bool{false, false, false, true, true} {
			if got := strings.Contains(tms[i].Content, "The loop guard stopped run"); got != want {
				t.Fatalf("call %d stopped %v: %s", i+1, got, tms[i].Content)
			}
		}
		if f.ran("uptime") != 2 || len(p.reqs) != 2 || msgs[len(msgs)-1].Content != "done" {
			t.Fatalf("ran %d times, %d steps", f.ran("uptime"), len(p.reqs))
		}
	}
}

// TestLoopGuardLeavesNormalTurns: different calls, and the same call
// twice, run without the user being asked.
func TestLoopGuardLeavesNormalTurns(t *testing.T) {
	a, p, f := loopAgent(t, []Step{
		{ToolCalls: []history.ToolCall{call("c1", "run", `{"command":"a"}`), call("c2", "upper", `{"text":"b"}`)}},
		{ToolCalls: []history.ToolCall{call("c3", "run", `{"command":"a"}`), call("c4", "upper", `{"text":"c"}`)}},
		{Content: "done"},
	})
	r := &testkit.Recorder{}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "x"}, r)
	if err != nil {
		t.Fatal(err)
	}
	if f.ran("a") != 2 || len(p.reqs) != 3 || msgs[len(msgs)-1].Content != "done" || strings.Contains(strings.Join(r.Events, " "), "confirm:") {
		t.Fatalf("ran %d, %d steps, events %v", f.ran("a"), len(p.reqs), r.Events)
	}
	for _, tm := range toolMessages(t, msgs) {
		if strings.Contains(tm.Content, "loop guard") {
			t.Fatalf("stopped: %s", tm.Content)
		}
	}
}

// TestLoopGuardAnswerRedacts: the answer ending a stuck turn never
// quotes a secret of the call.
func TestLoopGuardAnswerRedacts(t *testing.T) {
	for _, args := range []string{`{"command":"mysql --password=hunter2"}`, `{"command":"mysql --password=hunter2"`} {
		a, _, _ := loopAgent(t, repeating(args))
		msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "x"}, &testkit.Recorder{})
		if err != nil {
			t.Fatal(err)
		}
		last := msgs[len(msgs)-1].Content
		if !strings.Contains(last, "kept repeating") || strings.Contains(last, "hunter2") {
			t.Fatalf("last %q", last)
		}
	}
}

// askEverything is a Policy that asks about every call.
type askEverything struct{}

func (askEverything) Decide(context.Context, *tools.Call, tools.Spec, json.RawMessage) tools.Verdict {
	return tools.Verdict{Decision: tools.Ask, Reason: "asks", Scope: "run:*"}
}

// TestLoopGuardAskedToolOneQuestion: a repeating call the policy asks
// about anyway gets one question per call, which says it repeats; when
// the user allows each one, they all run and the turn goes on to the
// model's answer (the user's yes answers the loop guard too).
func TestLoopGuardAskedToolOneQuestion(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{Policy: askEverything{}})
	f := &failing{runs: map[string]int{}}
	if err := reg.Register(f); err != nil {
		t.Fatal(err)
	}
	steps := append(repeating(`{"command":"false"}`)[:4], Step{Content: "it keeps failing"})
	a, err := New(Config{Planners: map[string]Planner{"builtin": &scriptPlanner{steps: steps}}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	var asked []chat.Confirmation
	r := &testkit.Recorder{Answer: func(c chat.Confirmation) chat.Confirmed {
		asked = append(asked, c)
		return chat.Confirmed{Allowed: true, By: chat.AnsweredByUser}
	}}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "x"}, r)
	if err != nil {
		t.Fatal(err)
	}
	if f.ran("false") != 4 || len(asked) != 4 {
		t.Fatalf("ran %d times, asked %d times; want 4 and 4", f.ran("false"), len(asked))
	}
	if !strings.Contains(asked[2].Reason, "3 times") || strings.HasPrefix(asked[2].Scope, tools.LoopScopePrefix) || strings.Contains(asked[1].Reason, "times") {
		t.Errorf("questions: %+v", asked)
	}
	if last := msgs[len(msgs)-1]; last.Content != "it keeps failing" {
		t.Fatalf("the turn did not reach the model's answer: %+v", last)
	}
}
