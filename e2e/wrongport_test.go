package e2e

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"opsassist/cli"
)

// TestCLIAtTheHTTPPort points the CLI at the daemon's web listener, as
// a user who copied the web address would. The answer is recognised from
// the reply's bytes (no timeout is waited for: the client package's
// TestDialHTTPServer runs with hour-long timeouts and
// TestDefaultHelloTimeout bounds the silent-peer wait by 2 s), and the
// message names the mistake in the user's language.
func TestCLIAtTheHTTPPort(t *testing.T) {
	t.Parallel()
	a := startApp(t, t.TempDir())
	t.Cleanup(func() { stop(t, a) })
	addr := a.HTTPAddr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, tc := range []struct{ lang, want string }{
		{"en_US.UTF-8", "opsassist: " + addr + " is not an opsassist NPLT server (it answered like an HTTP server — the CLI talks to the NPLT port, 9999 by default; the web page is at http://" + addr + "/)\n"},
		{"zh_CN.UTF-8", "opsassist: " + addr + " 不是 opsassist 的 NPLT 服务（它像 HTTP 服务器那样应答——命令行连接的是 NPLT 端口，默认 9999；网页在 http://" + addr + "/）\n"},
	} {
		var out, errOut bytes.Buffer
		prog := &cli.CLI{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string {
			if k == "LANG" {
				return tc.lang
			}
			return ""
		}}
		if code := prog.Run(ctx, []string{"--server", addr, "ask", "hello"}); code != cli.ExitError || out.Len() != 0 || errOut.String() != tc.want {
			t.Errorf("LANG=%s: exit %d, stdout %q\nstderr %q\nwant   %q", tc.lang, code, out.String(), errOut.String(), tc.want)
		}
		if strings.Contains(errOut.String(), "short payload") {
			t.Errorf("the codec's error reached the user: %s", errOut.String())
		}
	}
}
