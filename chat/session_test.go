package chat_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// scripted is an Agent that streams text after a thinking status, then
// an empty chunk the core must drop (it would end an NPLT reply), and
// fails with err when set. Unlike testkit.Scripted it ignores what the
// Responder returns, so the chat core alone must stop a turn whose
// client left.
type scripted struct {
	err  error
	text string
}

func (a scripted) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	r.Status(api.StatusThinking, "…")
	r.Delta(a.text)
	r.Delta("") // ignored: an empty chunk would end an NPLT reply
	if a.err != nil {
		return nil, a.err
	}
	return []history.Message{{Role: "assistant", Content: a.text, Time: t.Now}}, nil
}

func newService(t *testing.T, ag chat.Agent, ix chat.Indexer) *chat.Service {
	dir := t.TempDir()
	h, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	s, err := chat.New(chat.Config{History: h, Uploads: u, Agent: ag, Indexer: ix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

func collect(evs *[]chat.Event) chat.Emit {
	return func(e chat.Event) error { *evs = append(*evs, e); return nil }
}

func kinds(evs []chat.Event) []chat.Kind {
	var ks []chat.Kind
	for _, e := range evs {
		ks = append(ks, e.Kind)
	}
	return ks
}

func TestChatEventsAndPersistence(t *testing.T) {
	s := newService(t, scripted{text: "CPU 3%"}, nil)
	se := s.NewSession("cli", chat.Local())
	var evs []chat.Event
	if err := se.Chat(context.Background(), "CPU?", collect(&evs)); err != nil {
		t.Fatal(err)
	}
	want := []chat.Kind{chat.KindStreamStart, chat.KindStatus, chat.KindDelta, chat.KindEnd}
	if got := kinds(evs); len(got) != len(want) || got[0] != want[0] || got[2] != want[2] || got[3] != want[3] {
		t.Fatalf("events %v", got)
	}
	if evs[0].SessionID != se.ID() {
		t.Fatal("stream_start without the session id")
	}
	msgs, _ := se.History()
	if len(msgs) != 2 || msgs[0].Content != "CPU?" || msgs[1].Content != "CPU 3%" {
		t.Fatalf("history %+v", msgs)
	}
}

func TestAgentErrorBecomesErrorEvent(t *testing.T) {
	s := newService(t, scripted{text: "partial", err: &chat.Error{Code: "tool_failed", Err: errors.New("boom")}}, nil)
	se := s.NewSession("cli", chat.Local())
	var evs []chat.Event
	err := se.Chat(context.Background(), "do it", collect(&evs))
	if err == nil {
		t.Fatal("no error")
	}
	ks := kinds(evs)
	if ks[len(ks)-2] != chat.KindError || ks[len(ks)-1] != chat.KindEnd || evs[len(evs)-2].Error.Code != "tool_failed" {
		t.Fatalf("events %v", ks)
	}
	// The question is kept; the failed answer is not.
	if msgs, _ := se.History(); len(msgs) != 1 || msgs[0].Role != "user" {
		t.Fatalf("history %+v", msgs)
	}
}

func TestClientGoneStopsTurn(t *testing.T) {
	s := newService(t, scripted{text: "x"}, nil)
	se := s.NewSession("cli", chat.Local())
	gone := errors.New("gone")
	n := 0
	err := se.Chat(context.Background(), "q", func(e chat.Event) error {
		n++
		if n > 1 {
			return gone
		}
		return nil
	})
	if !errors.Is(err, gone) {
		t.Fatalf("err %v", err)
	}
}

func TestDeletedByAnotherSessionMovesOn(t *testing.T) {
	s := newService(t, scripted{text: "a"}, nil)
	a, b := s.NewSession("cli", chat.Local()), s.NewSession("web", chat.Local())
	var evs []chat.Event
	a.Chat(context.Background(), "hello", collect(&evs))
	old := a.ID()
	if _, err := b.Delete(old[:8]); err != nil {
		t.Fatal(err)
	}
	if a.ID() == old {
		t.Fatal("session still on a deleted conversation")
	}
	if err := a.Chat(context.Background(), "again", collect(&evs)); err != nil {
		t.Fatal(err)
	}
	var ce *chat.Error
	if _, err := b.Switch(old); !errors.As(err, &ce) || ce.Code != api.CodeNotFound {
		t.Fatalf("switch to deleted: %v", err)
	}
}

func TestTurnsInOneConversationAreSerialised(t *testing.T) {
	s := newService(t, scripted{text: "a"}, nil)
	se := s.NewSession("cli", chat.Local())
	unlock, err := chat.LockTurn(context.Background(), s, se.ID())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var evs []chat.Event
	if err := se.Chat(ctx, "blocked", collect(&evs)); !errors.Is(err, context.DeadlineExceeded) || len(evs) != 0 {
		t.Fatalf("chat during another turn: %v %v", err, evs)
	}
	unlock()
	if err := se.Chat(context.Background(), "free", collect(&evs)); err != nil {
		t.Fatal(err)
	}
}

func TestUploadIsRecordedAndIndexed(t *testing.T) {
	indexed := make(chan history.Upload, 1)
	s := newService(t, scripted{text: "a"}, testkit.IndexFunc(func(_ context.Context, _ string, u history.Upload) error {
		indexed <- u
		return nil
	}))
	se := s.NewSession("cli", chat.Local())
	p, err := se.BeginUpload("../a.log", 3, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("abc"))
	u, err := se.CommitUpload(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := <-indexed; got.FileID != u.FileID || got.Filename != "a.log" {
		t.Fatalf("indexed %+v", got)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ups := se.History(); len(ups) != 1 || !ups[0].Indexed {
		t.Fatalf("uploads %+v", ups)
	}
}

func TestModels(t *testing.T) {
	s := newService(t, scripted{}, nil)
	se := s.NewSession("cli", chat.Local())
	if se.Model() != "builtin" {
		t.Fatal(se.Model())
	}
	var ce *chat.Error
	if err := se.SetModel("gpt-99"); !errors.As(err, &ce) || ce.Code != api.CodeUnknownModel {
		t.Fatal(err)
	}
}

// TestUploadConfirmedBeforeIndexing: with an indexer that finishes at
// once, the transport's confirmation still comes before indexing starts
// and so before the index notice; a refused commit confirms nothing.
func TestUploadConfirmedBeforeIndexing(t *testing.T) {
	var (
		mu    sync.Mutex
		order []string
	)
	note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
	s := newService(t, scripted{text: "a"}, testkit.IndexFunc(func(context.Context, string, history.Upload) error {
		note("index")
		return nil
	}))
	se := s.NewSession("cli", chat.Local())
	notified := make(chan chat.IndexNotice, 1)
	se.SetIndexNotify(func(n chat.IndexNotice) { note("notice"); notified <- n })

	bad, err := se.BeginUpload("bad.txt", 3, strings.Repeat("0", 64))
	if err != nil {
		t.Fatal(err)
	}
	bad.Write([]byte("abc"))
	if _, err := se.CommitUpload(bad, func(history.Upload) { note("confirm bad") }); err == nil {
		t.Fatal("checksum mismatch committed")
	}

	p, err := se.BeginUpload("a.log", 3, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("abc"))
	u, err := se.CommitUpload(p, func(got history.Upload) {
		note("confirm")
		if _, ups := se.History(); len(ups) != 1 || ups[0].FileID != got.FileID {
			t.Errorf("confirmed before it was recorded: %+v", ups)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := <-notified; n.FileID != u.FileID || !n.Indexed {
		t.Fatalf("notice %+v", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(order, ","); got != "confirm,index,notice" {
		t.Fatalf("order %s, want confirm,index,notice", got)
	}
}

// TestAgentPanicEndsTheTurnCleanly: a panic in the agent is an internal
// error in the user's language, then End; the turn is recorded with a
// note; the turn lock is released, so the next turn runs.
func TestAgentPanicEndsTheTurnCleanly(t *testing.T) {
	for _, tc := range []struct{ input, want string }{
		{"cat /aaaa", "internal error"},
		{"执行 ls -la cccc", "内部错误"},
	} {
		s := newService(t, testkit.Panicking{}, nil)
		se := s.NewSession("cli", chat.Local())
		var evs []chat.Event
		err := se.Chat(context.Background(), tc.input, collect(&evs))
		if !errors.Is(err, chat.ErrPanicked) {
			t.Fatalf("Chat returned %v", err)
		}
		ks := kinds(evs)
		if len(ks) != 4 || ks[0] != chat.KindStreamStart || ks[2] != chat.KindError || ks[3] != chat.KindEnd {
			t.Fatalf("events %v", ks)
		}
		if e := evs[2].Error; e.Code != api.CodeInternal || !strings.HasPrefix(e.Message, tc.want) || strings.Contains(e.Message, "chat:") {
			t.Fatalf("error event %+v", e)
		}
		msgs, _ := se.History()
		if len(msgs) != 2 || msgs[0].Role != "user" || msgs[0].Content != tc.input || msgs[1].Role != "assistant" || !strings.HasPrefix(msgs[1].Content, tc.want) {
			t.Fatalf("recorded %+v", msgs)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		evs = nil
		if err := se.Chat(ctx, "again", collect(&evs)); !errors.Is(err, chat.ErrPanicked) || kinds(evs)[len(evs)-1] != chat.KindEnd {
			t.Fatalf("second turn: %v %v", err, kinds(evs))
		}
		cancel()
	}
}

// TestIndexerPanicIsAnError: a panic while indexing an upload is a failed
// index notice, not a dead daemon; the next upload is indexed.
func TestIndexerPanicIsAnError(t *testing.T) {
	// The indexer panics on its first upload and indexes the rest.
	var n atomic.Int32
	s := newService(t, scripted{text: "a"}, testkit.IndexFunc(func(context.Context, string, history.Upload) error {
		if n.Add(1) == 1 {
			panic("index: corrupt segment")
		}
		return nil
	}))
	se := s.NewSession("cli", chat.Local())
	notices := make(chan chat.IndexNotice, 2)
	se.SetIndexNotify(func(n chat.IndexNotice) { notices <- n })
	for _, name := range []string{"a.log", "b.log"} {
		p, err := se.BeginUpload(name, 3, "")
		if err != nil {
			t.Fatal(err)
		}
		p.Write([]byte("abc"))
		if _, err := se.CommitUpload(p, nil); err != nil {
			t.Fatal(err)
		}
		n := <-notices
		if want := name == "b.log"; n.Indexed != want || !want && !strings.Contains(n.Error, "not indexed: internal error") {
			t.Fatalf("%s: notice %+v", name, n)
		}
	}
}

// TestMessageOverLimitRefused: a message over MaxMessage never reaches
// the agent and is not recorded; the turn still ends.
func TestMessageOverLimitRefused(t *testing.T) {
	s := newService(t, testkit.Panicking{}, nil)
	se := s.NewSession("cli", chat.Local())
	for _, tc := range []struct{ input, want string }{
		{strings.Repeat("a", chat.MaxMessage+1), "message too long"},
		{strings.Repeat("长", chat.MaxMessage/3+1), "消息太长"},
	} {
		var evs []chat.Event
		err := se.Chat(context.Background(), tc.input, collect(&evs))
		var ce *chat.Error
		if !errors.As(err, &ce) || ce.Code != api.CodeTooLarge {
			t.Fatalf("err %v", err)
		}
		if ks := kinds(evs); len(ks) != 3 || ks[1] != chat.KindError || ks[2] != chat.KindEnd || !strings.HasPrefix(evs[1].Error.Message, tc.want) {
			t.Fatalf("events %+v", evs)
		}
	}
	if msgs, _ := se.History(); len(msgs) != 0 {
		t.Fatalf("recorded %d messages", len(msgs))
	}
}

// TestPanicOutsideAgentRecorded: a panic in the turn outside the agent
// (here in emit, at stream_start or at end) does not escape Chat: the
// question is recorded with an internal-error note, and the error and
// end events are each emitted at most once.
func TestPanicOutsideAgentRecorded(t *testing.T) {
	for _, tc := range []struct {
		on   chat.Kind
		want string // the kinds emitted after the panicking one
		msgs int    // messages recorded
	}{
		{chat.KindStreamStart, "error end", 2}, // before the agent: question and note
		{chat.KindEnd, "", 2},                  // after recording: question and answer, end tried once
	} {
		s := newService(t, scripted{text: "答案"}, nil)
		se := s.NewSession("cli", chat.Local())
		var after []string
		fired := false
		emit := func(e chat.Event) error {
			if fired {
				after = append(after, string(e.Kind))
				if e.Kind == chat.KindError && (e.Error.Code != api.CodeInternal || !strings.HasPrefix(e.Error.Message, "内部错误")) {
					t.Errorf("error event %+v", e.Error)
				}
			}
			if e.Kind == tc.on && !fired {
				fired = true
				panic("emit exploded")
			}
			return nil
		}
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("%s: panic escaped Chat: %v", tc.on, p)
				}
			}()
			err = se.Chat(context.Background(), "查看磁盘", emit)
		}()
		if !errors.Is(err, chat.ErrPanicked) {
			t.Errorf("%s: err %v", tc.on, err)
		}
		if got := strings.Join(after, " "); got != tc.want {
			t.Errorf("%s: events after the panic %q, want %q", tc.on, got, tc.want)
		}
		if msgs, _ := se.History(); len(msgs) != tc.msgs || msgs[0].Content != "查看磁盘" {
			t.Errorf("%s: history %+v", tc.on, msgs)
		}
	}
}

// TestWaitTurns: WaitTurns returns at once with no turn running, waits
// for a running one (or gives up when its context ends), and returns
// once the turn is over.
func TestWaitTurns(t *testing.T) {
	ag := testkit.NewBlocking()
	svc := newService(t, ag, nil)
	if err := svc.WaitTurns(context.Background()); err != nil {
		t.Fatalf("no turn: %v", err)
	}
	se := svc.NewSession("cli", chat.Local())
	done := make(chan error, 1)
	go func() { done <- se.Chat(context.Background(), "hi", func(chat.Event) error { return nil }) }()
	<-ag.Started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := svc.WaitTurns(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("turn running, ctx done: %v", err)
	}
	waited := make(chan error, 1)
	go func() { waited <- svc.WaitTurns(context.Background()) }()
	close(ag.Release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-waited; err != nil {
		t.Fatalf("after the turn: %v", err)
	}
}
