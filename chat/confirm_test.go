package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// confirming is an Agent that asks about each scope in Scopes, all at
// once, and answers "scope=allowed/by" for each, in order.
type confirming struct{ Scopes []string }

func (a confirming) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	out := make([]string, len(a.Scopes))
	var wg sync.WaitGroup
	for i, s := range a.Scopes {
		wg.Go(func() {
			scope, repeat := strings.CutSuffix(s, "+repeat") // "x+repeat": a repeating call's question
			ans, err := r.Confirm(ctx, chat.Confirmation{ToolCallID: fmt.Sprint(i), Tool: "probe", Args: json.RawMessage(`{}`), Risk: "sensitive", Scope: scope, Repeat: repeat})
			out[i] = fmt.Sprintf("%s=%v/%s/%v", s, ans.Allowed, ans.By, err)
		})
	}
	wg.Wait()
	text := strings.Join(out, " ")
	r.Delta(text)
	return []history.Message{{Role: "assistant", Content: text, Time: t.Now}}, nil
}

func confirmService(t *testing.T, ag chat.Agent, timeout time.Duration) *chat.Service {
	dir := t.TempDir()
	h, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	s, err := chat.New(chat.Config{History: h, Uploads: u, Agent: ag, PermissionTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// turn runs one turn in the background; requests arrive on the channel,
// the reply's text on done.
func turn(ctx context.Context, se *chat.Session, emitErr error) (<-chan api.PermissionRequest, <-chan string) {
	reqs := make(chan api.PermissionRequest, 8)
	done := make(chan string, 1)
	go func() {
		var text strings.Builder
		se.Chat(ctx, "go", func(e chat.Event) error {
			switch e.Kind {
			case chat.KindPermissionRequest:
				reqs <- *e.Permission
				return emitErr
			case chat.KindDelta:
				text.WriteString(e.Text)
			}
			return nil
		})
		done <- text.String()
	}()
	return reqs, done
}

// TestConfirmTimeout: no answer within PermissionTimeout denies, by
// timeout, exactly at the deadline; the request then reads as expired.
func TestConfirmTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := confirmService(t, confirming{[]string{"a"}}, 0) // the default, 120 s
		se := s.NewSession(api.ClientCLI, chat.Local())
		start := time.Now()
		reqs, done := turn(context.Background(), se, nil)
		req := <-reqs
		if exp, _ := time.Parse(time.RFC3339, req.ExpiresAt); !exp.Equal(start.Add(chat.DefaultPermissionTimeout).Truncate(time.Second)) {
			t.Errorf("expires_at %s, started %s", req.ExpiresAt, start)
		}
		if got := <-done; got != "a=false/timeout/<nil>" {
			t.Fatalf("answer %q", got)
		}
		if d := time.Since(start); d != chat.DefaultPermissionTimeout {
			t.Fatalf("waited %s", d)
		}
		if err := se.AnswerPermission(req.RequestID, api.DecisionAllowOnce); !errors.Is(err, chat.ErrPermissionExpired) {
			t.Fatalf("late answer: %v", err)
		}
	})
}

// TestConfirmDisconnect: a cancelled turn and a failing emit both deny,
// by disconnect, without waiting for the timeout.
func TestConfirmDisconnect(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := confirmService(t, confirming{[]string{"a"}}, time.Hour)
		se := s.NewSession(api.ClientCLI, chat.Local())
		ctx, cancel := context.WithCancel(context.Background())
		reqs, done := turn(ctx, se, nil)
		<-reqs
		cancel()
		if got := <-done; got != "a=false/disconnect/<nil>" {
			t.Fatalf("answer after cancel %q", got)
		}

		se2 := s.NewSession(api.ClientCLI, chat.Local())
		start := time.Now()
		reqs, done = turn(context.Background(), se2, errors.New("client gone"))
		req := <-reqs
		if got := <-done; got != "a=false/disconnect/<nil>" || time.Since(start) != 0 {
			t.Fatalf("answer %q after %s", got, time.Since(start))
		}
		if err := se2.AnswerPermission(req.RequestID, api.DecisionAllowOnce); !errors.Is(err, chat.ErrPermissionExpired) {
			t.Fatalf("answer after disconnect: %v", err)
		}
	})
}

// TestConfirmCannotAsk: a transport that cannot carry the request
// refuses the call at once with ErrCannotAsk.
func TestConfirmCannotAsk(t *testing.T) {
	s := confirmService(t, confirming{[]string{"a"}}, time.Hour)
	_, done := turn(context.Background(), s.NewSession(api.ClientCLI, chat.Local()), chat.ErrCannotAsk)
	if got := <-done; !strings.Contains(got, "a=false//chat: this client cannot answer") {
		t.Fatalf("answer %q", got)
	}
}

// TestConfirmIndependentAnswers: pending requests of one turn are
// answered in any order; a denied scope is not asked again in the turn;
// allow_session grants the scope to the conversation, listed and
// revocable; answers are checked against the principal, the
// conversation and the decisions offered.
func TestConfirmIndependentAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := confirmService(t, confirming{[]string{"a", "b", "c"}}, time.Hour)
		se := s.NewSession(api.ClientCLI, chat.Local())
		reqs, done := turn(context.Background(), se, nil)
		byScope := map[string]string{}
		for range 3 {
			r := <-reqs
			byScope[r.ToolCallID] = r.RequestID
		}
		other := s.NewSession(api.ClientCLI, chat.Principal{ID: "t-other"})
		if err := other.AnswerPermission(byScope["0"], api.DecisionAllowOnce); !errors.Is(err, chat.ErrPermissionUnknown) {
			t.Fatalf("another principal's answer: %v", err)
		}
		sameWho := s.NewSession(api.ClientCLI, chat.Local()) // another conversation
		if err := sameWho.AnswerPermission(byScope["0"], api.DecisionAllowOnce); !errors.Is(err, chat.ErrPermissionUnknown) {
			t.Fatalf("another conversation's answer: %v", err)
		}
		if err := se.AnswerPermission(byScope["0"], "always"); !errors.Is(err, chat.ErrBadDecision) {
			t.Fatalf("bad decision: %v", err)
		}
		for _, a := range [][2]string{{"2", api.DecisionDeny}, {"1", api.DecisionAllowSession}, {"0", api.DecisionAllowOnce}} {
			if err := se.AnswerPermission(byScope[a[0]], a[1]); err != nil {
				t.Fatal(err)
			}
		}
		if err := se.AnswerPermission(byScope["0"], api.DecisionDeny); !errors.Is(err, chat.ErrPermissionAnswered) {
			t.Fatalf("second answer: %v", err)
		}
		if got := <-done; got != "a=true/user/<nil> b=true/user/<nil> c=false/user/<nil>" {
			t.Fatalf("answers %q", got)
		}
		gs := se.Grants()
		if len(gs) != 1 || gs[0].Scope != "b" || gs[0].Tool != "probe" {
			t.Fatalf("grants %+v", gs)
		}
		if len(other.Grants()) != 0 {
			t.Fatal("another conversation sees the grant")
		}
	})
}

// TestConfirmDeniedNotAskedAgainGrantedNotAsked: within a turn a denied
// scope is denied without asking; across turns a granted scope runs
// without asking until revoked.
func TestConfirmDeniedNotAskedAgainGrantedNotAsked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := confirmService(t, confirming{[]string{"a"}}, time.Hour)
		se := s.NewSession(api.ClientCLI, chat.Local())
		reqs, done := turn(context.Background(), se, nil)
		se.AnswerPermission((<-reqs).RequestID, api.DecisionAllowSession)
		<-done
		reqs, done = turn(context.Background(), se, nil)
		if got := <-done; got != "a=true/session_grant/<nil>" || len(reqs) != 0 {
			t.Fatalf("granted scope: %q, %d requests", got, len(reqs))
		}
		g := se.Grants()[0]
		if _, err := se.RevokeGrant("nope"); !errors.Is(err, chat.ErrGrantUnknown) {
			t.Fatalf("revoking unknown: %v", err)
		}
		if _, err := se.RevokeGrant(g.ID); err != nil || len(se.Grants()) != 0 {
			t.Fatalf("revoke: %v, %+v", err, se.Grants())
		}
		reqs, done = turn(context.Background(), se, nil)
		se.AnswerPermission((<-reqs).RequestID, api.DecisionDeny)
		if got := <-done; got != "a=false/user/<nil>" {
			t.Fatalf("after revoking: %q", got)
		}
	})
	s := confirmService(t, twice{}, time.Hour)
	se := s.NewSession(api.ClientCLI, chat.Local())
	reqs, done := turn(context.Background(), se, nil)
	se.AnswerPermission((<-reqs).RequestID, api.DecisionDeny)
	if got := <-done; got != "false/user false/user" || len(reqs) != 0 {
		t.Fatalf("denied twice: %q, %d more requests", got, len(reqs))
	}
}

// twice asks about the same scope twice in one turn, one after the other.
type twice struct{}

func (twice) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	var out []string
	for range 2 {
		ans, _ := r.Confirm(ctx, chat.Confirmation{Tool: "probe", Scope: "x"})
		out = append(out, fmt.Sprintf("%v/%s", ans.Allowed, ans.By))
	}
	r.Delta(strings.Join(out, " "))
	return nil, nil
}

// toolScope asks about tool and scope once.
type toolScope struct{ tool, scope string }

func (a *toolScope) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	ans, _ := r.Confirm(ctx, chat.Confirmation{Tool: a.tool, Scope: a.scope})
	r.Delta(fmt.Sprintf("%v/%s", ans.Allowed, ans.By))
	return nil, nil
}

// TestGrantIsPerTool: a grant covers its tool and scope only, never the
// same scope of another tool.
func TestGrantIsPerTool(t *testing.T) {
	ag := &toolScope{"file_download", "/etc/"}
	s := confirmService(t, ag, time.Hour)
	se := s.NewSession(api.ClientCLI, chat.Local())
	reqs, done := turn(context.Background(), se, nil)
	se.AnswerPermission((<-reqs).RequestID, api.DecisionAllowSession)
	<-done
	ag.tool = "command_executor"
	reqs, done = turn(context.Background(), se, nil)
	se.AnswerPermission((<-reqs).RequestID, api.DecisionDeny) // asked: another tool
	if got := <-done; got != "false/user" {
		t.Fatalf("%q", got)
	}
}

// TestConfirmCancelWithdraws: cancelling the turn withdraws its pending
// request, by cancel; a late answer is expired.
func TestConfirmCancelWithdraws(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := confirmService(t, confirming{[]string{"a"}}, time.Hour)
		se := s.NewSession(api.ClientCLI, chat.Local())
		reqs, done := turn(context.Background(), se, nil)
		req := <-reqs
		if !se.Cancel() {
			t.Fatal("no turn to cancel")
		}
		if got := <-done; got != "a=false/cancel/<nil>" {
			t.Fatalf("answer %q", got)
		}
		if err := se.AnswerPermission(req.RequestID, api.DecisionAllowOnce); !errors.Is(err, chat.ErrPermissionExpired) {
			t.Fatalf("answer after cancel: %v", err)
		}
	})
}

// TestConfirmSameScopeAsksOnce: two parallel calls of one tool and scope
// emit one permission request; both get its decision.
func TestConfirmSameScopeAsksOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := confirmService(t, confirming{[]string{"a", "a"}}, time.Hour)
		se := s.NewSession(api.ClientCLI, chat.Local())
		reqs, done := turn(context.Background(), se, nil)
		req := <-reqs
		synctest.Wait() // both calls are waiting: the second did not ask
		if len(reqs) != 0 {
			t.Fatalf("%d more requests for the same scope", len(reqs))
		}
		if err := se.AnswerPermission(req.RequestID, api.DecisionAllowOnce); err != nil {
			t.Fatal(err)
		}
		if got := <-done; got != "a=true/user/<nil> a=true/user/<nil>" {
			t.Fatalf("answers %q", got)
		}
		if len(reqs) != 0 {
			t.Fatalf("%d more requests after the answer", len(reqs))
		}
	})
}

// TestConfirmRepeatAsksOnItsOwn: a question about a repeating call is
// not answered by a request of the same scope in flight for a call that
// did not repeat (whose question never said so): two requests.
func TestConfirmRepeatAsksOnItsOwn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := confirmService(t, confirming{[]string{"a", "a+repeat"}}, time.Hour)
		se := s.NewSession(api.ClientCLI, chat.Local())
		reqs, done := turn(context.Background(), se, nil)
		first, second := <-reqs, <-reqs
		if err := se.AnswerPermission(first.RequestID, api.DecisionAllowOnce); err != nil {
			t.Fatal(err)
		}
		if err := se.AnswerPermission(second.RequestID, api.DecisionAllowOnce); err != nil {
			t.Fatal(err)
		}
		if got := <-done; got != "a+repeat=true/user/<nil> a=true/user/<nil>" && got != "a=true/user/<nil> a+repeat=true/user/<nil>" {
			t.Fatalf("answers %q", got)
		}
	})
}

// TestConfirmPendingLimit: a conversation holds at most MaxPending
// requests at once; one more is refused at once with ErrTooManyPending,
// not left waiting.
func TestConfirmPendingLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var scopes []string
		for i := range chat.MaxPending + 1 {
			scopes = append(scopes, fmt.Sprint("s", i))
		}
		s := confirmService(t, confirming{scopes}, time.Hour)
		se := s.NewSession(api.ClientCLI, chat.Local())
		reqs, done := turn(context.Background(), se, nil)
		var ids []string
		for range chat.MaxPending {
			ids = append(ids, (<-reqs).RequestID)
		}
		synctest.Wait() // every call asked or was refused
		if len(reqs) != 0 {
			t.Fatalf("%d requests over the limit", len(reqs))
		}
		for _, id := range ids {
			if err := se.AnswerPermission(id, api.DecisionDeny); err != nil {
				t.Fatal(err)
			}
		}
		got := <-done
		if n := strings.Count(got, "/"+chat.ErrTooManyPending.Error()); n != 1 {
			t.Errorf("%d refused over the limit: %q", n, got)
		}
		if n := strings.Count(got, "=false/user/<nil>"); n != chat.MaxPending {
			t.Errorf("%d denied by the user: %q", n, got)
		}
	})
}

// keyed asks about one call of "mcp__fs__write_file" with no scope,
// its arguments shown redacted ("***") and its grant key key.
type keyed struct{ key string }

func (a *keyed) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	ans, _ := r.Confirm(ctx, chat.Confirmation{Tool: "mcp__fs__write_file", Args: json.RawMessage(`{"content":"ssh-ed25519 *** alice@laptop"}`), Key: a.key})
	r.Delta(fmt.Sprintf("%v/%s", ans.Allowed, ans.By))
	return nil, nil
}

// TestGrantIsTheKeyNotTheShownArguments: an allow_session grant covers
// calls of its Key (the raw arguments' hash), not every call whose
// redacted arguments read the same; the grant lists the shown text,
// never the key.
func TestGrantIsTheKeyNotTheShownArguments(t *testing.T) {
	ag := &keyed{key: api.GrantKey("mcp__fs__write_file", "", []byte(`{"content":"ssh-ed25519 KEY1 alice@laptop"}`))}
	s := confirmService(t, ag, time.Hour)
	se := s.NewSession(api.ClientCLI, chat.Local())
	reqs, done := turn(context.Background(), se, nil)
	se.AnswerPermission((<-reqs).RequestID, api.DecisionAllowSession)
	<-done
	reqs, done = turn(context.Background(), se, nil)
	if got := <-done; got != "true/session_grant" || len(reqs) != 0 {
		t.Fatalf("the granted call: %q, %d requests", got, len(reqs))
	}
	ag.key = api.GrantKey("mcp__fs__write_file", "", []byte(`{"content":"ssh-ed25519 KEY2 alice@laptop"}`))
	reqs, done = turn(context.Background(), se, nil)
	se.AnswerPermission((<-reqs).RequestID, api.DecisionDeny) // asked: other raw arguments
	if got := <-done; got != "false/user" {
		t.Fatalf("other arguments, shown the same: %q", got)
	}
	g := se.Grants()
	b, _ := json.Marshal(g)
	if len(g) != 1 || g[0].Scope != `mcp__fs__write_file:{"content":"ssh-ed25519 *** alice@laptop"}` || strings.Contains(string(b), "sha256") {
		t.Fatalf("grants %s", b)
	}
}
