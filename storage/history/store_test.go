package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

var t0 = time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)

func msg(role, content string, min int) Message {
	return Message{Role: role, Content: content, Time: t0.Add(time.Duration(min) * time.Minute)}
}

func TestUnsavedUntilFirstWrite(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := s.New(t0)
	if c.Saved() || len(s.List()) != 0 {
		t.Fatal("new conversation listed before any write")
	}
	if _, err := s.Get(c.ID()); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if err := c.Append(msg("user", "你好", 1), msg("assistant", "hi", 2)); err != nil {
		t.Fatal(err)
	}
	if !c.Saved() || len(s.List()) != 1 {
		t.Fatal("not saved after write")
	}
	if _, err := os.Stat(filepath.Join(dir, c.ID()+".jsonl")); err != nil {
		t.Fatal(err)
	}
}

func TestReopenReplaysEverything(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, nil)
	c := s.New(t0)
	c.Append(msg("user", "first question", 1), Message{Role: "assistant", ToolCalls: []ToolCall{{ID: "c1", Name: "sys_monitor", Arguments: `{"metric":"cpu"}`}}, Time: t0})
	c.Append(Message{Role: "tool", ToolCallID: "c1", Name: "sys_monitor", Content: `{"cpu":1}`, Time: t0}, msg("assistant", "CPU 1%", 3))
	c.AddUpload(Upload{FileID: "f1", Filename: "a.log", Size: 3, UploadedAt: t0.Add(4 * time.Minute)})
	c.MarkIndexed("f1", t0.Add(5*time.Minute))
	c2 := s.New(t0.Add(time.Hour))
	c2.Append(msg("user", "later", 61))
	c2.Clear(t0.Add(62 * time.Minute))
	c2.Append(msg("user", "after clear", 63))

	s2, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	list := s2.List()
	if len(list) != 2 || list[0].ID != c2.ID() || list[0].Title != "after clear" || list[0].Messages != 1 {
		t.Fatalf("list %+v", list)
	}
	got, _ := s2.Get(c.ID())
	ms := got.Messages()
	if len(ms) != 4 || ms[1].ToolCalls[0].Name != "sys_monitor" || ms[2].ToolCallID != "c1" || ms[3].Content != "CPU 1%" {
		t.Fatalf("messages %+v", ms)
	}
	ups := got.Uploads()
	if len(ups) != 1 || !ups[0].Indexed {
		t.Fatalf("uploads %+v", ups)
	}
	if sum := got.Summary(); !sum.UpdatedAt.Equal(t0.Add(5*time.Minute)) || !sum.CreatedAt.Equal(t0) {
		t.Fatalf("summary %+v", sum)
	}
}

func TestTornLastLineIsSkippedAndCut(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, nil)
	c := s.New(t0)
	c.Append(msg("user", "kept", 1))
	path := filepath.Join(dir, c.ID()+".jsonl")
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"type":"message","message":{"role":"user","content":"torn`)
	f.Close()

	core, logs := observer.New(zap.WarnLevel)
	s2, err := Open(dir, zap.New(core))
	if err != nil {
		t.Fatalf("torn line was fatal: %v", err)
	}
	if logs.FilterMessageSnippet("torn").Len() != 1 {
		t.Fatalf("no warning: %v", logs.All())
	}
	if s2.Damaged() != 0 {
		t.Fatalf("a torn last line counted as damage: %d", s2.Damaged())
	}
	got, _ := s2.Get(c.ID())
	if ms := got.Messages(); len(ms) != 1 || ms[0].Content != "kept" {
		t.Fatalf("messages %+v", ms)
	}
	// The next append starts on a clean line and survives another reopen.
	got.Append(msg("user", "next", 2))
	s3, _ := Open(dir, nil)
	got, _ = s3.Get(c.ID())
	if ms := got.Messages(); len(ms) != 2 || ms[1].Content != "next" {
		t.Fatalf("after append %+v", ms)
	}
}

func TestCorruptMiddleLineIsSkipped(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, nil)
	c := s.New(t0)
	c.Append(msg("user", "one", 1))
	path := filepath.Join(dir, c.ID()+".jsonl")
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("garbage\n")
	f.Close()
	c.Append(msg("user", "two", 2))
	s2, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := s2.Get(c.ID())
	if ms := got.Messages(); len(ms) != 2 {
		t.Fatalf("messages %+v", ms)
	}
	if s2.Damaged() != 1 {
		t.Fatalf("Damaged() = %d, want 1", s2.Damaged())
	}
}

// TestDamageIsCounted: every line Open cannot use as a record counts as
// damage (so callers know a record may be missing), a torn last line
// does not, and a line over maxLine in the middle of the file is skipped
// without losing the records after it.
func TestDamageIsCounted(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, nil)
	c := s.New(t0)
	c.Append(msg("user", "one", 1))
	path := filepath.Join(dir, c.ID()+".jsonl")
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("\n")                                                                                     // blank: no damage
	f.WriteString(`{"type":"upload"}` + "\n")                                                               // no content
	f.WriteString(`{"type":"uplaod","upload":{"file_id":"x"}}` + "\n")                                      // unknown type
	f.WriteString(`{"type":"message","message":{"content":"` + strings.Repeat("a", maxLine) + `"}}` + "\n") // too long
	f.Close()
	c.AddUpload(Upload{FileID: "f1", Filename: "a.log", Size: 3, UploadedAt: t0})
	if s.Damaged() != 0 {
		t.Fatalf("Damaged() of the writing store = %d", s.Damaged())
	}
	s2, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s2.Damaged() != 3 {
		t.Errorf("Damaged() = %d, want 3", s2.Damaged())
	}
	got, _ := s2.Get(c.ID())
	if ms, us := got.Messages(), got.Uploads(); len(ms) != 1 || len(us) != 1 || us[0].FileID != "f1" {
		t.Fatalf("after the damage: messages %d, uploads %+v; want 1 and f1", len(ms), us)
	}
}

func TestResolveAndDelete(t *testing.T) {
	s, _ := Open(t.TempDir(), nil)
	a := s.New(t0)
	a.Append(msg("user", "a", 1))
	if got, err := s.Resolve(a.ID()[:8]); err != nil || got != a {
		t.Fatal(err)
	}
	if _, err := s.Resolve(a.ID()[:3]); !errors.Is(err, ErrNotFound) {
		t.Fatal("3-char prefix accepted")
	}
	if _, err := s.Resolve("zzzzzzzz"); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if err := s.Delete(a.ID()); err != nil {
		t.Fatal(err)
	}
	if !a.Deleted() || len(s.List()) != 0 {
		t.Fatal("still there")
	}
	if err := a.Append(msg("user", "x", 2)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("write to deleted: %v", err)
	}
	if err := s.Delete(a.ID()); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
}

func TestAmbiguousPrefix(t *testing.T) {
	s, _ := Open(t.TempDir(), nil)
	// Random ids rarely share a prefix, so give two conversations crafted ids.
	a, b := s.New(t0), s.New(t0)
	a.id, b.id = "aaaa1111-0000-4000-8000-000000000000", "aaaa2222-0000-4000-8000-000000000000"
	a.path, b.path = filepath.Join(s.dir, a.id+".jsonl"), filepath.Join(s.dir, b.id+".jsonl")
	a.Append(msg("user", "a", 1))
	b.Append(msg("user", "b", 1))
	if _, err := s.Resolve("aaaa"); !errors.Is(err, ErrAmbiguous) {
		t.Fatal(err)
	}
	if got, err := s.Resolve("aaaa2"); err != nil || got != b {
		t.Fatal(err)
	}
}

func TestTitleIsCut(t *testing.T) {
	s, _ := Open(t.TempDir(), nil)
	c := s.New(t0)
	c.Append(msg("user", strings.Repeat("长", 50), 1))
	if title := c.Summary().Title; title != strings.Repeat("长", 40)+"…" {
		t.Fatal(title)
	}
}

func TestForeignFilesIgnored(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.jsonl"), []byte("{}\n"), 0o600)
	s, err := Open(dir, nil)
	if err != nil || len(s.List()) != 0 {
		t.Fatal(err, s.List())
	}
}

// TestForeignFileIsDamage: a *.jsonl file whose name is not a
// conversation id is not loaded, and counts as damage: it may hold
// records nobody sees.
func TestForeignFileIsDamage(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "backup.jsonl"), []byte(`{"type":"create"}`+"\n"), 0o600)
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.List()) != 0 || s.Damaged() != 1 {
		t.Fatalf("listed %d, Damaged() = %d; want 0 and 1", len(s.List()), s.Damaged())
	}
}
