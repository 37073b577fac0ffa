package daemon

import (
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"opsassist/config"
)

// serverTLS loads the certificate and key the configuration names
// (tls_cert and tls_key, or tls_dir), or returns nil when TLS is off.
func serverTLS(cfg config.Config) (*tls.Config, error) {
	certFile, keyFile, what := cfg.TLSCert, cfg.TLSKey, "tls_cert and tls_key"
	if cfg.TLSDir != "" {
		var err error
		if certFile, keyFile, err = tlsDirFiles(cfg.TLSDir); err != nil {
			return nil, err
		}
		what = "tls_dir " + cfg.TLSDir
	}
	if certFile == "" && keyFile == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("tls: loading %s: %w", what, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// certSHA256 is the SHA-256 of tc's certificate (DER) in hex, as the
// data directory's record names it.
func certSHA256(tc *tls.Config) string {
	h := sha256.Sum256(tc.Certificates[0].Certificate[0])
	return hex.EncodeToString(h[:])
}

// LocalClientTLS returns the TLS configuration with which a process on
// this machine (opsassistd mcp-stdio) reaches the daemon whose data
// directory's record names the certificate certSHA256 (SHA-256 of its
// DER, hex). It trusts exactly that certificate, whatever names it
// carries: the local client dials a loopback address, which the
// certificate need not name.
func LocalClientTLS(certSHA256 string) (*tls.Config, error) {
	want, err := hex.DecodeString(certSHA256)
	if err != nil || len(want) != sha256.Size {
		return nil, fmt.Errorf("tls: the daemon's recorded certificate hash %q is not 64 hex digits", certSHA256)
	}
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		// Verified by VerifyConnection instead: the peer must present
		// the recorded certificate itself.
		InsecureSkipVerify: true,
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("tls: the server presented no certificate")
			}
			got := sha256.Sum256(cs.PeerCertificates[0].Raw)
			if subtle.ConstantTimeCompare(got[:], want) != 1 {
				return errors.New("tls: the server's certificate is not the one the daemon recorded in its data directory")
			}
			return nil
		},
	}, nil
}

// tlsDirLayouts are the file names tls_dir is searched for, in order.
var tlsDirLayouts = [][2]string{
	{"cert.pem", "key.pem"},
	{"tls.crt", "tls.key"},
	{"fullchain.pem", "privkey.pem"},
}

// tlsDirFiles returns the certificate and key files of the first layout
// present in dir.
func tlsDirFiles(dir string) (cert, key string, err error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return "", "", fmt.Errorf("tls: tls_dir: %w", err)
	}
	if !fi.IsDir() {
		return "", "", fmt.Errorf("tls: tls_dir %s is not a directory", dir)
	}
	var tried []string
	for _, l := range tlsDirLayouts {
		c, k := filepath.Join(dir, l[0]), filepath.Join(dir, l[1])
		if fileExists(c) && fileExists(k) {
			return c, k, nil
		}
		tried = append(tried, l[0]+" and "+l[1])
	}
	return "", "", fmt.Errorf("tls: tls_dir %s holds none of %s", dir, strings.Join(tried, ", "))
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// withTLS wraps ln so it accepts only TLS connections when tc is set. The
// handshake runs on the connection's first read or write, so it falls
// under each server's own deadlines (NPLT's hello_timeout, HTTP's
// header timeout) and never blocks Accept.
func withTLS(ln net.Listener, tc *tls.Config) net.Listener {
	if tc == nil {
		return ln
	}
	return tls.NewListener(ln, tc)
}
