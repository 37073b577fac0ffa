package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// listServer answers one connection's SESSION_LIST or MODEL_SWITCH (list)
// with two saved conversations and this connection's new, empty one,
// or with two models.
func listServer(t *testing.T) *npltfake.Server {
	return npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		f := fc.Read()
		switch f.Type {
		case nplt.SessionList:
			fc.Result(client.KindSessionList, client.SessionList{Current: "new-0000", Sessions: []client.SessionInfo{
				{SessionID: "new-0000"}, {SessionID: "7e469b6b-aaaa", Messages: 2}, {SessionID: "c86eeefb-bbbb", Uploads: 1}}})
		case nplt.ModelSwitch:
			fc.Result(client.KindModels, client.ModelList{Current: "builtin", Models: []string{"builtin", "ollama"}})
		default:
			fc.Fail("unexpected %v", f.Type)
		}
		fc.End()
		fc.ExpectClose()
	})
}

// TestCompletionCandidates: what the hidden __complete command offers
// for each word — commands, a flag's values, the server's conversation
// ids and models (its new, unsaved conversation left out), file names
// (a directive) only where a file belongs, nothing for a question.
func TestCompletionCandidates(t *testing.T) {
	down := "127.0.0.1:1"
	for _, tc := range []struct {
		words []string
		want  []string
		live  bool // the fake server answers
	}{
		{words: []string{"as"}, want: commandWords()},
		{words: []string{"export", "--format", ""}, want: []string{"md", "json"}},
		{words: []string{"--render", "al"}, want: []string{"auto", "always", "never"}},
		{words: []string{"ask", "--render=never", "--session", ""}, want: []string{"7e469b6b-aaaa", "c86eeefb-bbbb"}, live: true},
		{words: []string{"ask", "--model", ""}, want: []string{"builtin", "ollama"}, live: true},
		{words: []string{"export", ""}, want: []string{"7e469b6b-aaaa", "c86eeefb-bbbb"}, live: true},
		{words: []string{"ask", "--session", ""}},  // server down: nothing
		{words: []string{"ask", "--model", "oll"}}, // server down: nothing
		{words: []string{"ask", "what is "}},       // a question: no file names
		{words: []string{"download", "tok"}},       // a token
		{words: []string{"--server", ""}},          // an address
		{words: []string{"ask", "--name", ""}},     // a name, not a file
		{words: []string{"upload", ""}, want: []string{completeFiles}},
		{words: []string{"export", "-o", ""}, want: []string{completeFiles}},
		{words: []string{"eval-retrieval", "--corpus", ""}, want: []string{completeDirs}},
		{words: []string{"completion", ""}, want: []string{"bash", "zsh", "fish"}},
	} {
		server := down
		if tc.live {
			server = listServer(t).Addr
		}
		c := &CLI{Getenv: func(k string) string {
			if k == EnvServer {
				return server
			}
			return ""
		}}
		if got := c.completions(context.Background(), tc.words); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.words, got, tc.want)
		}
	}
}

// TestBashCompletionCompletes runs the bash script's function, with the
// test binary as opsassist, for a few command lines: commands, flags,
// flag values, the server's ids, file names only where a file belongs.
func TestBashCompletionCompletes(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	script := bashCompletion()
	shim := "opsassist() { " + envTestCLI + "=1 " + strconv.Quote(os.Args[0]) + " \"$@\"; }\n"
	for _, tc := range []struct {
		words, want string
		live        bool
	}{
		{words: "opsassist as", want: "ask"},
		{words: "opsassist ask --mo", want: "--model"},
		{words: "opsassist --server x up", want: "upload"},
		{words: "opsassist completion f", want: "fish"},
		{words: "opsassist download --rd", want: "--rdt"},
		{words: "opsassist export --format ''", want: "md json"},
		{words: "opsassist --render a", want: "auto always"},
		{words: "opsassist ask --session ''", want: "7e469b6b-aaaa c86eeefb-bbbb", live: true},
		{words: "opsassist ask --session ''", want: ""}, // server down
		{words: "opsassist ask ''", want: ""},           // a question, not a file
		{words: "opsassist upload no", want: "notes.txt"},
		{words: "opsassist export -o no", want: "notes.txt"},
	} {
		server := "127.0.0.1:1"
		if tc.live {
			server = listServer(t).Addr
		}
		words := strings.Fields(tc.words)
		prog := shim + script + "\nCOMP_WORDS=(" + strings.Join(words, " ") + ")\nCOMP_CWORD=" + strconv.Itoa(len(words)-1) + "\n_opsassist\necho \"${COMPREPLY[*]}\"\n"
		cmd := exec.Command(bash, "-c", prog)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), EnvServer+"="+server, EnvSession+"=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", tc.words, err)
		}
		if got := strings.TrimSpace(string(out)); got != tc.want {
			t.Errorf("%s: completed %q, want %q", tc.words, got, tc.want)
		}
	}
}
