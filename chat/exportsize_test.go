package chat

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestExportRefusedUnbuilt: a conversation whose stored text alone is
// over MaxExport is refused without building the export (it allocates
// next to nothing), and the size it quotes, one byte past the limit,
// does not read as the limit ("33554433 B", not "32.0 MiB").
func TestExportRefusedUnbuilt(t *testing.T) {
	sum := history.Summary{ID: "0123456789", CreatedAt: time.Unix(0, 0)}
	for _, tc := range []struct{ user, want string }{
		{"hi", "the conversation's export is at least 33554433 B, over the 32 MiB limit"},
		{"你好", "对话导出至少有 33554433 B，超过上限 32 MiB"},
	} {
		for _, f := range []string{ExportMarkdown, ExportJSON} {
			n := MaxExport + 1 - len(tc.user)
			if f == ExportJSON { // the roles are stored strings too
				n -= len("user") + len("assistant")
			}
			msgs := []history.Message{{Role: "user", Content: tc.user}, {Role: "assistant", Content: strings.Repeat("x", n)}}
			var err error
			if n := allocated(func() { _, err = Export(sum, msgs, nil, f) }); n > 1<<20 {
				t.Errorf("%s: refusing allocated %d bytes", f, n)
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Code != api.CodeTooLarge || Message(err) != tc.want {
				t.Errorf("%s: %v, want %q", f, err, tc.want)
			}
		}
	}
}

// TestExportJSONBytes: the JSON export written a message at a time is
// byte for byte json.Marshal of the whole document, escapes included.
func TestExportJSONBytes(t *testing.T) {
	sum := history.Summary{ID: "0123456789", Title: "<t>", CreatedAt: time.Unix(5, 0).UTC()}
	msgs := []history.Message{
		{Role: "user", Content: "a <b> & \x01 \u2028 \xff", Time: time.Unix(6, 0).UTC()},
		{Role: "assistant", ToolCalls: []history.ToolCall{{ID: "c1", Name: "probe", Arguments: `{"x":"<"}`}}},
		{Role: "tool", ToolCallID: "c1", Name: "probe", Content: "ok", Full: "okay"},
		{Role: "assistant", Content: "done", Cancelled: true},
	}
	ups := []history.Upload{{FileID: "f1", Filename: "a&b.txt", Size: 3, SHA256: "ab"}}
	for _, m := range [][]history.Message{nil, msgs} {
		got, err := Export(sum, m, ups, ExportJSON)
		if m == nil {
			m = []history.Message{}
		}
		want, _ := json.Marshal(struct {
			Messages []history.Message `json:"messages"`
			Session  history.Summary   `json:"session"`
			Uploads  []ExportFile      `json:"uploads"`
		}{m, sum, ExportFiles(ups)})
		if err != nil || string(got) != string(want)+"\n" {
			t.Fatalf("%v\n got %s\nwant %s", err, got, want)
		}
	}
	md, err := Export(sum, msgs, ups, "")
	if err != nil || string(md) != Transcript(sum, msgs, ups) {
		t.Fatalf("md: %v\n%s", err, md)
	}
}

// TestExportEscapesOverLimit: JSON whose escapes take it past MaxExport
// though its raw text does not is refused unbuilt too: the estimate
// counts each string as JSON writes it.
func TestExportEscapesOverLimit(t *testing.T) {
	msgs := []history.Message{{Role: "user", Content: strings.Repeat("\x01", MaxExport/6+1)}}
	var err error
	if n := allocated(func() { _, err = Export(history.Summary{ID: "x"}, msgs, nil, ExportJSON) }); n > 1<<20 {
		t.Errorf("refusing allocated %d bytes", n)
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != api.CodeTooLarge || Message(err) != "the conversation's export is at least 33554440 B, over the 32 MiB limit" {
		t.Fatalf("%v", err)
	}
}

// TestJSONStringLen: jsonStringLen is the length json.Marshal writes.
func TestJSONStringLen(t *testing.T) {
	for _, s := range []string{"", "abc", `"\`, "\b\f\n\r\t\x00\x1f\x7f", "<a href='x'>&amp;</a>", "磁盘满了吗",
		"\u2028\u2029", "\xff\xfe", "\xe7\xa3", "ok\xc3", "😀 emoji", "\u00e9\u0301"} {
		j, _ := json.Marshal(s)
		if got := jsonStringLen(s); got != len(j)-2 {
			t.Errorf("%q: %d, json writes %d", s, got, len(j)-2)
		}
	}
}

func newExportService(t *testing.T) *Service { return newExportServiceBudget(t, MaxExport) }

// newExportServiceBudget is newExportService with an export budget of
// budget bytes.
func newExportServiceBudget(t *testing.T, budget int64) *Service {
	dir := t.TempDir()
	h, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{History: h, Uploads: u, Agent: nopAgent{}, ExportBudget: budget})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

type nopAgent struct{}

func (nopAgent) Respond(context.Context, *Turn, Responder) ([]history.Message, error) {
	return nil, nil
}

// TestExportBudget: the bytes of exports being sent count against the
// service's budget: while one export of 20 MiB is held by its sender,
// another is refused with server_busy (in the conversation's language),
// and goes through once the first is sent; a small one fits beside it.
func TestExportBudget(t *testing.T) {
	s := newExportService(t)
	big, small := s.NewSession(api.ClientCLI, Local()), s.NewSession(api.ClientCLI, Local())
	if err := big.current().Append(history.Message{Role: "user", Content: "导出" + strings.Repeat("x", 20<<20)}); err != nil {
		t.Fatal(err)
	}
	if err := small.current().Append(history.Message{Role: "user", Content: "hi"}); err != nil {
		t.Fatal(err)
	}
	entered, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		done <- big.ExportTo(big.ID(), ExportMarkdown, func(e Exported) error {
			close(entered)
			<-release
			return nil
		})
	}()
	<-entered
	err := big.ExportTo(big.ID(), ExportJSON, func(Exported) error { t.Error("sent over the budget"); return nil })
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != api.CodeServerBusy || Message(err) != "服务器正在导出其他对话，请稍后再试" {
		t.Fatalf("second export: %v", err)
	}
	var got []byte
	if err := small.ExportTo(small.ID(), ExportMarkdown, func(e Exported) error { got = e.Data; return nil }); err != nil || !strings.Contains(string(got), "hi") {
		t.Fatalf("small export beside it: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := big.ExportTo(big.ID(), ExportJSON, func(Exported) error { return nil }); err != nil {
		t.Fatalf("after the first was sent: %v", err)
	}
	if s.exports.used != 0 {
		t.Fatalf("%d bytes still reserved", s.exports.used)
	}
}

// TestExportBudgetPerPrincipal: one principal holds at most a third of
// the budget (and never less than one export's cap), so a slow reader
// of its own exports cannot keep another user's refused.
func TestExportBudgetPerPrincipal(t *testing.T) {
	s := newExportServiceBudget(t, DefaultExportBudget)
	alice := UserPrincipal("alice", RoleOperator, false)
	bob := UserPrincipal("bob", RoleOperator, false)
	a1, a2, b1 := s.NewSession(api.ClientCLI, alice), s.NewSession(api.ClientCLI, alice), s.NewSession(api.ClientCLI, bob)
	for _, se := range []*Session{a1, a2, b1} {
		if err := se.current().Append(history.Message{Role: "user", Content: strings.Repeat("x", 20<<20)}); err != nil {
			t.Fatal(err)
		}
	}
	entered, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		done <- a1.ExportTo(a1.ID(), ExportMarkdown, func(Exported) error { close(entered); <-release; return nil })
	}()
	<-entered
	err := a2.ExportTo(a2.ID(), ExportMarkdown, func(Exported) error { t.Error("alice over her share"); return nil })
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != api.CodeServerBusy {
		t.Fatalf("alice's second export: %v", err)
	}
	if err := b1.ExportTo(b1.ID(), ExportMarkdown, func(Exported) error { return nil }); err != nil {
		t.Fatalf("bob's export beside alice's: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
