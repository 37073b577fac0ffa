package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"strconv"
)

// Environment variables for TLS, read like the flags of the same name.
const (
	EnvTLS      = "OPSASSIST_TLS"
	EnvTLSCA    = "OPSASSIST_TLS_CA"
	EnvInsecure = "OPSASSIST_INSECURE"
)

// tlsSettings are the command line's TLS flags.
type tlsSettings struct {
	on       bool   // --tls
	ca       string // --tls-ca FILE: trust this CA (or self-signed certificate)
	insecure bool   // --insecure: skip verification
}

// config returns the TLS configuration the flags ask for, or nil for
// plain TCP. --tls-ca and --insecure imply --tls.
func (t tlsSettings) config() (*tls.Config, error) {
	if !t.on && t.ca == "" && !t.insecure {
		return nil, nil
	}
	conf := &tls.Config{MinVersion: tls.VersionTLS12}
	if t.insecure {
		conf.InsecureSkipVerify = true // the user asked for it: self-signed, unverified
		return conf, nil
	}
	if t.ca != "" {
		pem, err := os.ReadFile(t.ca)
		if err != nil {
			return nil, fmt.Errorf("--tls-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--tls-ca: no PEM certificate in %s", t.ca)
		}
		conf.RootCAs = pool
	}
	return conf, nil
}

// envBool reads a boolean environment variable; anything unparsable is
// false.
func envBool(v string) bool {
	b, err := strconv.ParseBool(v)
	return err == nil && b
}

// failingDial is a dial function that reports err: how a TLS setting
// that cannot be loaded reaches the user, through the usual dial error.
func failingDial(err error) func(context.Context, string, string) (net.Conn, error) {
	return func(context.Context, string, string) (net.Conn, error) { return nil, err }
}
