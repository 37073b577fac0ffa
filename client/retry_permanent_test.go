package client

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"syscall"
	"testing"

	"opsassist/api"
)

// TestPermanentDialErrors: a reconnect does not retry what another try
// cannot mend — an untrusted certificate among them — and retries what
// it can (the server not up yet).
func TestPermanentDialErrors(t *testing.T) {
	cert := &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}
	for err, want := range map[error]bool{
		fmt.Errorf("client: dial x: %w", cert):                             true,
		fmt.Errorf("client: %w", &ServerError{Code: api.CodeUnauthorized}): true,
		fmt.Errorf("client: %w", ErrUnknownSession):                        true,
		fmt.Errorf("client: dial x: %w", syscall.ECONNREFUSED):             false,
		fmt.Errorf("client: %w", &ServerError{Code: api.CodeServerBusy}):   false,
	} {
		if got := permanent(context.Background(), err); got != want {
			t.Errorf("permanent(%v) = %v, want %v", err, got, want)
		}
	}
}
