package chat_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"opsassist/api"
	"opsassist/chat"
)

// TestPendingLists: a waiting question is listed, as its event carried
// it, to its own principal and conversation only; answered, it is gone;
// one that timed out is never listed.
func TestPendingLists(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := choice
		q.Timeout = 30 * time.Second
		s := confirmService(t, asking{q}, time.Hour)
		se := s.NewSession(api.ClientCLI, chat.Local())
		if pd := se.Pending(); len(pd.Permissions) != 0 || len(pd.Questions) != 0 || se.HasPending() {
			t.Fatalf("pending before the turn: %+v", pd)
		}
		qs, done := questionTurn(context.Background(), se, nil)
		ev := <-qs
		pd := se.Pending()
		if len(pd.Questions) != 1 || len(pd.Permissions) != 0 || !se.HasPending() {
			t.Fatalf("pending: %+v", pd)
		}
		if got := pd.Questions[0]; got.RequestID != ev.RequestID || got.ExpiresAt != ev.ExpiresAt || got.Question != ev.Question || len(got.Options) != 2 {
			t.Fatalf("listed %+v, emitted %+v", got, ev)
		}
		other := s.NewSession(api.ClientCLI, chat.Principal{ID: "t-other"})
		if pd := other.Pending(); len(pd.Questions) != 0 {
			t.Fatalf("another's conversation lists %+v", pd)
		}
		if err := se.AnswerQuestion(ev.RequestID, "a"); err != nil {
			t.Fatal(err)
		}
		<-done
		if pd := se.Pending(); len(pd.Questions) != 0 || se.HasPending() {
			t.Fatalf("pending after the answer: %+v", pd)
		}

		// Nobody answers: at the deadline it is no longer listed.
		_, done = questionTurn(context.Background(), se, nil)
		synctest.Wait()
		if !se.HasPending() {
			t.Fatal("the second question is not listed")
		}
		time.Sleep(q.Timeout)
		if pd := se.Pending(); len(pd.Questions) != 0 {
			t.Fatalf("listed at its deadline: %+v", pd)
		}
		<-done
	})
}

// TestPendingPermission: a waiting permission request is listed with the
// fields of its permission_request event; answered, it is gone.
func TestPendingPermission(t *testing.T) {
	s := confirmService(t, confirming{Scopes: []string{"x"}}, time.Hour)
	se := s.NewSession(api.ClientCLI, chat.Local())
	reqs, done := turn(context.Background(), se, nil)
	req := <-reqs
	pd := se.Pending()
	if len(pd.Permissions) != 1 || len(pd.Questions) != 0 {
		t.Fatalf("pending: %+v", pd)
	}
	got := pd.Permissions[0]
	if got.RequestID != req.RequestID || got.Tool != req.Tool || got.ExpiresAt != req.ExpiresAt || string(got.Args) != string(req.Args) || len(got.Options) != 3 {
		t.Fatalf("listed %+v, emitted %+v", got, req)
	}
	if err := se.AnswerPermission(req.RequestID, api.DecisionDeny); err != nil {
		t.Fatal(err)
	}
	<-done
	if se.HasPending() {
		t.Fatalf("pending after the answer: %+v", se.Pending())
	}
}
