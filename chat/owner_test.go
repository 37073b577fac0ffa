package chat_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
)

// seenUploads is an Agent that records the uploads each turn offers it.
type seenUploads struct{ got *[]history.Upload }

func (a seenUploads) Respond(_ context.Context, t *chat.Turn, _ chat.Responder) ([]history.Message, error) {
	*a.got = append(*a.got, t.Uploads...)
	return nil, nil
}

func ids(list []history.Summary) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.ID)
	}
	return out
}

// TestPrincipalsDoNotSeeEachOther: two sessions with different owners
// cannot list, switch to, read, delete or download from each other's
// conversations, nor reach each other's uploads; the local operator sees
// both.
func TestPrincipalsDoNotSeeEachOther(t *testing.T) {
	var offered []history.Upload
	s := newService(t, seenUploads{&offered}, nil)
	alice, bob := chat.TokenPrincipal("alice-token-0123456789", false), chat.TokenPrincipal("bob-token-0123456789", false)
	if alice.ID == bob.ID || alice.ID == "alice-token-0123456789" {
		t.Fatalf("principal ids %q %q", alice.ID, bob.ID)
	}
	a, b := s.NewSession("cli", alice), s.NewSession("web", bob)
	ctx := context.Background()
	if err := a.Chat(ctx, "alice's secret", func(chat.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	p, err := a.BeginUpload("a.log", 3, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("abc"))
	up, err := a.CommitUpload(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	aliceConv := a.ID()
	if err := b.Chat(ctx, "bob's", func(chat.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	bobConv := b.ID()

	if l := ids(b.List()); slices.Contains(l, aliceConv) || !slices.Contains(l, bobConv) {
		t.Fatalf("bob lists %v", l)
	}
	if l := ids(s.List(alice)); !slices.Equal(l, []string{aliceConv}) {
		t.Fatalf("alice lists %v", l)
	}
	var ce *chat.Error
	for _, ref := range []string{aliceConv, aliceConv[:8]} {
		if _, err := b.Switch(ref); !errors.As(err, &ce) || ce.Code != api.CodeNotFound {
			t.Fatalf("bob switched to alice's %q: %v", ref, err)
		}
		if _, err := b.Delete(ref); !errors.As(err, &ce) || ce.Code != api.CodeNotFound {
			t.Fatalf("bob deleted alice's %q: %v", ref, err)
		}
	}
	if b.ID() != bobConv {
		t.Fatal("bob left his conversation")
	}
	if msgs, ups := b.History(); slices.ContainsFunc(msgs, func(m history.Message) bool { return m.Content == "alice's secret" }) || len(ups) != 0 {
		t.Fatalf("bob reads %v %v", msgs, ups)
	}
	// Bob's turns are never offered alice's upload.
	offered = nil
	b.Chat(ctx, "file "+up.FileID, func(chat.Event) error { return nil })
	if len(offered) != 0 {
		t.Fatalf("bob's turn offered %v", offered)
	}
	if b.MayDownload(aliceConv) || !a.MayDownload(aliceConv) || !b.MayDownload(bobConv) {
		t.Fatal("download tokens not scoped to the owner's conversations")
	}
	if b.MayDownload("") {
		t.Fatal("a token outside any conversation is usable by a token principal")
	}

	// The local operator sees and may switch to both.
	local := s.NewSession("cli", chat.Local())
	if l := ids(local.List()); !slices.Contains(l, aliceConv) || !slices.Contains(l, bobConv) {
		t.Fatalf("local lists %v", l)
	}
	if _, err := local.Switch(aliceConv); err != nil || !local.MayDownload("") {
		t.Fatal(err)
	}
	// Alice's conversation survives bob's attempts.
	if _, err := a.Switch(aliceConv); err != nil {
		t.Fatal(err)
	}
}

// TestUnownedConversationsAdminOnly: a conversation recorded before
// owners existed is seen by the admin and the local operator only.
func TestUnownedConversationsAdminOnly(t *testing.T) {
	s := newService(t, scripted{text: "a"}, nil)
	old := chat.ConfigOf(s).History.New(chat.ConfigOf(s).Now())
	if err := old.Append(history.Message{Role: "user", Content: "old"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		who  chat.Principal
		sees bool
	}{{chat.Local(), true}, {chat.TokenPrincipal("x", true), true}, {chat.TokenPrincipal("x", false), false}, {chat.Principal{}, false}} {
		_, err := s.NewSession("cli", c.who).Switch(old.ID())
		if (err == nil) != c.sees {
			t.Errorf("%+v: switch err %v, want sees=%v", c.who, err, c.sees)
		}
	}
}

// probe is an agent that runs check during the turn.
type probe struct{ check func(t *chat.Turn) }

func (a probe) Respond(_ context.Context, t *chat.Turn, _ chat.Responder) ([]history.Message, error) {
	a.check(t)
	return []history.Message{{Role: "assistant", Content: "ok"}}, nil
}

// TestDownloadDuringFirstTurn: a token principal may use a download
// token of its new conversation while the conversation's first turn is
// still running (before it is saved); another principal may not; after
// the turn, the saved conversation answers the same.
func TestDownloadDuringFirstTurn(t *testing.T) {
	alice, bob := chat.TokenPrincipal("alice-token-0123456789", false), chat.TokenPrincipal("bob-token-0123456789", false)
	var s *chat.Service
	var during [2]bool
	s = newService(t, probe{func(t *chat.Turn) {
		during = [2]bool{s.MayDownload(alice, t.SessionID), s.MayDownload(bob, t.SessionID)}
	}}, nil)
	a := s.NewSession("web", alice)
	if a.Saved() {
		t.Fatal("a new conversation is already saved")
	}
	if err := a.Chat(context.Background(), "give me the log", func(chat.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if !during[0] || during[1] {
		t.Fatalf("during the first turn: owner %v, other %v", during[0], during[1])
	}
	if !a.MayDownload(a.ID()) || s.MayDownload(bob, a.ID()) {
		t.Fatal("after the first turn: wrong answer")
	}
}
