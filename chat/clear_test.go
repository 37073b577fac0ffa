package chat_test

import (
	"context"
	"testing"

	"opsassist/chat"
)

// TestClearUnsavedConversationStoresNothing: "/new" then "/clear" on a
// conversation that was never saved changes nothing and creates no
// record — no empty conversation (title "", 0 messages) appears in the
// lists; clearing again after a clear writes nothing either; a saved
// conversation's messages are still cleared.
func TestClearUnsavedConversationStoresNothing(t *testing.T) {
	s := newService(t, scripted{text: "CPU 3%"}, nil)
	se := s.NewSession("cli", chat.Local())
	se.New()
	if err := se.Clear(); err != nil {
		t.Fatal(err)
	}
	// se.List shows the current conversation while it is unsaved; the
	// stored list (the other sessions', the web sidebar's) has none.
	if se.Saved() || len(se.List()) != 1 || len(s.List(chat.Local())) != 0 {
		t.Fatalf("clearing a new conversation saved it: saved=%v list=%+v", se.Saved(), se.List())
	}
	if err := se.Chat(context.Background(), "CPU?", func(chat.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := se.Clear(); err != nil {
		t.Fatal(err)
	}
	if msgs, _ := se.History(); len(msgs) != 0 {
		t.Fatalf("not cleared: %+v", msgs)
	}
	before := se.Summary().UpdatedAt
	if err := se.Clear(); err != nil {
		t.Fatal(err)
	}
	if l := s.List(chat.Local()); len(l) != 1 || !se.Summary().UpdatedAt.Equal(before) {
		t.Fatalf("second clear: %+v", l)
	}
}
