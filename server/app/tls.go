package app

import (
	"crypto/tls"
	"fmt"
	"net"

	"opsassist/server/config"
)

// serverTLS loads the certificate and key the configuration names, or
// returns nil when TLS is off.
func serverTLS(cfg config.Config) (*tls.Config, error) {
	if cfg.TLSCert == "" && cfg.TLSKey == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("tls: loading tls_cert and tls_key: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
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
