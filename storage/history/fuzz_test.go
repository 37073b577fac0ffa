package history

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes as a conversation file. Opening must never
// fail, and the conversation must take a new message and replay it.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"type":"create","time":"2026-11-22T08:00:00Z","id":"x"}` + "\n" + `{"type":"message","message":{"role":"user","content":"hi"}}` + "\n"))
	f.Add([]byte(`{"type":"message","message":{"role":"user","content":"to`))
	f.Add([]byte("garbage\n\n{}\n"))
	f.Add([]byte(`{"type":"clear"}` + "\n" + `{"type":"indexed","file_id":"a"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		const id = "11111111-2222-4333-8444-555555555555"
		if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(dir, nil)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		c, err := s.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		n := len(c.Messages())
		if err := c.Append(Message{Role: "user", Content: "after"}); err != nil {
			t.Fatal(err)
		}
		s2, err := Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		c2, _ := s2.Get(id)
		ms := c2.Messages()
		if len(ms) != n+1 || ms[n].Content != "after" {
			t.Fatalf("replayed %d messages, want %d ending in \"after\"", len(ms), n+1)
		}
	})
}
