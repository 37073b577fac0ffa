package daemon

import (
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
