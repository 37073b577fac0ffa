package builtin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/internal/golden"
	"opsassist/storage/history"
)

// uploadFiles writes files into dir and returns them as the
// conversation's uploads, the first uploaded first.
func uploadFiles(t *testing.T, dir string, files ...[2]string) []history.Upload {
	t.Helper()
	var ups []history.Upload
	at := time.Now().Add(-time.Hour)
	for i, f := range files {
		p := filepath.Join(dir, f[0])
		if err := os.WriteFile(p, []byte(f[1]), 0o600); err != nil {
			t.Fatal(err)
		}
		ups = append(ups, history.Upload{FileID: "f" + string(rune('1'+i)), Filename: f[0], FilePath: p, UploadedAt: at.Add(time.Duration(i) * time.Minute), Size: int64(len(f[1]))})
	}
	return ups
}

const (
	oldConfig = "server:\n  port: 8080\ndatabase:\n  host: db.local\n  port: 5432\n  password: old-secret-1\ndebug: true\n"
	newConfig = "server:\n  port: 8080\ndatabase:\n  host: db-02.local\n  port: 5433\n  password: new-secret-2\ncache:\n  ttl: 60\n"
)

// TestCompareChain: "对比这两个配置文件" after two uploads lists them,
// reads each and answers with the keys that differ — counts first, old
// → new values, secrets hidden — through the real agent and tools.
func TestCompareChain(t *testing.T) {
	dir := t.TempDir()
	ups := uploadFiles(t, dir, [2]string{"config_old.yaml", oldConfig}, [2]string{"config.yaml", newConfig})
	a := newAgent(t, dir)
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"对比这两个配置文件", []string{"对比 config_old.yaml（旧）与 config.yaml（新）：修改 3 项，新增 1 项，删除 1 项。",
			"~ database.host: db.local → db-02.local", "~ database.port: 5432 → 5433", "~ database.password: *** → ***", "+ cache.ttl = 60", "- debug = true"}},
		{"compare these two config files", []string{"Comparing config_old.yaml (old) with config.yaml (new): 3 changed, 1 added, 1 removed.", "~ database.port: 5432 → 5433"}},
	} {
		r, msgs := ask(t, a, c.q, ups)
		got := r.text.String()
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q: answer lacks %q:\n%s", c.q, w, got)
			}
		}
		for _, s := range []string{"old-secret-1", "new-secret-2", "server.port"} {
			if strings.Contains(got, s) {
				t.Errorf("%q: answer shows %q:\n%s", c.q, s, got)
			}
		}
		var calls []string
		for _, m := range msgs {
			for _, tc := range m.ToolCalls {
				calls = append(calls, tc.Arguments)
			}
		}
		if len(calls) != 3 || !strings.Contains(calls[1], `"file_id":"f1"`) || !strings.Contains(calls[2], `"file_id":"f2"`) {
			t.Errorf("%q: calls %v", c.q, calls)
		}
	}
}

// TestCompareOneUpload: a comparison with one upload says two files are
// needed, in the question's language, and reads nothing.
func TestCompareOneUpload(t *testing.T) {
	dir := t.TempDir()
	ups := uploadFiles(t, dir, [2]string{"config.yaml", newConfig})
	a := newAgent(t, dir)
	for q, want := range map[string]string{
		"对比这两个配置文件":                      "要对比需要两个文件，但本会话只上传了一个。",
		"compare these two config files": "A comparison needs two files, but only one was uploaded",
	} {
		r, msgs := ask(t, a, q, ups)
		if got := r.text.String(); !strings.HasPrefix(got, want) {
			t.Errorf("%q: %q", q, got)
		}
		if len(msgs) != 3 {
			t.Errorf("%q: %d messages, want the list alone", q, len(msgs))
		}
	}
}

// TestCompareNextStops: the chain reads each file once, even when a
// read failed, and only for a comparison.
func TestCompareNextStops(t *testing.T) {
	list, _ := json.Marshal(map[string]any{"total": 2, "files": []map[string]any{{"file_id": "a", "filename": "x.yaml"}, {"file_id": "b", "filename": "y.yaml"}}})
	listed := result{tool: "file_upload", Success: true, Output: list, args: map[string]any{"action": "list"}}
	readA := result{tool: "file_upload", Success: false, Error: "gone", args: map[string]any{"action": "read", "file_id": "a"}}
	readB := result{tool: "file_upload", Success: true, Output: json.RawMessage(`{"content":"k: 1"}`), args: map[string]any{"action": "read", "file_id": "b"}}
	in := Intent{Kind: "upload_ref", input: "对比这两个文件"}
	if next, ok := compareNext(in, []result{listed}); !ok || next.args["file_id"] != "a" {
		t.Errorf("first: %v %v", next, ok)
	}
	if next, ok := compareNext(in, []result{listed, readA}); !ok || next.args["file_id"] != "b" {
		t.Errorf("after a failed read: %v %v", next, ok)
	}
	if _, ok := compareNext(in, []result{listed, readA, readB}); ok {
		t.Error("read again")
	}
	if _, ok := compareNext(Intent{Kind: "upload_ref", input: "列出这两个文件"}, []result{listed}); ok {
		t.Error("a list is no comparison")
	}
	// Named files are the ones compared.
	list3, _ := json.Marshal(map[string]any{"files": []map[string]any{{"file_id": "a", "filename": "x.yaml"}, {"file_id": "b", "filename": "y.yaml"}, {"file_id": "c", "filename": "z.log"}}})
	named := Intent{Kind: "upload_ref", input: "what changed between x.yaml and y.yaml"}
	if next, ok := compareNext(named, []result{{tool: "file_upload", Success: true, Output: list3}}); !ok || next.args["file_id"] != "a" {
		t.Errorf("named: %v %v", next, ok)
	}
	// A comparison answered from the reads; with one read, no comparison.
	if _, ok := compareAnswer(true, in, []result{listed, readB}); ok {
		t.Error("compared one file")
	}
}

// TestCompareLayouts: a comparison across formats (YAML with its .env
// rewrite), identical files, more differences than are listed, and
// files that are no configuration (testdata/compare.golden).
func TestCompareLayouts(t *testing.T) {
	rf := func(name, content, at string) readFile {
		return readFile{Filename: name, Content: &content, UploadedAt: at}
	}
	var many, manyNew strings.Builder
	for i := range 40 {
		many.WriteString("k" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + ": 1\n")
		manyNew.WriteString("k" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + ": 2\n")
	}
	var b strings.Builder
	for _, c := range []struct {
		title string
		zh    bool
		a, b  readFile
	}{
		{"yaml vs toml", true, rf("app.yaml", "database:\n  port: 5432\n  user: app\nlog:\n  level: info\n", "2024-01-01T00:00:00Z"), rf("app.toml", "[database]\nport = 5433\nuser = \"app\"\n[log]\nlevel = \"debug\"\nformat = \"json\"\n", "2024-01-02T00:00:00Z")},
		{"newer uploaded first", false, rf("b.env", "A=1\nTOKEN=x1\n", "2024-01-02T00:00:00Z"), rf("a.env", "A=2\nTOKEN=x2\n", "2024-01-01T00:00:00Z")},
		{"same", true, rf("a.yaml", "a: 1\nb: [1, 2]\n", "1"), rf("a.json", `{"b": [1, 2], "a": 1}`, "2")},
		{"many", false, rf("old.yaml", many.String(), "1"), rf("new.yaml", manyNew.String(), "2")},
		{"not config", true, rf("a.log", "ERROR x\nINFO y\npassword=abc123xyz\n", "1"), rf("b.log", "INFO y\nWARN z\n", "2")},
		{"truncated", false, rf("a.ini", "[s]\nk=1\n", "1"), readFile{Filename: "b.ini", Content: new("[s]\nk=2\n"), UploadedAt: "2", Truncated: true}},
	} {
		b.WriteString("## " + c.title + "\n" + describeCompare(c.zh, c.a, c.b) + "\n\n")
	}
	golden.Check(t, filepath.Join("testdata", "compare.golden"), b.String(), *update)
}
