package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func writeCases(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cases.jsonl")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEvalOutput(t *testing.T) {
	p := writeCases(t, `{"input": "CPU使用率是多少？", "want_tool": "sys_monitor", "want_args": {"metric": "cpu"}}
{"input": "执行 df -h", "want_tool": "command_executor", "want_args": {"command": "df", "args": ["-h"]}}
{"input": "你好", "want_tool": "sys_monitor"}

{"input": "rm -rf /", "want_tool": "command_executor", "want_args": {"command": "rm"}}
{"input": "内存还剩多少", "want_tool": "sys_monitor", "want_args": {"metric": "disk"}}
`)
	code, stdout, stderr := runCLIEnv(t, map[string]string{}, "", "eval", "--cases", p)
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden(t, "eval", []byte(stdout))
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if !regexp.MustCompile(`^accuracy: \d\.\d{3} \(\d+/\d+\)$`).MatchString(lines[len(lines)-1]) {
		t.Errorf("last line %q", lines[len(lines)-1])
	}
	for _, l := range lines[:len(lines)-1] {
		if !regexp.MustCompile(`^miss: .+ — want \S+ \S+, got \S+ \S+$`).MatchString(l) {
			t.Errorf("miss line %q", l)
		}
	}
}

func TestEvalAllPass(t *testing.T) {
	p := writeCases(t, `{"input": "ps aux", "want_tool": "command_executor", "want_args": {"command": "ps", "args": ["aux"]}}`+"\n")
	code, stdout, _ := runCLIEnv(t, map[string]string{}, "", "eval", "--llm", "builtin", "--cases", p)
	if code != ExitOK || stdout != "accuracy: 1.000 (1/1)\n" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
}

func TestEvalErrors(t *testing.T) {
	good := writeCases(t, `{"input": "hi", "want_tool": ""}`+"\n")
	bad := writeCases(t, `{"input": "hi", "want_tool": ""}`+"\n"+`{"input": "x"`+"\n")
	empty := writeCases(t, "\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"provider without key", []string{"eval", "--cases", good, "--llm", "openai"}, ExitUsage, "needs its API key in OPENAI_API_KEY"},
		{"unknown provider", []string{"eval", "--cases", good, "--llm", "gpt-99"}, ExitUsage, "no such provider"},
		{"no cases flag", []string{"eval"}, ExitUsage, "eval needs --cases FILE"},
		{"extra argument", []string{"eval", "--cases", good, "more"}, ExitUsage, "eval needs --cases FILE"},
		{"missing file", []string{"eval", "--cases", good + ".missing"}, ExitError, "no such file"},
		{"bad line", []string{"eval", "--cases", bad}, ExitError, "line 2"},
		{"no cases", []string{"eval", "--cases", empty}, ExitError, "no cases"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLIEnv(t, map[string]string{}, "", tt.args...)
			if code != tt.code || stdout != "" || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, stdout, stderr, tt.code, tt.stderr)
			}
		})
	}
}

// TestEvalAgainstProvider scores a provider from a config file: a fake
// OpenAI-compatible server that always calls sys_monitor {"metric":"cpu"}.
func TestEvalAgainstProvider(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk-test" {
			http.Error(w, `{"error":{"message":"bad key"}}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"sys_monitor","arguments":"{\"metric\":\"cpu\"}"}}]}}]}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(cfg, []byte("providers:\n  - name: fake\n    base_url: "+srv.URL+"/v1\n    model: m\n    api_key_env: FAKE_KEY\n"), 0o600)
	cases := writeCases(t, `{"input": "CPU?", "want_tool": "sys_monitor", "want_args": {"metric": "cpu"}}`+"\n"+
		`{"input": "hi", "want_tool": ""}`+"\n")
	code, stdout, stderr := runCLIEnv(t, map[string]string{"FAKE_KEY": "sk-test"}, "", "eval", "--cases", cases, "--llm", "fake", "--config", cfg)
	if code != ExitOK || !strings.HasSuffix(stdout, "accuracy: 0.500 (1/2)\n") || !strings.Contains(stdout, "hi") {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}
