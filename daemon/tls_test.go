package daemon

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/config"
	"opsassist/internal/testkit"
)

// TestTLSDir: tls_dir finds the certificate and key in each usual layout
// and says which names it looked for when none is there.
func TestTLSDir(t *testing.T) {
	for _, layout := range tlsDirLayouts {
		dir := t.TempDir()
		cert, key := testkit.WriteSelfSigned(t, t.TempDir())
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

// TestLocalClientTLS: the certificate hash the daemon records reaches a
// daemon on 127.0.0.1 presenting that certificate, and refuses one
// presenting another; a malformed hash is an error.
func TestLocalClientTLS(t *testing.T) {
	if tc, err := LocalClientTLS("abcd"); tc != nil || err == nil {
		t.Fatalf("a short hash: %v %v, want an error", tc, err)
	}
	cfg := config.Defaults()
	cfg.TLSCert, cfg.TLSKey = testkit.WriteSelfSigned(t, t.TempDir())
	other := cfg
	other.TLSCert, other.TLSKey = testkit.WriteSelfSigned(t, t.TempDir())
	sc, err := serverTLS(cfg)
	if err != nil {
		t.Fatal(err)
	}
	client, err := LocalClientTLS(certSHA256(sc))
	if err != nil || client == nil {
		t.Fatalf("LocalClientTLS: %v", err)
	}
	for _, c := range []struct {
		server config.Config
		ok     bool
	}{{cfg, true}, {other, false}} {
		sc, err := serverTLS(c.server)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := tls.Listen("tcp", "127.0.0.1:0", sc)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			if c, err := ln.Accept(); err == nil {
				c.(*tls.Conn).Handshake()
				c.Close()
			}
		}()
		conn, err := tls.Dial("tcp", ln.Addr().String(), client)
		if err == nil {
			conn.Close()
		}
		ln.Close()
		if (err == nil) != c.ok {
			t.Fatalf("server %s: dial error %v, want ok %v", c.server.TLSCert, err, c.ok)
		}
	}
}
