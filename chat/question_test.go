package chat_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
)

// asking is an Agent that asks Q and answers "answer/option/by/err".
type asking struct{ Q chat.Question }

func (a asking) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	ans, err := r.AskUser(ctx, a.Q)
	text := fmt.Sprintf("%s/%s/%s/%v", ans.Answer, ans.Option, ans.By, err)
	r.Delta(text)
	return []history.Message{{Role: "assistant", Content: text, Time: t.Now}}, nil
}

var choice = chat.Question{Question: "which?", Kind: api.QuestionChoice, Options: []api.QuestionOption{
	{ID: "a", Label: "A", Recommended: true}, {ID: "b", Label: "B"}}}

// questionTurn runs one turn in the background; questions arrive on the
// channel, the reply's text on done.
func questionTurn(ctx context.Context, se *chat.Session, emitErr error) (<-chan api.Question, <-chan string) {
	qs := make(chan api.Question, 8)
	done := make(chan string, 1)
	go func() {
		var text strings.Builder
		se.Chat(ctx, "go", func(e chat.Event) error {
			switch e.Kind {
			case chat.KindQuestion:
				qs <- *e.Question
				return emitErr
			case chat.KindDelta:
				text.WriteString(e.Text)
			}
			return nil
		})
		done <- text.String()
	}()
	return qs, done
}

// TestQuestionChoice: a bad answer is refused and leaves the question
// open; an option's label answers it as that option's id (an id does
// too: TestQuestionTimeout and the transports' tests); a second answer is refused; another
// principal cannot answer; a permission answer to a question's id is
// unknown.
func TestQuestionChoice(t *testing.T) {
	s := confirmService(t, asking{choice}, time.Hour)
	se := s.NewSession(api.ClientCLI, chat.Local())
	qs, done := questionTurn(context.Background(), se, nil)
	q := <-qs
	if q.Kind != api.QuestionChoice || len(q.Options) != 2 || !q.Options[0].Recommended || q.ExpiresAt == "" {
		t.Fatalf("question %+v", q)
	}
	other := s.NewSession(api.ClientCLI, chat.Principal{ID: "t-other"})
	if err := other.AnswerQuestion(q.RequestID, "a"); !errors.Is(err, chat.ErrQuestionUnknown) {
		t.Fatalf("another's answer: %v", err)
	}
	if err := se.AnswerPermission(q.RequestID, api.DecisionAllowOnce); !errors.Is(err, chat.ErrPermissionUnknown) {
		t.Fatalf("a permission answer to a question: %v", err)
	}
	for _, bad := range []string{"c", "", "  ", "A or B"} {
		err := se.AnswerQuestion(q.RequestID, bad)
		var ce *chat.Error
		if !errors.Is(err, chat.ErrBadAnswer) || !errors.As(err, &ce) || ce.Code != api.CodeBadAnswer {
			t.Fatalf("answer %q: %v", bad, err)
		}
	}
	if err := se.AnswerQuestion(q.RequestID, "B"); err != nil { // option b by its label
		t.Fatal(err)
	}
	if got := <-done; got != "b/b/user/<nil>" {
		t.Fatalf("answer %q", got)
	}
	if err := se.AnswerQuestion(q.RequestID, "a"); !errors.Is(err, chat.ErrQuestionAnswered) {
		t.Fatalf("second answer: %v", err)
	}
	if err := se.AnswerQuestion("nope", "a"); !errors.Is(err, chat.ErrQuestionUnknown) {
		t.Fatalf("unknown id: %v", err)
	}
}

// TestQuestionCustomAndConfirm: allow_custom takes free text; a confirm
// takes yes/no (and y/n, 是/否, normalised), nothing else.
func TestQuestionCustomAndConfirm(t *testing.T) {
	custom := choice
	custom.AllowCustom = true
	s := confirmService(t, asking{custom}, time.Hour)
	se := s.NewSession(api.ClientCLI, chat.Local())
	qs, done := questionTurn(context.Background(), se, nil)
	q := <-qs
	if err := se.AnswerQuestion(q.RequestID, " web-03 "); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got != "web-03//user/<nil>" {
		t.Fatalf("custom answer %q", got)
	}

	s = confirmService(t, asking{chat.Question{Question: "restart?", Kind: api.QuestionConfirm}}, time.Hour)
	se = s.NewSession(api.ClientCLI, chat.Local())
	qs, done = questionTurn(context.Background(), se, nil)
	q = <-qs
	if err := se.AnswerQuestion(q.RequestID, "maybe"); !errors.Is(err, chat.ErrBadAnswer) {
		t.Fatalf("maybe: %v", err)
	}
	if err := se.AnswerQuestion(q.RequestID, "是"); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got != "yes//user/<nil>" {
		t.Fatalf("confirm answer %q", got)
	}
}

// TestQuestionTimeout: with a default, the default answers at the
// question's own timeout; without, nobody answered, at the permission
// timeout. A late answer is expired.
func TestQuestionTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		withDefault := choice
		withDefault.Default, withDefault.Timeout = "a", 30*time.Second
		s := confirmService(t, asking{withDefault}, time.Hour)
		se := s.NewSession(api.ClientCLI, chat.Local())
		start := time.Now()
		qs, done := questionTurn(context.Background(), se, nil)
		q := <-qs
		if q.Default != "a" {
			t.Fatalf("question %+v", q)
		}
		if got := <-done; got != "a/a/default/<nil>" || time.Since(start) != 30*time.Second {
			t.Fatalf("answer %q after %s", got, time.Since(start))
		}
		if err := se.AnswerQuestion(q.RequestID, "b"); !errors.Is(err, chat.ErrQuestionExpired) {
			t.Fatalf("late answer: %v", err)
		}

		s = confirmService(t, asking{choice}, 0) // the default permission timeout
		se = s.NewSession(api.ClientCLI, chat.Local())
		start = time.Now()
		_, done = questionTurn(context.Background(), se, nil)
		if got := <-done; got != "//timeout/<nil>" || time.Since(start) != chat.DefaultPermissionTimeout {
			t.Fatalf("answer %q after %s", got, time.Since(start))
		}
	})
}

// TestQuestionCancelAndDisconnect: Cancel withdraws the question (a
// later answer is expired); a failing emit is a disconnect, at once;
// a transport that cannot ask says so.
func TestQuestionCancelAndDisconnect(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := confirmService(t, asking{choice}, time.Hour)
		se := s.NewSession(api.ClientCLI, chat.Local())
		qs, done := questionTurn(context.Background(), se, nil)
		q := <-qs
		if !se.Cancel() {
			t.Fatal("no turn to cancel")
		}
		if got := <-done; got != "//cancel/<nil>" {
			t.Fatalf("answer %q", got)
		}
		if err := se.AnswerQuestion(q.RequestID, "a"); !errors.Is(err, chat.ErrQuestionExpired) {
			t.Fatalf("answer after cancel: %v", err)
		}

		se2 := s.NewSession(api.ClientCLI, chat.Local())
		_, done = questionTurn(context.Background(), se2, errors.New("client gone"))
		if got := <-done; got != "//disconnect/<nil>" {
			t.Fatalf("answer %q", got)
		}
		se3 := s.NewSession(api.ClientCLI, chat.Local())
		_, done = questionTurn(context.Background(), se3, chat.ErrCannotAsk)
		if got := <-done; !strings.Contains(got, "cannot answer questions") {
			t.Fatalf("answer %q", got)
		}
	})
}

// TestQuestionMalformed: a choice without options, an unknown kind and
// a default the question would refuse are errors, never emitted.
func TestQuestionMalformed(t *testing.T) {
	for _, q := range []chat.Question{
		{Question: "x", Kind: api.QuestionChoice},
		{Question: "x", Kind: "essay"},
		{Question: " ", Kind: api.QuestionText},
		{Question: "x", Kind: api.QuestionConfirm, Default: "perhaps"},
	} {
		s := confirmService(t, asking{q}, time.Hour)
		qs, done := questionTurn(context.Background(), s.NewSession(api.ClientCLI, chat.Local()), nil)
		if got := <-done; !strings.Contains(got, "bad question") || len(qs) != 0 {
			t.Fatalf("%+v: %q", q, got)
		}
	}
}
