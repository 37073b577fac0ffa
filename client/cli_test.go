package client

import (
	"bytes"
	"net"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"opsassist/nplt"
)

// runCLI runs the command line in-process against addr (via
// OPSASSIST_SERVER) and returns its exit code and output.
func runCLI(t *testing.T, addr, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := map[string]string{EnvServer: addr, "HOME": t.TempDir()}
	cli := &CLI{
		Stdin:   strings.NewReader(stdin),
		Stdout:  &out,
		Stderr:  &errb,
		Getenv:  func(k string) string { return env[k] },
		Backoff: Backoff{Min: time.Microsecond, Max: time.Microsecond},
	}
	ctx, cancel := testContext(t)
	defer cancel()
	code = cli.Run(ctx, args)
	return code, out.String(), errb.String()
}

// askServer answers one chat with scriptChatReply and reports the
// question and the HELLO.
func askServer(t *testing.T, questions chan<- string, hellos chan<- nplt.HelloPayload) *fakeServer {
	return newFakeServer(t, func(fc *fakeConn) {
		h := fc.handshake()
		if hellos != nil {
			hellos <- h
		}
		q := string(fc.expect(nplt.ChatText).Payload)
		if questions != nil {
			questions <- q
		}
		scriptChatReply(fc)
		fc.readUntilEOF()
	})
}

func TestAskJSON(t *testing.T) {
	questions := make(chan string, 1)
	s := askServer(t, questions, nil)
	code, stdout, stderr := runCLI(t, s.addr, "", "ask", "--json", "what", "is", "cpu")
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
	code, stdout, stderr := runCLI(t, s.addr, "", "ask", "hi")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stdout != "当前 CPU使用率 3.1%\n" || stderr != "download offered: cpu.csv (2.0 KiB) — /download tok-1\n" {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}

	s = askServer(t, nil, nil)
	code, stdout, stderr = runCLI(t, s.addr, "", "-v", "ask", "hi")
	if code != ExitOK {
		t.Fatalf("-v: exit %d", code)
	}
	golden(t, "ask_verbose_stderr", []byte(stderr))
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
	if code := cli.RunAsk(ctx, []string{"--server", s.addr, "hi"}); code != ExitOK {
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
	code, _, stderr := runCLI(t, "127.0.0.1:1", "", "--token", "early", "ask", "hello", "--server", s.addr, "--token=late", "--", "--json")
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
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		fc.expect(nplt.ChatText)
		fc.error(nplt.CodeInternal, "too many requests")
		fc.end()
		fc.readUntilEOF()
	})
	code, stdout, stderr := runCLI(t, s.addr, "", "ask", "hi")
	if code != ExitError {
		t.Fatalf("exit %d, want %d", code, ExitError)
	}
	if stdout != "" || stderr != "server error [internal]: too many requests\n" {
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
	if code != ExitError || !strings.Contains(stderr, "refused") {
		t.Errorf("refused: exit %d, stderr %q", code, stderr)
	}

	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		fc.expect(nplt.ChatText)
		fc.text("cut")
	})
	code, _, stderr = runCLI(t, s.addr, "", "ask", "--json", "hi")
	if code != ExitError || !strings.Contains(stderr, "connection lost") {
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
	path, data := writeTestFile(t, "a.log", 70000)
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		scriptUpload(fc, data, "a.log")
		fc.readUntilEOF()
	})
	code, stdout, stderr := runCLI(t, s.addr, "", "upload", path)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(stdout, "uploaded a.log (68.4 KiB): file_id=file-1 sha256=") || stderr != "" {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}

	s = newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		scriptUpload(fc, data, "a.log")
		fc.readUntilEOF()
	})
	code, stdout, _ = runCLI(t, s.addr, "", "upload", "--json", path)
	if code != ExitOK || !strings.HasPrefix(stdout, `{"file_id":"file-1","filename":"a.log","size":70000,`) {
		t.Errorf("--json: exit %d, stdout %q", code, stdout)
	}

	s = newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		fc.readUntilEOF()
	})
	code, _, stderr = runCLI(t, s.addr, "", "upload", filepath.Join(t.TempDir(), "missing"))
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
