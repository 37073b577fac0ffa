package rdtserver

import (
	"fmt"
	"testing"
	"time"

	"opsassist/rdt"
)

// TestDownloadSocketFallbacks: with each fast path forced off on both
// sides (no GSO, no GRO, no batched system calls at all) downloads of
// sizes around the batch and chunk boundaries arrive intact.
func TestDownloadSocketFallbacks(t *testing.T) {
	for _, o := range []rdt.SocketOptions{{}, {NoGSO: true}, {NoGRO: true}, {NoBatch: true}} {
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) {
			e := newEnv(t, ServerConfig{Socket: o})
			for i, size := range []int{0, 1, 1200 * 32, 1<<20 + 7, 3 << 20} {
				_, tok, data := e.file(fmt.Sprint("f", i), size, uint64(i))
				e.download(testCtx(t, time.Minute), rdt.ClientConfig{Token: tok.ID, Socket: o}, data)
			}
		})
	}
}
