package chat_test

import (
	"context"
	"path/filepath"
	"testing"

	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// modelRecorder is an Agent that records the model of each turn.
type modelRecorder struct{ got *[]string }

func (a modelRecorder) Respond(_ context.Context, t *chat.Turn, _ chat.Responder) ([]history.Message, error) {
	*a.got = append(*a.got, t.Model)
	return []history.Message{{Role: "assistant", Content: "ok", Time: t.Now}}, nil
}

// TestModelBelongsToConversation: switching conversations switches to
// that conversation's model, turns use it, and another session (a
// reconnecting client) finds the model persisted with the conversation.
func TestModelBelongsToConversation(t *testing.T) {
	dir := t.TempDir()
	h, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	s, err := chat.New(chat.Config{History: h, Uploads: u, Agent: modelRecorder{&got}, Models: []string{"builtin", "qwen"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	ctx := context.Background()
	nop := func(chat.Event) error { return nil }

	se := s.NewSession("cli", chat.Local())
	if err := se.SetModel("qwen"); err != nil {
		t.Fatal(err)
	}
	if err := se.Chat(ctx, "a", nop); err != nil {
		t.Fatal(err)
	}
	a := se.ID()
	se.New()
	if err := se.SetModel("builtin"); err != nil {
		t.Fatal(err)
	}
	if err := se.Chat(ctx, "b", nop); err != nil {
		t.Fatal(err)
	}
	b := se.ID()
	if _, err := se.Switch(a); err != nil {
		t.Fatal(err)
	}
	if se.Model() != "qwen" {
		t.Fatalf("after switching back: %q, want qwen", se.Model())
	}
	if err := se.Chat(ctx, "c", nop); err != nil {
		t.Fatal(err)
	}
	if want := []string{"qwen", "builtin", "qwen"}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("turn models %v, want %v", got, want)
	}
	other := s.NewSession("web", chat.Local())
	if _, err := other.Switch(b); err != nil {
		t.Fatal(err)
	}
	if other.Model() != "builtin" || other.Summary().Model != "builtin" {
		t.Fatalf("other client sees %q", other.Model())
	}
	if _, err := other.Switch(a); err != nil {
		t.Fatal(err)
	}
	if other.Model() != "qwen" {
		t.Fatalf("other client sees %q for a", other.Model())
	}
}

// TestUnreachableModelFailsFast: a turn on a model the check finds
// unreachable fails at once, in the user's language, with the hint to
// pick another; the agent never runs; builtin is never checked.
func TestUnreachableModelFailsFast(t *testing.T) {
	dir := t.TempDir()
	h, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var checked []string
	s, err := chat.New(chat.Config{History: h, Uploads: u, Agent: modelRecorder{&got}, Models: []string{"builtin", "ollama"},
		CheckModel: func(_ context.Context, name string) chat.ModelInfo {
			checked = append(checked, name)
			return chat.ModelInfo{Name: name, Reason: "connection refused"}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	se := s.NewSession("cli", chat.Local())
	if err := se.SetModel("ollama"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ input, want string }{
		{"磁盘还剩多少？", "模型 ollama 当前不可达（连接被拒绝）。请换一个模型，例如 builtin。"},
		{"disk space?", "model ollama is unreachable (connection refused). Choose another model, e.g. builtin."},
	} {
		var evs []chat.Event
		err := se.Chat(context.Background(), tc.input, collect(&evs))
		if err == nil || len(evs) != 3 || evs[1].Kind != chat.KindError || evs[1].Error.Code != "agent_error" || evs[1].Error.Message != tc.want || evs[2].Kind != chat.KindEnd {
			t.Fatalf("%q: %v %+v", tc.input, err, evs)
		}
	}
	if len(got) != 0 {
		t.Fatalf("agent ran on an unreachable model: %v", got)
	}
	if err := se.SetModel("builtin"); err != nil {
		t.Fatal(err)
	}
	if err := se.Chat(context.Background(), "hi", func(chat.Event) error { return nil }); err != nil || len(got) != 1 {
		t.Fatalf("builtin: %v %v", err, got)
	}
	if len(checked) != 2 {
		t.Fatalf("checked %v: builtin must not be checked", checked)
	}
}

// TestModelDoesNotLeakIntoSwitch: a model chosen in conversation A is not
// the model of B, switched to next, when B never chose one — B keeps the
// default for its turns (it leaked through the connection's last choice);
// a conversation started with New keeps the model of the one it leaves.
func TestModelDoesNotLeakIntoSwitch(t *testing.T) {
	dir := t.TempDir()
	h, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	s, err := chat.New(chat.Config{History: h, Uploads: u, Agent: modelRecorder{&got}, Models: []string{"builtin", "ollama"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	ctx := context.Background()
	nop := func(chat.Event) error { return nil }

	se := s.NewSession("cli", chat.Local())
	if err := se.Chat(ctx, "b", nop); err != nil {
		t.Fatal(err)
	}
	b := se.ID()
	se.New()
	if err := se.Chat(ctx, "a", nop); err != nil {
		t.Fatal(err)
	}
	if err := se.SetModel("ollama"); err != nil {
		t.Fatal(err)
	}
	if _, err := se.Switch(b); err != nil {
		t.Fatal(err)
	}
	if se.Model() != "builtin" {
		t.Fatalf("after switching to B: model %q, want builtin (B's)", se.Model())
	}
	if err := se.Chat(ctx, "b again", nop); err != nil {
		t.Fatal(err)
	}
	if got[len(got)-1] != "builtin" {
		t.Fatalf("B's turn ran on %q", got[len(got)-1])
	}
	if err := se.SetModel("ollama"); err != nil {
		t.Fatal(err)
	}
	se.New()
	if se.Model() != "ollama" {
		t.Fatalf("new conversation after /model ollama: %q", se.Model())
	}
}
