package npltserver

import (
	"crypto/rand"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"go.uber.org/zap"

	"opsassist/chat"
	"opsassist/nplt"
)

const benchUploadSize = 32 << 20

// benchData is the payload every upload benchmark sends.
func benchData(b *testing.B) []byte {
	data := make([]byte, benchUploadSize)
	rand.Read(data)
	return data
}

// quiet silences the server's logs in benchmarks.
func quiet(c *Config, cc *chat.Config) { c.Logger = zap.NewNop(); cc.Logger = zap.NewNop() }

// uploadOnce sends data as an NPLT upload and waits for the confirmation.
func uploadOnce(b *testing.B, c *client, data []byte) {
	c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "bench.bin", Size: int64(len(data))})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for off := 0; off < len(data); off += nplt.MaxPayload {
			c.w.WriteFrame(nplt.FileData, data[off:min(off+nplt.MaxPayload, len(data))])
		}
		c.w.Flush()
	}()
	if code := errorCode(b, c.reply()); code != "" {
		b.Fatal(code)
	}
	<-done
}

// rawServer is the baseline: a TCP server that io.Copies each connection
// into a new file, fsyncs it and closes, the disk work an upload does
// without framing, hashing or bookkeeping.
func rawServer(b *testing.B, dir string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ln.Close() })
	go func() {
		for i := 0; ; i++ {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			f, err := os.Create(filepath.Join(dir, "raw.bin"))
			if err == nil {
				io.Copy(f, nc)
				f.Sync()
				f.Close()
				os.Remove(f.Name())
			}
			nc.Write([]byte{1}) // ack
			nc.Close()
		}
	}()
	return ln.Addr().String()
}

func rawUploadOnce(b *testing.B, addr string, data []byte) {
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	if _, err := nc.Write(data); err != nil {
		b.Fatal(err)
	}
	nc.(*net.TCPConn).CloseWrite()
	if _, err := io.ReadFull(nc, make([]byte, 1)); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkUpload measures upload throughput over loopback: NPLT uploads
// (framing, SHA-256, temp file, fsync, rename, history record) and the raw
// TCP io.Copy baseline, in the same run.
func BenchmarkUpload(b *testing.B) {
	data := benchData(b)
	b.Run("nplt", func(b *testing.B) {
		ts := startServer(b, "", quiet)
		c := dial(b, ts.addr, true)
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			uploadOnce(b, c, data)
			b.StopTimer()
			removeUploads(b, ts.dataDir)
			b.StartTimer()
		}
	})
	b.Run("raw-tcp-iocopy", func(b *testing.B) {
		addr := rawServer(b, b.TempDir())
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			rawUploadOnce(b, addr, data)
		}
	})
}

// BenchmarkUploadRatio alternates NPLT and raw uploads and reports NPLT
// throughput as a fraction of raw (target ≥ 0.8), so machine noise hits
// both sides alike.
func BenchmarkUploadRatio(b *testing.B) {
	data := benchData(b)
	ts := startServer(b, "", quiet)
	c := dial(b, ts.addr, true)
	addr := rawServer(b, b.TempDir())
	var tn, tr time.Duration
	for b.Loop() {
		start := time.Now()
		uploadOnce(b, c, data)
		tn += time.Since(start)
		removeUploads(b, ts.dataDir) // both sides start each round with the same disk state
		start = time.Now()
		rawUploadOnce(b, addr, data)
		tr += time.Since(start)
	}
	b.ReportMetric(float64(tr)/float64(tn), "nplt/raw")
	b.ReportMetric(float64(len(data))*float64(b.N)/tn.Seconds()/1e6, "nplt-MB/s")
	b.ReportMetric(float64(len(data))*float64(b.N)/tr.Seconds()/1e6, "raw-MB/s")
}

// BenchmarkIdleConnMemory opens 1,000 connections that have been greeted
// and sit idle, and reports heap plus goroutine stack per connection
// (target ≤ 64 KiB). Client-side sockets live in the same process and are
// counted too, so the figure is an upper bound for the server.
func BenchmarkIdleConnMemory(b *testing.B) {
	const n = 1000
	for b.Loop() {
		ts := startServer(b, "", func(c *Config, cc *chat.Config) { quiet(c, cc); c.MaxClients = n })
		before := memInUse()
		conns := make([]*client, 0, n)
		for range n {
			conns = append(conns, dial(b, ts.addr, false))
		}
		waitFor(b, "all connections registered", func() bool { return ts.ConnCount() == n })
		after := memInUse()
		b.ReportMetric(float64(after-before)/n, "B/conn")
		for _, c := range conns {
			c.nc.Close()
		}
		waitFor(b, "connections closed", func() bool { return ts.ConnCount() == 0 })
	}
}

func memInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}

// removeUploads deletes committed uploads, as the raw baseline deletes its
// file, so page-cache write-back does not pile up on one side.
func removeUploads(b *testing.B, dataDir string) {
	committed, _ := filepath.Glob(filepath.Join(dataDir, "uploads", "*-*"))
	for _, d := range committed {
		if err := os.RemoveAll(d); err != nil {
			b.Fatal(err)
		}
	}
}
