package daemon

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"opsassist/cli"
	"opsassist/config"
)

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key
// into dir as cert.pem and key.pem.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "opsassist test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	return certFile, keyFile
}

// TestTLSListeners: with tls_cert and tls_key, the CLI reaches NPLT with
// --tls-ca (or --insecure) and not without trusting the certificate,
// HTTP answers over https, and the login cookie is Secure.
func TestTLSListeners(t *testing.T) {
	data := t.TempDir()
	certFile, keyFile := selfSigned(t, t.TempDir())
	cfg := config.Defaults()
	cfg.NPLT, cfg.HTTP, cfg.RDT = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	cfg.Data, cfg.Workspace = data, filepath.Join(data, "workspace")
	cfg.Search.DocRoots = nil
	cfg.TLSCert, cfg.TLSKey = certFile, keyFile
	cfg.AuthToken = "tls-test-token-0123456789"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a, err := New(cfg, zaptest.NewLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
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

// TestTLSDir: tls_dir finds the certificate and key in each usual layout
// and says which names it looked for when none is there.
func TestTLSDir(t *testing.T) {
	for _, layout := range tlsDirLayouts {
		dir := t.TempDir()
		cert, key := selfSigned(t, t.TempDir())
		for src, dst := range map[string]string{cert: layout[0], key: layout[1]} {
			b, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, dst), b, 0o600)
		}
		cfg := config.Defaults()
		cfg.TLSDir = dir
		tc, err := serverTLS(cfg)
		if err != nil || tc == nil || len(tc.Certificates) != 1 {
			t.Fatalf("%v: %v %v", layout, tc, err)
		}
	}
	cfg := config.Defaults()
	cfg.TLSDir = t.TempDir()
	if _, err := serverTLS(cfg); err == nil || !strings.Contains(err.Error(), "cert.pem and key.pem, tls.crt and tls.key, fullchain.pem and privkey.pem") {
		t.Fatalf("empty tls_dir: %v", err)
	}
	cfg.TLSDir, cfg.TLSCert, cfg.TLSKey = t.TempDir(), "c.pem", "k.pem"
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "tls_dir") {
		t.Fatalf("tls_dir with tls_cert: %v", err)
	}
}
