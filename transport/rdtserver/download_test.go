package rdtserver

import (
	"testing"
	"time"

	"opsassist/rdt"
)

// TestDownloadSizesLoopback moves 0 B, 1 B, an exact multiple of the
// payload, one byte more, and 8 MiB over loopback without impairment.
func TestDownloadSizesLoopback(t *testing.T) {
	e := newEnv(t, ServerConfig{})
	for _, size := range []int{0, 1, 4 * rdt.DefaultPayload, 4*rdt.DefaultPayload + 1, 8 << 20} {
		_, tok, data := e.file("f", size, uint64(size))
		st := e.download(testCtx(t, 30*time.Second), rdt.ClientConfig{Token: tok.ID, SHA256: tok.SHA256}, data)
		srv := e.waitTransfer()
		if srv.Err != nil {
			t.Errorf("size %d: server: %v", size, srv.Err)
		}
		t.Logf("size %d: %v, client %+v, server sent %d packets, %d retransmits, %d spurious", size, st.Duration, st, srv.PacketsSent, srv.Retransmits, srv.Spurious)
	}
}
