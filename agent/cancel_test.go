package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
	"opsassist/tools"
)

// leaver is a tool whose call is the moment the client leaves: it
// cancels the turn, and counts its runs.
type leaver struct {
	cancel context.CancelFunc
	runs   *int
}

func (leaver) Spec() tools.Spec {
	return tools.Spec{Name: "leave", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (l leaver) Run(context.Context, *tools.Call, json.RawMessage) (any, error) {
	*l.runs++
	l.cancel()
	return map[string]string{}, nil
}

// TestClientLeavingStopsTools: once the turn is cancelled (the client
// left), no further tool of the step runs and the turn ends with the
// cancellation.
func TestClientLeavingStopsTools(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runs := 0
	rec := &auditRecords{}
	reg := tools.NewRegistry(tools.Config{Audit: rec})
	if err := reg.Register(leaver{cancel, &runs}); err != nil {
		t.Fatal(err)
	}
	calls := []history.ToolCall{{ID: "1", Name: "leave", Arguments: "{}"}, {ID: "2", Name: "leave", Arguments: "{}"}, {ID: "3", Name: "leave", Arguments: "{}"}}
	a, err := New(Config{Planners: map[string]Planner{"builtin": &scriptPlanner{steps: []Step{{ToolCalls: calls}, {Content: "done"}}}}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Respond(ctx, &chat.Turn{Input: "x", Now: time.Now()}, &testkit.Recorder{})
	if !errors.Is(err, context.Canceled) || runs != 1 {
		t.Fatalf("err %v, tool ran %d times", err, runs)
	}
	// The calls never started are audited all the same, refused.
	got := rec.byID(t)
	if len(got) != 3 || got["1"].Attempts != 1 {
		t.Fatalf("records %+v", got)
	}
	for _, id := range []string{"2", "3"} {
		if r := got[id]; r.Status != tools.StatusDenied || r.DecidedBy != tools.ByCancel || r.Attempts != 0 {
			t.Errorf("call %s: %+v", id, r)
		}
	}
}

// TestStatusCapped: a progress status quoting a 60 KB argument or error
// is cut to one short line; the tool message keeps the whole result.
func TestStatusCapped(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{})
	if err := reg.Register(upper{}); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("长", 20000)
	args, _ := json.Marshal(map[string]string{"text": long})
	a, err := New(Config{Planners: map[string]Planner{"builtin": &scriptPlanner{steps: []Step{
		{ToolCalls: []history.ToolCall{{ID: "1", Name: "upper", Arguments: string(args)}, {ID: "2", Name: "nope", Arguments: string(args)}}},
		{Content: "done"}}}}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	r := &testkit.Recorder{}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: "x", Now: time.Now()}, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Statuses {
		if len(s) > maxStatus+64 {
			t.Fatalf("status of %d bytes: %.80q…", len(s), s)
		}
	}
	if len(msgs) < 2 || !strings.Contains(msgs[1].Content+msgs[1].Full, long) {
		t.Fatal("the tool message lost the result")
	}
}

// panicPolicy panics deciding a call.
type panicPolicy struct{}

func (panicPolicy) Decide(context.Context, *tools.Call, tools.Spec, json.RawMessage) tools.Verdict {
	panic("policy panicked")
}

// TestPanicInCallGoroutineReachesTheTurn: a panic while a call runs
// beside others (here in the policy, outside the tool) is raised on the
// turn's goroutine, where the chat core recovers it, not in a goroutine
// of its own, which would end the process.
func TestPanicInCallGoroutineReachesTheTurn(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{Policy: panicPolicy{}})
	if err := reg.Register(upper{}); err != nil {
		t.Fatal(err)
	}
	calls := []history.ToolCall{{ID: "1", Name: "upper", Arguments: `{"text":"a"}`}, {ID: "2", Name: "upper", Arguments: `{"text":"b"}`}}
	a, err := New(Config{Planners: map[string]Planner{"builtin": &scriptPlanner{steps: []Step{{ToolCalls: calls}, {Content: "done"}}}}, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if p := recover(); p != "policy panicked" {
			t.Fatalf("recovered %v", p)
		}
	}()
	a.Respond(context.Background(), &chat.Turn{Input: "x", Now: time.Now()}, &testkit.Recorder{})
	t.Fatal("no panic")
}

// TestAnsweredBySameWords: who answered a question is one word for the
// chat core and the tool layer (asker passes answers through).
func TestAnsweredBySameWords(t *testing.T) {
	for chatBy, toolsBy := range map[string]string{
		chat.AnsweredByUser: tools.ByUser, chat.AnsweredByDefault: tools.ByDefault, chat.AnsweredByTimeout: tools.ByTimeout,
		chat.AnsweredByCancel: tools.ByCancel, chat.AnsweredByDisconnect: tools.ByDisconnect, chat.AnsweredBySessionGrant: tools.BySessionGrant,
		chat.AnsweredByNoClient: tools.DecidedByNoClient,
	} {
		if chatBy != toolsBy {
			t.Errorf("chat %q, tools %q", chatBy, toolsBy)
		}
	}
}
