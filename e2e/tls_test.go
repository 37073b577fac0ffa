package e2e

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"opsassist/cli"
	"opsassist/internal/testkit"
)

// TestTLSListeners: with tls_cert and tls_key, the CLI reaches NPLT with
// --tls-ca (or --insecure) and not without trusting the certificate,
// HTTP answers over https, and the login cookie is Secure.
func TestTLSListeners(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	certFile, keyFile := testkit.WriteSelfSigned(t, t.TempDir())
	cfg := daemonConfig(data)
	cfg.Search.DocRoots = nil
	cfg.TLSCert, cfg.TLSKey = certFile, keyFile
	cfg.AuthToken = "tls-test-token-0123456789"
	a := start(t, cfg)
	t.Cleanup(func() { stop(t, a) })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	addr := a.NPLTAddr().String()
	ask := func(extra ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		prog := &cli.CLI{Stdout: &out, Stderr: &errOut}
		args := append([]string{"--server", addr, "--token", cfg.AuthToken}, extra...)
		code := prog.Run(ctx, append(args, "ask", "hello"))
		return code, out.String(), errOut.String()
	}
	if code, out, errOut := ask("--tls-ca", certFile); code != 0 || out == "" {
		t.Fatalf("--tls-ca: exit %d, %q %q", code, out, errOut)
	}
	if code, _, errOut := ask("--insecure"); code != 0 {
		t.Fatalf("--insecure: exit %d, %q", code, errOut)
	}
	if code, _, errOut := ask("--tls"); code == 0 || !strings.Contains(errOut, "certificate") {
		t.Fatalf("--tls without trusting the certificate: exit %d, %q", code, errOut)
	}
	var env bytes.Buffer
	prog := &cli.CLI{Stdout: &env, Stderr: &env, Getenv: func(k string) string {
		return map[string]string{cli.EnvTLSCA: certFile, cli.EnvToken: cfg.AuthToken}[k]
	}}
	if code := prog.Run(ctx, []string{"--server", addr, "ask", "hello"}); code != 0 {
		t.Fatalf("OPSASSIST_TLS_CA: exit %d, %s", code, env.String())
	}

	pool := x509.NewCertPool()
	pemBytes, _ := os.ReadFile(certFile)
	pool.AppendCertsFromPEM(pemBytes)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	base := "https://" + a.HTTPAddr().String()
	req, _ := http.NewRequest("GET", base+"/api/health", nil)
	req.Header.Set("Authorization", "Bearer "+cfg.AuthToken)
	res, err := hc.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("https health: %v %v", err, res)
	}
	res.Body.Close()
	res, err = hc.PostForm(base+"/api/login", url.Values{"token": {cfg.AuthToken}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var secure bool
	for _, c := range res.Cookies() {
		secure = secure || c.Name == "opsassist_auth" && c.Secure
	}
	if res.StatusCode != 200 || !secure {
		t.Fatalf("login over TLS: %d, cookies %v", res.StatusCode, res.Cookies())
	}
	// Plain HTTP on the TLS port gets Go's 400, never an answer.
	if r, err := http.Get("http://" + a.HTTPAddr().String() + "/api/health"); err == nil {
		r.Body.Close()
		if r.StatusCode == 200 {
			t.Fatal("plain HTTP served on the TLS listener")
		}
	}
}
