package web

import (
	"bufio"
	"crypto/rand"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/internal/testkit"
)

// BenchmarkFirstSSEEvent measures the time from sending POST /api/chat to
// reading the first SSE event (stream_start), over loopback TCP with a
// scripted agent. first-event-µs is that latency; ns/op is the whole
// turn.
func BenchmarkFirstSSEEvent(b *testing.B) {
	e := newEnv(b, testkit.Scripted{})
	client := e.ts.Client()
	var first time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		res, err := client.Post(e.ts.URL+"/api/chat", "application/json", strings.NewReader(`{"message":"CPU?"}`))
		if err != nil {
			b.Fatal(err)
		}
		br := bufio.NewReader(res.Body)
		line, err := br.ReadString('\n')
		if err != nil || line != "event: stream_start\n" {
			b.Fatalf("first line %q %v", line, err)
		}
		first += time.Since(start)
		io.Copy(io.Discard, br)
		res.Body.Close()
	}
	b.ReportMetric(float64(first.Microseconds())/float64(b.N), "first-event-µs")
}

// BenchmarkDownloadVsFileServer downloads one 64 MiB file alternately
// through GET /api/files/download/{token} (the whole handler stack) and
// through a plain http.FileServer of the same directory, over loopback
// TCP, and reports both throughputs and their ratio (target ≥ 0.95).
func BenchmarkDownloadVsFileServer(b *testing.B) {
	const size = 64 << 20
	e := newEnv(b, testkit.Scripted{})
	data := make([]byte, size)
	rand.Read(data)
	tok := e.offer(b, "big.bin", data)
	fs := httptest.NewServer(http.FileServer(http.Dir(filepath.Dir(tok.Path))))
	defer fs.Close()
	get := func(url string) time.Duration {
		start := time.Now()
		res, err := http.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if err != nil || n != size || res.StatusCode != 200 {
			b.Fatalf("got %d bytes, status %d: %v", n, res.StatusCode, err)
		}
		return time.Since(start)
	}
	ours, plain := e.ts.URL+"/api/files/download/"+tok.ID, fs.URL+"/big.bin"
	get(ours) // warm the page cache and the connections
	get(plain)
	var tOurs, tPlain time.Duration
	b.SetBytes(2 * size)
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			tOurs += get(ours)
			tPlain += get(plain)
		} else {
			tPlain += get(plain)
			tOurs += get(ours)
		}
	}
	mbps := func(d time.Duration) float64 { return float64(size) * float64(b.N) / d.Seconds() / (1 << 20) }
	b.ReportMetric(mbps(tOurs), "token-MiB/s")
	b.ReportMetric(mbps(tPlain), "fileserver-MiB/s")
	b.ReportMetric(tPlain.Seconds()/tOurs.Seconds(), "ratio")
	_ = os.Remove(tok.Path)
}
