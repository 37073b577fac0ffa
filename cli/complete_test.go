package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

func TestREPLComplete(t *testing.T) {
	home := t.TempDir()
	for _, name := range []string{"app.log", "app.conf", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(home, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(home, "apps"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := &CLI{Getenv: func(k string) string { return map[string]string{"HOME": home}[k] }}
	r := c.newREPL(c.baseConfig(), nil)
	r.session = "sess-0001-aaaa"
	data, _ := json.Marshal(client.SessionList{Current: "sess-0001-aaaa", Sessions: []client.SessionInfo{{SessionID: "sess-0001-aaaa"}, {SessionID: "sess-0002-bbbb"}, {SessionID: "other-1"}}})
	r.noteSessions(client.Result{Kind: client.KindSessionList, Data: data})
	r.modelNames = []string{"builtin", "ollama"}

	for _, tc := range []struct {
		line string
		want []string
	}{
		{"/sw", []string{"/switch "}},
		{"/d", []string{"/download ", "/delete "}},
		{"/", slashLines()},
		{"hello", nil},
		// /switch offers the others (walk-through: only the current one,
		// and a second Tab did nothing); the others offer them all.
		{"/switch sess-", []string{"/switch sess-0002-bbbb"}},
		{"/switch ", []string{"/switch sess-0002-bbbb", "/switch other-1"}},
		{"/delete sess-", []string{"/delete sess-0001-aaaa", "/delete sess-0002-bbbb"}},
		{"/delete o", []string{"/delete other-1"}},
		{"/rename o", []string{"/rename other-1"}},
		{"/rename other-1 ti", nil},
		{"/export s", []string{"/export sess-0001-aaaa", "/export sess-0002-bbbb"}},
		{"/upload ~/app", []string{"/upload ~/app.conf", "/upload ~/app.log", "/upload ~/apps/"}},
		{"/upload " + filepath.Join(home, "no"), []string{"/upload " + filepath.Join(home, "notes.txt")}},
		{"/upload ~/[", nil},
		{"/model x", nil},
		{"/model ", []string{"/model builtin", "/model ollama"}},
		{"/model o", []string{"/model ollama"}},
	} {
		if got := r.complete(tc.line); !slices.Equal(got, tc.want) {
			t.Errorf("complete(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestREPLCompleteWord: the word completer liner lists candidates with
// (a second Tab) offers the words after the command, keeping the text
// after the cursor.
func TestREPLCompleteWord(t *testing.T) {
	c := &CLI{Getenv: func(string) string { return "" }}
	r := c.newREPL(c.baseConfig(), nil)
	data, _ := json.Marshal(client.SessionList{Sessions: []client.SessionInfo{{SessionID: "sess-0001-aaaa"}, {SessionID: "sess-0002-bbbb"}}})
	r.noteSessions(client.Result{Kind: client.KindSessionList, Data: data})
	for _, tc := range []struct {
		line     string
		pos      int
		head     string
		want     []string
		wantTail string
	}{
		{"/switch sess-", 13, "/switch ", []string{"sess-0001-aaaa", "sess-0002-bbbb"}, ""},
		{"/sw", 3, "", []string{"/switch "}, ""},
		{"/sw x", 3, "", []string{"/switch "}, " x"},
		{"对话 /sw", 2, "", nil, " /sw"},
	} {
		head, got, tail := r.completeWord(tc.line, tc.pos)
		if head != tc.head || !slices.Equal(got, tc.want) || tail != tc.wantTail {
			t.Errorf("completeWord(%q, %d) = %q, %q, %q; want %q, %q, %q", tc.line, tc.pos, head, got, tail, tc.head, tc.want, tc.wantTail)
		}
	}
}

// slashLines is every slash command, as complete offers them for "/".
func slashLines() []string {
	var out []string
	for _, c := range slashCommands() {
		out = append(out, c+" ")
	}
	return out
}

// TestSlashCommandsFromHelp: the completion knows every command the
// REPL's help lists, and the REPL's dispatch knows each of them.
func TestSlashCommandsFromHelp(t *testing.T) {
	got := slashCommands()
	for _, want := range []string{"/upload", "/download", "/sessions", "/new", "/switch", "/delete", "/history", "/clear", "/model", "/permissions", "/tools", "/tool", "/help", "/quit"} {
		if !slices.Contains(got, want) {
			t.Errorf("slashCommands() lacks %s: %q", want, got)
		}
	}
}

// TestREPLRefreshCompletion: where Tab exists, the conversation ids and
// model names are fetched before the prompt after a command ran (Tab
// after /switch knew only the current conversation, after /model
// nothing); nothing is fetched again until the next command.
func TestREPLRefreshCompletion(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionList)
		fc.Result(client.KindSessionList, client.SessionList{Current: npltfake.Session, Sessions: []client.SessionInfo{
			{SessionID: "newest-1"}, {SessionID: npltfake.Session}, {SessionID: "older-2"}}})
		fc.End()
		fc.Expect(nplt.ModelSwitch)
		fc.Result(client.KindModels, client.ModelList{Current: "builtin", Models: []string{"builtin", "ollama"}})
		fc.End()
		for f, ok := fc.Next(); ok; f, ok = fc.Next() {
			fc.Fail("fetched again: %v %q", f.Type, f.Payload)
		}
	})
	var out bytes.Buffer
	r := newTestREPL(t, s, &out)
	ctx, cancel := testContext(t)
	defer cancel()
	r.refreshCompletion(ctx) // not on a terminal: nothing
	r.tabCompletes, r.completionStale = true, true
	r.refreshCompletion(ctx)
	r.refreshCompletion(ctx) // not stale: nothing
	if got, want := r.complete("/switch "), []string{"/switch newest-1", "/switch older-2"}; !slices.Equal(got, want) {
		t.Errorf("/switch: %q, want %q", got, want)
	}
	if got, want := r.complete("/model "), []string{"/model builtin", "/model ollama"}; !slices.Equal(got, want) {
		t.Errorf("/model: %q, want %q", got, want)
	}
}
