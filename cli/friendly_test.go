package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
	"opsassist/rdt"
)

// friendlyCases are the errors a user meets, as the client returns them.
var friendlyCases = []struct {
	name string
	err  error
}{
	{"refused", fmt.Errorf("client: dial ADDR: %w", &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)})},
	{"http port", client.ErrHTTPServer},
	{"not nplt", fmt.Errorf("%w: its reply starts with %q", client.ErrNotNPLT, "SSH-2")},
	{"unknown session", fmt.Errorf("%w %q: %w", client.ErrUnknownSession, "sess-gone", &client.ServerError{Code: api.CodeNotFound, Message: "conversation not found"})},
	{"server error", &client.ServerError{Code: api.CodeNotFound, Message: "no session sess-0009"}},
	{"lost", fmt.Errorf("%w: %w", client.ErrConnectionLost, errors.New("EOF"))},
	{"internal prefix", errors.New("download cpu.csv: rdt: bad config")},
	{"rdt unknown token", fmt.Errorf("download x: %w", rdt.ErrUnknownToken)},
	{"nplt unknown token", &client.ServerError{Code: api.CodeTokenUnknown, Message: "unknown download token"}},
	{"expired token", &client.ServerError{Code: api.CodeTokenExpired, Message: "download token expired"}},
	{"rdt busy", &client.BusyError{Attempts: 9, Waited: 27 * time.Second, Err: &rdt.RemoteError{Code: rdt.CodeBusy, Reason: "too many transfers from this address; try again later"}}},
	{"busy wait interrupted", fmt.Errorf("download x: client: waiting to ask a busy server again: %w", errors.Join(context.Canceled, &rdt.RemoteError{Code: rdt.CodeBusy, Reason: "too many transfers"}))},
	{"partial kept", fmt.Errorf("%w: %w", rdt.ErrTimeout, client.ErrPartialKept)},
	{"interrupted download", fmt.Errorf("download: %w: %w", context.Canceled, client.ErrPartialKept)},
	{"switch unknown", &client.ServerError{Code: api.CodeNotFound, Message: `conversation not found: "zz"`}},
	{"unknown model", &client.ServerError{Code: api.CodeUnknownModel, Message: `unknown model "nosuch" (have [builtin ollama])`}},
	{"upload too large", &client.ServerError{Code: api.CodeUploadTooLarge, Message: "file too large: more than 104857600 bytes"}},
	{"upload too large, both languages", &client.ServerError{Code: api.CodeUploadTooLarge, Message: "文件太大：150 MiB，超过了单个文件 100 MiB 的上传上限。 File too large: 150 MiB is larger than the 100 MiB limit for one upload."}},
	{"upload over max_upload", fmt.Errorf("client: upload: %w", &client.UploadSizeError{Name: "big.bin", Size: 100<<20 + 1, Limit: 100 << 20})},
	{"shutting down", &client.ServerError{Code: api.CodeShuttingDown, Message: "server is shutting down"}},
	{"chinese message", &client.ServerError{Code: api.CodeQuotaExceeded, Message: "超出本对话的上传配额。The conversation's upload quota is used up."}},
	{"no such file", fmt.Errorf("client: upload: %w", &fs.PathError{Op: "open", Path: "/nonexistent", Err: syscall.ENOENT})},
}

// TestFriendlyGolden renders every case in English and Chinese; no
// internal prefix survives.
func TestFriendlyGolden(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		c := &CLI{Getenv: func(k string) string {
			if k == "LANG" && lang == "zh" {
				return "zh_CN.UTF-8"
			}
			return ""
		}}
		var b strings.Builder
		for _, tc := range friendlyCases {
			s := c.friendly(tc.err, "ADDR", false)
			for _, p := range append(internalPrefixes, "server error [") {
				if strings.Contains(s, p) {
					t.Errorf("%s %s: %q contains %q", lang, tc.name, s, p)
				}
			}
			fmt.Fprintf(&b, "%s: %s\n", tc.name, s)
		}
		golden(t, "errors_"+lang, []byte(b.String()))
	}
}

// TestFriendlyDebug: --debug keeps the raw error after the message.
func TestFriendlyDebug(t *testing.T) {
	c := &CLI{}
	err := fmt.Errorf("%w: %w", client.ErrConnectionLost, errors.New("EOF"))
	if s := c.friendly(err, "ADDR", true); !strings.HasSuffix(s, "[debug: client: connection lost: EOF]") {
		t.Errorf("debug message %q lacks the raw error", s)
	}
}

func TestChineseLocale(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{nil, false},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, true},
		{map[string]string{"LANG": "en_US.UTF-8"}, false},
		{map[string]string{"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, false},
		{map[string]string{"LC_ALL": "zh_TW", "LANG": "en_US"}, true},
		{map[string]string{"LC_MESSAGES": "zh", "LANG": "C"}, true},
	} {
		c := &CLI{Getenv: func(k string) string { return tc.env[k] }}
		if got := c.chinese(); got != tc.want {
			t.Errorf("%v: chinese = %v, want %v", tc.env, got, tc.want)
		}
	}
}

// TestAskHTTPPort points ask at an HTTP server, as a user who gave the
// web port would: a clear message in the user's language, recognised
// from the reply's bytes (the client's own tests show no waiting is
// involved and that the silent-peer deadline is at most 2 s).
func TestAskHTTPPort(t *testing.T) {
	s := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(s.Close)
	addr := s.Listener.Addr().String()
	for _, tc := range []struct{ lang, want string }{
		{"", "opsassist: " + addr + " is not an opsassist NPLT server (it answered like an HTTP server — the CLI talks to the NPLT port, 9999 by default; the web page is at http://" + addr + "/)\n"},
		{"zh_CN.UTF-8", "opsassist: " + addr + " 不是 opsassist 的 NPLT 服务（它像 HTTP 服务器那样应答——命令行连接的是 NPLT 端口，默认 9999；网页在 http://" + addr + "/）\n"},
	} {
		code, stdout, stderr := runCLIEnv(t, map[string]string{EnvServer: addr, "LANG": tc.lang}, "", "ask", "hi")
		if code != ExitError || stdout != "" || stderr != tc.want {
			t.Errorf("LANG=%q: exit %d, stdout %q\nstderr %q\nwant   %q", tc.lang, code, stdout, stderr, tc.want)
		}
	}
}

// TestREPLHTTPPort: the REPL says the same and does not retry.
func TestREPLHTTPPort(t *testing.T) {
	s := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(s.Close)
	addr := s.Listener.Addr().String()
	code, _, stderr := runREPL(t, addr, "hi\n", nil)
	if code != ExitError || !strings.Contains(stderr, "error: "+addr+" is not an opsassist NPLT server (it answered like an HTTP server") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestAskRefusedZH: connection refused, in Chinese, says how to start
// the server.
func TestAskRefusedZH(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	code, _, stderr := runCLIEnv(t, map[string]string{EnvServer: addr, "LC_ALL": "zh_CN.UTF-8"}, "", "ask", "hi")
	want := "opsassist: " + addr + " 上没有运行 opsassist 服务（连接被拒绝）——用 `opsassistd` 启动它（源码目录里用 `make run`），或用 --server 或 OPSASSIST_SERVER 指向正确的地址\n"
	if code != ExitError || stderr != want {
		t.Errorf("exit %d\nstderr %q\nwant   %q", code, stderr, want)
	}
}

// TestREPLReconnectOneLinePerState: off a terminal, a reconnection that
// fails three times before it succeeds prints one line per state change
// (lost, reconnecting, first failure, reconnected), not one per attempt.
func TestREPLReconnectOneLinePerState(t *testing.T) {
	refuse := func(fc *npltfake.Conn) {} // closes at once
	s := npltfake.New(t,
		func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Expect(nplt.ChatText)
			fc.Status(api.StatusStreamStart, "", npltfake.Session)
			fc.Text("half")
		},
		refuse, refuse, refuse,
		func(fc *npltfake.Conn) {
			fc.Handshake()
			fc.Expect(nplt.ChatText)
			fc.Text("answer two")
			fc.End()
			fc.ReadUntilEOF()
		})
	code, stdout, stderr := runREPL(t, s.Addr, "first\nsecond\n", nil)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if n := strings.Count(stdout, "reconnect attempt"); n != 1 {
		t.Errorf("%d attempt lines, want 1:\n%s", n, stdout)
	}
	for _, want := range []string{"reconnecting to ", "reconnect attempt 1 failed (lost the connection to the server at " + s.Addr, "reconnected · conversation", "answer two\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout+stderr, "client:") {
		t.Errorf("internal prefix shown:\n%s\n%s", stdout, stderr)
	}
}

// TestREPLDownloadUnknownToken: /download with a token no offer in this
// REPL carried (and no PATH) says the token is unknown or expired, not
// that the offer has no file name.
func TestREPLDownloadUnknownToken(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.ReadUntilEOF()
	})
	code, _, stderr := runREPL(t, s.Addr, "/download abc\n", nil)
	want := `error: no download offer "abc" in this REPL (unknown or expired token) — use the token of an offer shown here, or give a path: /download TOKEN PATH` + "\n"
	if code != ExitOK || stderr != want {
		t.Errorf("exit %d\nstderr %q\nwant   %q", code, stderr, want)
	}
}
