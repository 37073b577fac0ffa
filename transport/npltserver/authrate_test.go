package npltserver

import (
	"encoding/json"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
)

// TestNPLTAuthFailureRate is the measured harness behind
// docs/benchmarks.md "NPLT authentication failures": for the duration in
// OPSASSIST_AUTHBENCH (e.g. 60s; skipped when unset) eight goroutines on
// one address open connections and send HELLO with a wrong token as fast
// as the server answers. It reports how many guesses the server actually
// checked (answered unauthorized) per minute, and how many attempts were
// turned away unchecked (too_many_attempts, or closed). It uses only the
// server's public behaviour, so it runs unchanged against older code.
func TestNPLTAuthFailureRate(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("OPSASSIST_AUTHBENCH"))
	if err != nil {
		t.Skip("set OPSASSIST_AUTHBENCH=60s to measure")
	}
	ts := startServer(t, "", func(c *Config, _ *chat.Config) { c.AuthToken = "correct-horse-battery-staple" })
	hello, _ := json.Marshal(nplt.HelloPayload{Client: "bench", ClientType: "cli", Token: "wrong-guess"})
	var checked, refused, other atomic.Int64
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				nc, err := net.Dial("tcp", ts.addr)
				if err != nil {
					other.Add(1)
					continue
				}
				nc.SetDeadline(time.Now().Add(30 * time.Second))
				w := nplt.NewWriter(nc)
				w.WriteFrame(nplt.Hello, hello)
				w.Flush()
				r := nplt.NewReader(nc)
				code := ""
				for code == "" {
					f, err := r.ReadFrame()
					if err != nil {
						break
					}
					if f.Type == nplt.Error {
						var e nplt.ErrorPayload
						json.Unmarshal(f.Payload, &e)
						code = e.Code
					}
				}
				nc.Close()
				switch code {
				case api.CodeUnauthorized:
					checked.Add(1)
				case "too_many_attempts":
					refused.Add(1)
				default:
					other.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	perMin := float64(checked.Load()) * float64(time.Minute) / float64(d)
	t.Logf("duration %v: %d guesses checked (%.0f per minute), %d refused unchecked, %d other (closed without a code)",
		d, checked.Load(), perMin, refused.Load(), other.Load())
}
