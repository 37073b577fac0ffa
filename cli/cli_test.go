package cli

import (
	"bytes"
	"errors"
	"maps"
	"net"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// runCLI runs the command line in-process against addr (via
// OPSASSIST_SERVER) and returns its exit code and output.
func runCLI(t *testing.T, addr, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCLIEnv(t, map[string]string{EnvServer: addr}, stdin, args...)
}

// runCLIEnv is runCLI with the environment env (HOME is added).
func runCLIEnv(t *testing.T, env map[string]string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env = maps.Clone(env)
	env["HOME"] = t.TempDir()
	cli := &CLI{
		Stdin:   strings.NewReader(stdin),
		Stdout:  &out,
		Stderr:  &errb,
		Getenv:  func(k string) string { return env[k] },
		Backoff: client.Backoff{Min: time.Microsecond, Max: time.Microsecond},
	}
	ctx, cancel := testContext(t)
	defer cancel()
	code = cli.Run(ctx, args)
	return code, out.String(), errb.String()
}

// askServer answers one chat with npltfake.Conn.ChatReply and reports the
// question and the HELLO.
func askServer(t *testing.T, questions chan<- string, hellos chan<- nplt.HelloPayload) *npltfake.Server {
	return npltfake.New(t, func(fc *npltfake.Conn) {
		h := fc.Handshake()
		if hellos != nil {
			hellos <- h
		}
		q := string(fc.Expect(nplt.ChatText).Payload)
		if questions != nil {
			questions <- q
		}
		fc.ChatReply()
		fc.ReadUntilEOF()
	})
}

func TestAskJSON(t *testing.T) {
	questions := make(chan string, 1)
	s := askServer(t, questions, nil)
	code, stdout, stderr := runCLI(t, s.Addr, "", "ask", "--json", "what", "is", "cpu")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if q := <-questions; q != "what is cpu" {
		t.Errorf("question = %q", q)
	}
	golden(t, "ask_json", []byte(stdout))
}

func TestAskText(t *testing.T) {
	s := askServer(t, nil, nil)
	code, stdout, stderr := runCLI(t, s.Addr, "", "ask", "hi")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	// ask names the shell command, not the REPL's /download (issue 15).
	if want := "download offered: cpu.csv (2.0 KiB) — opsassist --server " + s.Addr + " download tok-1 -o cpu.csv\n"; stdout != "当前 CPU使用率 3.1%\n" || stderr != want {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}

	s = askServer(t, nil, nil)
	code, stdout, stderr = runCLI(t, s.Addr, "", "-v", "ask", "hi")
	if code != ExitOK {
		t.Fatalf("-v: exit %d", code)
	}
	golden(t, "ask_verbose_stderr", []byte(strings.ReplaceAll(stderr, s.Addr, "SERVER")))
	if stdout != "当前 CPU使用率 3.1%\n" {
		t.Errorf("-v stdout %q", stdout)
	}
}

// TestRunAskEntryPoint drives the exported entry point an end-to-end test
// would use.
func TestRunAskEntryPoint(t *testing.T) {
	s := askServer(t, nil, nil)
	var out bytes.Buffer
	cli := &CLI{Stdout: &out}
	ctx, cancel := testContext(t)
	defer cancel()
	if code := cli.RunAsk(ctx, []string{"--server", s.Addr, "hi"}); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	if out.String() != "当前 CPU使用率 3.1%\n" {
		t.Errorf("stdout %q", out.String())
	}
}

func TestAskFlagsAnywhere(t *testing.T) {
	hellos := make(chan nplt.HelloPayload, 1)
	questions := make(chan string, 1)
	s := askServer(t, questions, hellos)
	// The environment names an address nothing listens on; the flag wins.
	code, _, stderr := runCLI(t, "127.0.0.1:1", "", "--token", "early", "ask", "hello", "--server", s.Addr, "--token=late", "--", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if h := <-hellos; h.Token != "late" {
		t.Errorf("token = %q, want the later flag", h.Token)
	}
	if q := <-questions; q != "hello --json" {
		t.Errorf("question = %q, want words after -- kept", q)
	}
}

func TestAskServerError(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Error(api.CodeInternal, "too many requests")
		fc.End()
		fc.ReadUntilEOF()
	})
	code, stdout, stderr := runCLI(t, s.Addr, "", "ask", "hi")
	if code != ExitError {
		t.Fatalf("exit %d, want %d", code, ExitError)
	}
	if stdout != "" || stderr != "opsassist: too many requests\n" {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
}

func TestAskConnectionErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	code, _, stderr := runCLI(t, closed, "", "ask", "hi")
	if code != ExitError || !strings.Contains(stderr, "refused") || !strings.Contains(stderr, "opsassistd") || strings.Contains(stderr, "client:") {
		t.Errorf("refused: exit %d, stderr %q", code, stderr)
	}

	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Text("cut")
	})
	code, _, stderr = runCLI(t, s.Addr, "", "ask", "--json", "hi")
	if code != ExitError || !strings.Contains(stderr, "lost the connection to the server at "+s.Addr) || strings.Contains(stderr, "client:") {
		t.Errorf("drop: exit %d, stderr %q", code, stderr)
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"ask"}, ExitUsage},
		{[]string{"ask", "--json"}, ExitUsage},
		{[]string{"upload"}, ExitUsage},
		{[]string{"frobnicate"}, ExitUsage},
		{[]string{"--nope"}, ExitUsage},
		{[]string{"ask", "--nope", "hi"}, ExitUsage},
		{[]string{"repl", "extra"}, ExitUsage},
		{[]string{"help"}, ExitOK},
		{[]string{"-h"}, ExitOK},
		{[]string{"ask", "-h"}, ExitOK},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCLI(t, "127.0.0.1:1", "", tt.args...)
		if code != tt.code {
			t.Errorf("%q: exit %d, want %d", tt.args, code, tt.code)
		}
		if !strings.Contains(stdout+stderr, "usage:") {
			t.Errorf("%q: no usage printed", tt.args)
		}
	}
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args []string
		pos  []string
		json bool
	}{
		{nil, nil, false},
		{[]string{"a", "b"}, []string{"a", "b"}, false},
		{[]string{"--json", "a"}, []string{"a"}, true},
		{[]string{"a", "--json", "b"}, []string{"a", "b"}, true},
		{[]string{"a", "--", "--json"}, []string{"a", "--json"}, false},
		{[]string{"--", "-x", "--", "y"}, []string{"-x", "--", "y"}, false},
	}
	for _, tt := range tests {
		var cfg cliConfig
		fs := (&CLI{}).flagSet("t", &cfg)
		fs.BoolVar(&cfg.json, "json", false, "")
		pos, err := parseArgs(fs, tt.args)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(pos, tt.pos) || cfg.json != tt.json {
			t.Errorf("parseArgs(%q) = %q json=%v, want %q json=%v", tt.args, pos, cfg.json, tt.pos, tt.json)
		}
	}
}

func TestUploadCommand(t *testing.T) {
	path, data := npltfake.WriteFile(t, "a.log", 70000)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Upload(data, "a.log")
		fc.ReadUntilEOF()
	})
	code, stdout, stderr := runCLI(t, s.Addr, "", "upload", path)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(stdout, "uploaded a.log (68.4 KiB): file_id=file-1 sha256=") || stderr != "" {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}

	s = npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Upload(data, "a.log")
		fc.ReadUntilEOF()
	})
	code, stdout, _ = runCLI(t, s.Addr, "", "upload", "--json", path)
	if code != ExitOK || !strings.HasPrefix(stdout, `{"file_id":"file-1","filename":"a.log","size":70000,`) {
		t.Errorf("--json: exit %d, stdout %q", code, stdout)
	}

	s = npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.ReadUntilEOF()
	})
	code, _, stderr = runCLI(t, s.Addr, "", "upload", filepath.Join(t.TempDir(), "missing"))
	if code != ExitError || !strings.Contains(stderr, "no such file") {
		t.Errorf("missing file: exit %d, stderr %q", code, stderr)
	}
}

func TestHistoryPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if got := historyPath(env(map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"})); got != filepath.Join("/s", "opsassist", "history") {
		t.Errorf("XDG: %q", got)
	}
	if got := historyPath(env(map[string]string{"HOME": "/h"})); got != filepath.Join("/h", ".opsassist_history") {
		t.Errorf("HOME: %q", got)
	}
	if got := historyPath(env(nil)); got != "" {
		t.Errorf("none: %q", got)
	}
}

func TestAskSession(t *testing.T) {
	tests := []struct {
		name string
		env  string
		args []string
	}{
		{"flag", "", []string{"ask", "--session", "sess-0002-bbbb", "port?"}},
		{"flag before command", "", []string{"--session=sess-0002-bbbb", "ask", "port?"}},
		{"environment", "sess-0002-bbbb", []string{"ask", "port?"}},
		{"flag wins", "sess-other", []string{"ask", "port?", "--session", "sess-0002-bbbb"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hellos := make(chan nplt.HelloPayload, 1)
			s := askServer(t, nil, hellos)
			env := map[string]string{EnvServer: s.Addr, EnvSession: tt.env}
			code, stdout, stderr := runCLIEnv(t, env, "", tt.args...)
			if code != ExitOK {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if h := <-hellos; h.SessionID != "sess-0002-bbbb" {
				t.Errorf("HELLO session_id = %q", h.SessionID)
			}
			if stdout != "当前 CPU使用率 3.1%\n" || strings.Contains(stderr, "session") {
				t.Errorf("stdout %q, stderr %q (the session id is for -v only)", stdout, stderr)
			}
		})
	}
}

func TestAskUnknownSession(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.ResumeRefused(npltfake.Session)
		fc.ExpectClose() // no question is sent to a new conversation
	})
	code, stdout, stderr := runCLI(t, s.Addr, "", "ask", "--session", "sess-gone", "port?")
	if code != ExitError {
		t.Errorf("exit %d, want %d", code, ExitError)
	}
	want := "opsassist: the server does not know this conversation (it may have been deleted)\n" +
		`opsassist: conversation "sess-gone": run without --session (and OPSASSIST_SESSION) to start a new conversation` + "\n"
	if stdout != "" || stderr != want {
		t.Errorf("stdout %q\nstderr %q\nwant   %q", stdout, stderr, want)
	}
}

// TestAskServerErrorThenDrop checks that a reply cut short after an ERROR
// reports the loss once and the ERROR only as rendered.
func TestAskServerErrorThenDrop(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Error(api.CodeInternal, "backend failed")
		// returning drops the connection before the end of the reply
	})
	code, stdout, stderr := runCLI(t, s.Addr, "", "ask", "hi")
	if code != ExitError {
		t.Fatalf("exit %d", code)
	}
	if stdout != "" || !strings.HasPrefix(stderr, "opsassist: backend failed\nopsassist: lost the connection to the server at ") ||
		strings.Count(stderr, "backend failed") != 1 {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
}

func TestUploadSession(t *testing.T) {
	path, data := npltfake.WriteFile(t, "f.yaml", 1000)
	for _, args := range [][]string{{"upload", "--session", npltfake.Session, path}, {"upload", "--json", "--session", npltfake.Session, path}} {
		hellos := make(chan nplt.HelloPayload, 1)
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			hellos <- fc.Handshake()
			fc.Upload(data, "f.yaml")
			fc.ReadUntilEOF()
		})
		code, stdout, stderr := runCLI(t, s.Addr, "", args...)
		if code != ExitOK {
			t.Fatalf("%q: exit %d, stderr %q", args, code, stderr)
		}
		if h := <-hellos; h.SessionID != npltfake.Session {
			t.Errorf("%q: HELLO session_id = %q", args, h.SessionID)
		}
		if !strings.Contains(stdout, "session="+npltfake.Session+"\n") && !strings.Contains(stdout, `"session_id":"`+npltfake.Session+`"`) {
			t.Errorf("%q: stdout %q lacks the session id", args, stdout)
		}
	}

	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.ResumeRefused(npltfake.Session)
		fc.ExpectClose() // nothing is uploaded into a new conversation
	})
	code, stdout, stderr := runCLI(t, s.Addr, "", "upload", "--session", "sess-gone", path)
	if code != ExitError || stdout != "" || !strings.Contains(stderr, `conversation "sess-gone"`) {
		t.Errorf("unknown session: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestUploadOutputError checks that a confirmation line that cannot be
// written fails the command: a script would miss the file id.
func TestUploadOutputError(t *testing.T) {
	path, data := npltfake.WriteFile(t, "a.log", 10)
	for _, args := range [][]string{{"upload", path}, {"upload", "--json", path}} {
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Upload(data, "a.log")
			fc.ReadUntilEOF()
		})
		var errb bytes.Buffer
		cli := &CLI{Stdout: failWriter{}, Stderr: &errb, Getenv: func(k string) string { return map[string]string{EnvServer: s.Addr}[k] }}
		ctx, cancel := testContext(t)
		if code := cli.Run(ctx, args); code != ExitError || !strings.Contains(errb.String(), "writing output: disk full") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errb.String())
		}
		cancel()
	}
}
