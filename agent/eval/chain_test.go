package eval

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoadChains(t *testing.T) {
	in := `{"name": "port", "steps": [{"upload": "config.yaml", "content": "port: 5432\n"}, {"say": "端口是多少？"}], "want_tools_in_order": ["file_upload"], "must_contain": ["5432"], "must_not_contain": ["8080"]}

{"name": "refuse", "steps": [{"say": "rm -rf /"}], "want_tools": []}
{"name": "log", "steps": [{"upload": "app.log", "path": "chains/app.log"}, {"say": "errors?"}], "want_tools": ["file_upload"], "want_offer": "x", "known_gap": "not yet"}
`
	got, err := LoadChains(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Chain{
		{Name: "port", Steps: []Step{{Upload: "config.yaml", Content: "port: 5432\n"}, {Say: "端口是多少？"}},
			WantToolsInOrder: []string{"file_upload"}, MustContain: []string{"5432"}, MustNotContain: []string{"8080"}},
		{Name: "refuse", Steps: []Step{{Say: "rm -rf /"}}, WantTools: []string{}},
		{Name: "log", Steps: []Step{{Upload: "app.log", Path: "chains/app.log"}, {Say: "errors?"}},
			WantTools: []string{"file_upload"}, WantOffer: "x", KnownGap: "not yet"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("LoadChains = %#v\nwant %#v", got, want)
	}
}

// TestLoadChainsHostile: every malformed, oversized or dangerous line
// fails the load with a *LineError naming its line.
func TestLoadChainsHostile(t *testing.T) {
	ok := `{"name": "ok", "steps": [{"say": "hi"}], "must_contain": ["x"]}` + "\n"
	many := strings.Repeat(`{"say": "hi"},`, MaxChainSteps)
	tests := []struct {
		name, line string
		is         error
	}{
		{"bad json", `{"name": "x", "steps": [`, nil},
		{"not an object", `["name"]`, nil},
		{"unknown field", `{"name": "x", "steps": [{"say": "hi"}], "must_contains": ["x"]}`, nil},
		{"unknown step field", `{"name": "x", "steps": [{"ask": "hi"}], "must_contain": ["x"]}`, nil},
		{"trailing data", `{"name": "x", "steps": [{"say": "hi"}], "must_contain": ["x"]} {}`, nil},
		{"no name", `{"name": " ", "steps": [{"say": "hi"}], "must_contain": ["x"]}`, ErrChainName},
		{"duplicate name", `{"name": "ok", "steps": [{"say": "hi"}], "must_contain": ["x"]}`, ErrChainDuplicate},
		{"no steps", `{"name": "x", "steps": [], "must_contain": ["x"]}`, ErrChainSteps},
		{"too many steps", `{"name": "x", "steps": [` + many + `{"say": "hi"}], "must_contain": ["x"]}`, ErrChainSteps},
		{"upload last", `{"name": "x", "steps": [{"upload": "a", "content": "b"}], "must_contain": ["x"]}`, ErrChainSteps},
		{"empty step", `{"name": "x", "steps": [{}, {"say": "hi"}], "must_contain": ["x"]}`, ErrChainStep},
		{"say and upload", `{"name": "x", "steps": [{"say": "hi", "upload": "a", "content": "b"}], "must_contain": ["x"]}`, ErrChainStep},
		{"upload without data", `{"name": "x", "steps": [{"upload": "a"}, {"say": "hi"}], "must_contain": ["x"]}`, ErrChainStep},
		{"content and path", `{"name": "x", "steps": [{"upload": "a", "content": "b", "path": "c"}, {"say": "hi"}], "must_contain": ["x"]}`, ErrChainStep},
		{"content without upload", `{"name": "x", "steps": [{"say": "hi", "content": "b"}], "must_contain": ["x"]}`, ErrChainStep},
		{"blank message", `{"name": "x", "steps": [{"say": "  "}], "must_contain": ["x"]}`, ErrEmptyInput},
		{"name with a directory", `{"name": "x", "steps": [{"upload": "../a", "content": "b"}, {"say": "hi"}], "must_contain": ["x"]}`, ErrUploadName},
		{"name dot dot", `{"name": "x", "steps": [{"upload": "..", "content": "b"}, {"say": "hi"}], "must_contain": ["x"]}`, ErrUploadName},
		{"name with a control", `{"name": "x", "steps": [{"upload": "a\u0000b", "content": "b"}, {"say": "hi"}], "must_contain": ["x"]}`, ErrUploadName},
		{"name too long", `{"name": "x", "steps": [{"upload": "` + strings.Repeat("a", 256) + `", "content": "b"}, {"say": "hi"}], "must_contain": ["x"]}`, ErrUploadName},
		{"absolute path", `{"name": "x", "steps": [{"upload": "a", "path": "/etc/passwd"}, {"say": "hi"}], "must_contain": ["x"]}`, ErrUploadPath},
		{"escaping path", `{"name": "x", "steps": [{"upload": "a", "path": "chains/../../x"}, {"say": "hi"}], "must_contain": ["x"]}`, ErrUploadPath},
		{"backslash path", `{"name": "x", "steps": [{"upload": "a", "path": "..\\x"}, {"say": "hi"}], "must_contain": ["x"]}`, ErrUploadPath},
		{"expects nothing", `{"name": "x", "steps": [{"say": "hi"}]}`, ErrChainWant},
		{"both tool lists", `{"name": "x", "steps": [{"say": "hi"}], "want_tools": [], "want_tools_in_order": ["a"]}`, ErrChainTools},
		{"empty expected string", `{"name": "x", "steps": [{"say": "hi"}], "must_contain": [""]}`, ErrEmptyWant},
		{"oversized", `{"name": "x", "steps": [{"say": "` + strings.Repeat("x", MaxLineSize) + `"}]}`, ErrLineTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadChains(strings.NewReader(ok + "\n" + tt.line + "\n"))
			var le *LineError
			if !errors.As(err, &le) || le.Line != 3 {
				t.Fatalf("error %v, want a *LineError at line 3", err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
		})
	}
}

func TestChainCheck(t *testing.T) {
	res := ChainResult{Tools: []string{"semantic_search", "file_upload", "file_download"}, Offers: []string{"a.yaml"}, Answer: "port 5432"}
	tests := []struct {
		name string
		c    Chain
		n    int
	}{
		{"all met", Chain{WantToolsInOrder: []string{"file_upload", "file_download"}, WantOffer: "a.yaml", MustContain: []string{"5432"}, MustNotContain: []string{"8080"}}, 0},
		{"exact tools", Chain{WantTools: []string{"semantic_search", "file_upload", "file_download"}}, 0},
		{"exact tools differ", Chain{WantTools: []string{"file_upload", "file_download"}}, 1},
		{"no tools wanted", Chain{WantTools: []string{}}, 1},
		{"nil is no expectation", Chain{MustContain: []string{"port"}}, 0},
		{"out of order", Chain{WantToolsInOrder: []string{"file_download", "file_upload"}}, 1},
		{"missing tool", Chain{WantToolsInOrder: []string{"ask_user"}}, 1},
		{"no offer", Chain{WantOffer: "b.yaml"}, 1},
		{"lacks and contains", Chain{MustContain: []string{"6379", "5432"}, MustNotContain: []string{"port"}}, 2},
	}
	for _, tt := range tests {
		if got := tt.c.Check(res); len(got) != tt.n {
			t.Errorf("%s: %v, want %d problems", tt.name, got, tt.n)
		}
	}
	if got := (Chain{WantTools: []string{}}).Check(ChainResult{}); len(got) != 0 {
		t.Errorf("no tools, none wanted: %v", got)
	}
}

func TestStepData(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "a.log"), []byte("ERROR x\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "big"), make([]byte, MaxUploadFileSize+1), 0o600)
	if b, err := (Step{Upload: "a", Content: "inline"}).Data(dir); err != nil || string(b) != "inline" {
		t.Errorf("content: %q %v", b, err)
	}
	if b, err := (Step{Upload: "a", Path: "sub/a.log"}).Data(dir); err != nil || string(b) != "ERROR x\n" {
		t.Errorf("path: %q %v", b, err)
	}
	if _, err := (Step{Upload: "a", Path: "big"}).Data(dir); !errors.Is(err, ErrUploadTooLarge) {
		t.Errorf("big: %v", err)
	}
	if _, err := (Step{Upload: "a", Path: "../x"}).Data(dir); !errors.Is(err, ErrUploadPath) {
		t.Errorf("escape: %v", err)
	}
	if _, err := (Step{Upload: "a", Path: "missing"}).Data(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

// TestChainsFile checks the multi-step cases e2e.TestChains runs: they
// load, both languages are there, every upload's file is readable, and
// the four chains are among them.
func TestChainsFile(t *testing.T) {
	const file = "../../testdata/evals/chains.jsonl"
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chains, err := LoadChains(f)
	if err != nil {
		t.Fatal(err)
	}
	zh, en := 0, 0
	says := map[string]bool{}
	for _, c := range chains {
		lang := &en
		for _, s := range c.Steps {
			if s.Upload != "" {
				if _, err := s.Data(filepath.Dir(file)); err != nil {
					t.Errorf("%s: %v", c.Name, err)
				}
				continue
			}
			says[s.Say] = true
			for _, r := range s.Say {
				if r >= 0x4e00 && r <= 0x9fff {
					lang = &zh
				}
			}
		}
		*lang++
	}
	if zh < 10 || en < 10 {
		t.Errorf("%d Chinese and %d English chains, want at least 10 each", zh, en)
	}
	for _, s := range []string{"这个配置文件里数据库端口是多少？", "下载 config.yaml", "对比这两个配置文件", "分析之前上传的日志中的错误"} {
		if !says[s] {
			t.Errorf("no chain asks %q", s)
		}
	}
}
