package chat_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
)

// syncEvents collects events from a turn running in another goroutine.
type syncEvents struct {
	mu  sync.Mutex
	evs []chat.Event
}

func (s *syncEvents) emit(e chat.Event) error {
	s.mu.Lock()
	s.evs = append(s.evs, e)
	s.mu.Unlock()
	return nil
}

func (s *syncEvents) kinds() []chat.Kind {
	s.mu.Lock()
	defer s.mu.Unlock()
	return kinds(s.evs)
}

// runTurn starts se.Chat in a goroutine; the returned channel yields its
// error.
func runTurn(se *chat.Session, input string, ev *syncEvents) <-chan error {
	done := make(chan error, 1)
	go func() { done <- se.Chat(context.Background(), input, ev.emit) }()
	return done
}

func TestCancelStopsTurnAndRecordsPartialAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ag := testkit.NewBlocking()
		ag.Before = "CPU 使用"
		s := newService(t, ag, nil)
		se := s.NewSession("cli", chat.Local())
		var ev syncEvents
		done := runTurn(se, "CPU?", &ev)
		<-ag.Started
		if !se.Cancel() {
			t.Fatal("Cancel found no running turn")
		}
		if err := <-done; err != nil {
			t.Fatalf("cancelled turn returned %v, want nil", err)
		}
		select {
		case <-ag.Cancelled:
		default:
			t.Fatal("the agent's context was not cancelled")
		}
		ks := ev.kinds()
		if ks[len(ks)-1] != chat.KindEnd {
			t.Fatalf("events %v do not end with end", ks)
		}
		for _, k := range ks {
			if k == chat.KindError {
				t.Fatalf("events %v carry an error", ks)
			}
		}
		msgs, _ := se.History()
		if len(msgs) != 2 || msgs[0].Role != "user" || msgs[1].Role != "assistant" ||
			msgs[1].Content != "CPU 使用" || !msgs[1].Cancelled {
			t.Fatalf("history %+v", msgs)
		}
		if se.Cancel() {
			t.Fatal("Cancel after the turn ended found a turn")
		}
	})
}

// TestCancelWithoutTurnIsHarmless: no running turn, nothing happens,
// and the next turn runs to its end.
func TestCancelWithoutTurnIsHarmless(t *testing.T) {
	s := newService(t, testkit.Scripted{}, nil)
	se := s.NewSession("cli", chat.Local())
	if se.Cancel() {
		t.Fatal("Cancel of an idle session reported a turn")
	}
	var evs []chat.Event
	if err := se.Chat(context.Background(), "CPU?", collect(&evs)); err != nil {
		t.Fatal(err)
	}
	msgs, _ := se.History()
	if len(msgs) != 2 || msgs[1].Cancelled || msgs[1].Content != "CPU 使用率 12.5%" {
		t.Fatalf("history %+v", msgs)
	}
	if ok, err := s.Cancel(chat.Local(), se.ID()); ok || err != nil {
		t.Fatalf("Service.Cancel of an idle conversation = %v, %v", ok, err)
	}
}

// TestServiceCancelOnlyByOwner: another principal cannot cancel (nor
// learn of) a conversation; its owner can, from another session.
func TestServiceCancelOnlyByOwner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ag := testkit.NewBlocking()
		s := newService(t, ag, nil)
		alice, bob := chat.TokenPrincipal("alice", false), chat.TokenPrincipal("bob", false)
		se := s.NewSession("web", alice)
		var ev syncEvents
		done := runTurn(se, "CPU?", &ev)
		<-ag.Started
		for _, who := range []chat.Principal{bob, {}} {
			ok, err := s.Cancel(who, se.ID())
			var ce *chat.Error
			if ok || !errors.As(err, &ce) || ce.Code != api.CodeNotFound {
				t.Fatalf("Cancel by %q = %v, %v; want not_found", who.ID, ok, err)
			}
		}
		if _, err := s.Cancel(alice, "no-such-conversation"); err == nil {
			t.Fatal("Cancel of an unknown conversation succeeded")
		}
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("the turn ended on another principal's cancel")
		default:
		}
		if ok, err := s.Cancel(alice, se.ID()); !ok || err != nil {
			t.Fatalf("Cancel by the owner = %v, %v", ok, err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

// finishing is an agent that ignores its context and finishes the
// turn: a cancel that comes too late changes nothing.
type finishing struct{ started, release chan struct{} }

func (a finishing) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	r.Delta("done")
	close(a.started)
	<-a.release
	return []history.Message{{Role: "assistant", Content: "done", Time: t.Now}}, nil
}

func TestCancelOfFinishingTurnKeepsAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ag := finishing{make(chan struct{}), make(chan struct{})}
		s := newService(t, ag, nil)
		se := s.NewSession("cli", chat.Local())
		var ev syncEvents
		done := runTurn(se, "q", &ev)
		<-ag.started
		se.Cancel()
		close(ag.release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		msgs, _ := se.History()
		if len(msgs) != 2 || msgs[1].Cancelled || msgs[1].Content != "done" {
			t.Fatalf("history %+v", msgs)
		}
	})
}

// TestCancelledTurnNextTurnWorks: the conversation's next turn runs
// normally and sees the cancelled answer in its history.
func TestCancelledTurnNextTurnWorks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ag := testkit.NewBlocking()
		ag.Before = "partial"
		sw := testkit.NewSwitchable(ag)
		s := newService(t, sw, nil)
		se := s.NewSession("cli", chat.Local())
		var ev syncEvents
		done := runTurn(se, "one", &ev)
		<-ag.Started
		se.Cancel()
		<-done
		var seen []history.Message
		sw.Set(historyAgent{&seen})
		var evs []chat.Event
		if err := se.Chat(context.Background(), "two", collect(&evs)); err != nil {
			t.Fatal(err)
		}
		if len(seen) != 2 || !seen[1].Cancelled {
			t.Fatalf("second turn saw history %+v", seen)
		}
	})
}

// historyAgent records the history its turn saw.
type historyAgent struct{ seen *[]history.Message }

func (a historyAgent) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	*a.seen = t.History
	return []history.Message{{Role: "assistant", Content: "ok", Time: t.Now}}, nil
}

// partialSteps is an agent that took one step — three tool calls, one
// of which ran — streamed more, and is then cancelled.
type partialSteps struct{ started chan struct{} }

func (a partialSteps) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	r.Delta("restarting ")
	msgs := []history.Message{
		{Role: "assistant", Content: "restarting ", ToolCalls: []history.ToolCall{
			{ID: "c1", Name: "command_executor", Arguments: `{"command":"systemctl restart nginx"}`},
			{ID: "c2", Name: "command_executor", Arguments: `{"command":"systemctl status nginx"}`},
			{ID: "c3", Name: "sys_monitor", Arguments: `{}`},
		}},
		{Role: "tool", ToolCallID: "c1", Name: "command_executor", Content: `{"success":true,"output":"restarted"}`},
		{Role: "tool", ToolCallID: "stray", Name: "x", Content: "answers no call"},
	}
	r.Delta("and then")
	close(a.started)
	<-ctx.Done()
	return msgs, ctx.Err()
}

// TestCancelKeepsCallsThatRan: a cancelled turn records the tool calls
// that ran and their results, so the next turn's model knows; calls
// that never ran get a result saying so, and the text streamed after
// the recorded step is the cancelled answer.
func TestCancelKeepsCallsThatRan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ag := partialSteps{started: make(chan struct{})}
		s := newService(t, ag, nil)
		se := s.NewSession("cli", chat.Local())
		var ev syncEvents
		done := runTurn(se, "restart nginx", &ev)
		<-ag.started
		se.Cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		msgs, _ := se.History()
		var got []string
		for _, m := range msgs {
			got = append(got, m.Role+":"+m.ToolCallID+":"+m.Content)
		}
		want := []string{
			"user::restart nginx",
			"assistant::restarting ",
			`tool:c1:{"success":true,"output":"restarted"}`,
			`tool:c2:{"success":false,"error":"not run: the user cancelled the turn before this call ran","duration_ms":0}`,
			`tool:c3:{"success":false,"error":"not run: the user cancelled the turn before this call ran","duration_ms":0}`,
			"assistant::and then",
		}
		if len(got) != len(want) {
			t.Fatalf("history\n%q\nwant\n%q", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("message %d = %q, want %q", i, got[i], want[i])
			}
		}
		if len(msgs[1].ToolCalls) != 3 || msgs[1].Cancelled || !msgs[5].Cancelled {
			t.Errorf("calls %d, cancelled marks %v %v", len(msgs[1].ToolCalls), msgs[1].Cancelled, msgs[5].Cancelled)
		}
	})
}
