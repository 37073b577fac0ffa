package client

import (
	"context"
	"testing"

	"opsassist/internal/npltfake"
)

// dial connects a client to s and closes it when the test ends.
func dial(t *testing.T, s *npltfake.Server, opts Options) *Conn {
	t.Helper()
	ctx, cancel := testContext(t)
	defer cancel()
	c, err := Dial(ctx, s.Addr, opts)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// testContext returns a context that ends after npltfake.Timeout.
func testContext(t *testing.T) (context.Context, context.CancelFunc) {
	return context.WithTimeout(t.Context(), npltfake.Timeout)
}
