package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// mdServer answers one chat with src in 5-byte deltas, which cut runes,
// "**", fence markers and table rows.
func mdServer(t *testing.T, src string) *npltfake.Server {
	return npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		for len(src) > 0 {
			n := min(len(src), 5)
			fc.Text(src[:n])
			src = src[n:]
		}
		fc.End()
		fc.ReadUntilEOF()
	})
}

func readGolden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "md", name+".golden"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAskMarkdown: ask prints the model's Markdown unchanged when stdout
// is not a terminal, renders it with --render always or
// OPSASSIST_RENDER=always, without colour under NO_COLOR, and never
// renders --json.
func TestAskMarkdown(t *testing.T) {
	src := readMD(t, "reply")
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"pipe", nil, []string{"ask", "q"}, src},
		{"never", map[string]string{EnvRender: "always"}, []string{"--render", "never", "ask", "q"}, src},
		{"flag", nil, []string{"ask", "--render", "always", "q"}, readGolden(t, "reply.color")},
		{"env", map[string]string{EnvRender: "always"}, []string{"ask", "q"}, readGolden(t, "reply.color")},
		{"no_color", map[string]string{EnvNoColor: "1"}, []string{"--render=always", "ask", "q"}, readGolden(t, "reply.plain")},
		{"bad_env", map[string]string{EnvRender: "bogus"}, []string{"ask", "q"}, src},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mdServer(t, src)
			env := map[string]string{EnvServer: s.Addr}
			for k, v := range tc.env {
				env[k] = v
			}
			code, stdout, stderr := runCLIEnv(t, env, "", tc.args...)
			if code != ExitOK {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if stdout != tc.want {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout, tc.want)
			}
		})
	}

	s := mdServer(t, src)
	code, stdout, _ := runCLIEnv(t, map[string]string{EnvServer: s.Addr, EnvRender: "always"}, "", "ask", "--json", "q")
	if code != ExitOK || strings.Contains(stdout, "┌") || !strings.Contains(stdout, `"text":"## `) {
		t.Errorf("--json: exit %d, stdout %s", code, stdout)
	}
}

func TestRenderFlagInvalid(t *testing.T) {
	code, _, stderr := runCLI(t, "127.0.0.1:1", "", "--render", "sometimes", "ask", "q")
	if code != ExitUsage || !strings.Contains(stderr, "want auto, always or never") || strings.Contains(stderr, "cli:") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestREPLMarkdown renders a REPL answer (OPSASSIST_RENDER=always,
// NO_COLOR): a status line arriving mid-table prints at once and the
// table after its last row; the unfinished last line at the answer's end.
func TestREPLMarkdown(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Text("## 结果\n\n| a | 值 |\n|---|---|\n| x")
		fc.Status(api.StatusToolCall, "disk_usage()", "")
		fc.Text(" | **1** |\n\nlast line with `code`")
		fc.End()
		fc.ReadUntilEOF()
	})
	var out, errb bytes.Buffer
	env := map[string]string{EnvServer: s.Addr, EnvRender: "always", EnvNoColor: "1"}
	cli := &CLI{
		Stdin:  strings.NewReader("q\n/quit\n"),
		Stdout: &out, Stderr: &errb,
		Getenv:  func(k string) string { return env[k] },
		Backoff: client.Backoff{Min: 1, Max: 1},
	}
	ctx, cancel := testContext(t)
	defer cancel()
	if code := cli.Run(ctx, nil); code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	golden(t, "repl_markdown", []byte(strings.ReplaceAll(out.String(), s.Addr, "ADDR")))
}
