package e2e

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/cli"
	"opsassist/config"
	"opsassist/nplt"
)

// TestTokenOnLoopbackRequired: with auth_token set and both listeners on
// loopback, HTTP answers 401 without the token and 200 with it, and
// NPLT refuses a client that does not send HELLO with it; the CLI with
// the token is served.
func TestTokenOnLoopbackRequired(t *testing.T) {
	t.Parallel()
	const token = "loopback-token-0123456789"
	a := startApp(t, t.TempDir(), func(c *config.Config) { c.AuthToken = token })
	defer stop(t, a)

	base := "http://" + a.HTTPAddr().String()
	res, err := http.Get(base + "/api/sessions")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("HTTP on loopback without the token: %d", res.StatusCode)
	}
	req, _ := http.NewRequest("GET", base+"/api/sessions", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if res, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("HTTP on loopback with the token: %d", res.StatusCode)
	}

	// A client that skips HELLO: refused with unauthorized, then closed.
	nc, err := net.Dial("tcp", a.NPLTAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(time.Minute))
	w := nplt.NewWriter(nc)
	if err := w.WriteFrame(nplt.ChatText, []byte("hello")); err != nil || w.Flush() != nil {
		t.Fatal(err)
	}
	r := nplt.NewReader(nc)
	var code string
	for {
		f, err := r.ReadFrame()
		if err != nil {
			break
		}
		if f.Type == nplt.ChatText && bytes.Contains(f.Payload, []byte("opsassist")) {
			t.Fatalf("NPLT on loopback greeted a client without the token: %q", f.Payload)
		}
		if f.Type == nplt.Error {
			code = string(f.Payload)
		}
	}
	if !bytes.Contains([]byte(code), []byte(api.CodeUnauthorized)) {
		t.Fatalf("NPLT without HELLO: error %q", code)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	prog := &cli.CLI{Stdout: &out, Stderr: &errOut}
	if code := prog.Run(ctx, []string{"--server", a.NPLTAddr().String(), "--token", token, "ask", "hello"}); code != 0 {
		t.Fatalf("CLI with the token: exit %d, %s", code, errOut.String())
	}
}
