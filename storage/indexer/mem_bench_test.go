package indexer

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"opsassist/storage/embed"
	"opsassist/storage/index"
)

// memBenchMB is the text ingested per run of BenchmarkIndexMemory, in MiB;
// OPSASSIST_BENCH_MB overrides it.
const memBenchMB = 8

// memBenchFile is the size of each file the benchmark indexes.
const memBenchFile = 256 << 10

// BenchmarkIndexMemory indexes memBenchMB MiB of text through the real
// indexer and index (builtin embedder, default chunking) and reports the
// resident memory the index added per MiB of text ("MB/MB"), measured
// from VmRSS after a GC and debug.FreeOSMemory, and the live heap per
// MiB ("heapMB/MB"). Two kinds of text: ordinary zh/en ops documents
// (testdata/evals/corpus, lines shuffled with fresh numbers) and random
// words (every few words new to the vocabulary).
func BenchmarkIndexMemory(b *testing.B) {
	mb := memBenchMB
	if s := os.Getenv("OPSASSIST_BENCH_MB"); s != "" {
		mb, _ = strconv.Atoi(s)
	}
	for _, kind := range []string{"ops", "random"} {
		b.Run("text="+kind, func(b *testing.B) {
			dir := b.TempDir()
			files := writeBenchText(b, dir, kind, mb<<20)
			for b.Loop() {
				benchIndexMemory(b, files, mb)
			}
		})
	}
}

func benchIndexMemory(b *testing.B, files []string, mb int) {
	ctx := context.Background()
	e := embed.NewBuiltin(0)
	runtime.GC()
	debug.FreeOSMemory()
	rss0 := residentBytes(b)
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	x, err := index.Open(b.TempDir(), index.Config{Embedder: e})
	if err != nil {
		b.Fatal(err)
	}
	ix, err := New(Config{Index: x, Embedder: e})
	if err != nil {
		b.Fatal(err)
	}
	for i, p := range files {
		src := Source{ID: fmt.Sprintf("f%05d", i), Name: filepath.Base(p), Path: p, Scope: index.ScopeUploads, ConversationID: "bench"}
		if _, err := ix.IndexFile(ctx, src); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	debug.FreeOSMemory()
	rss1 := residentBytes(b)
	var ms1 runtime.MemStats
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(rss1-rss0)/float64(int64(mb)<<20), "MB/MB")
	b.ReportMetric((float64(ms1.HeapAlloc)-float64(ms0.HeapAlloc))/float64(int64(mb)<<20), "heapMB/MB")
	b.ReportMetric(float64(x.Stats().Chunks)/float64(mb), "chunks/MB")
	runtime.KeepAlive(ix)
	if err := x.Close(); err != nil {
		b.Fatal(err)
	}
}

// writeBenchText writes about n bytes of text of a kind into files under
// dir and returns their paths.
func writeBenchText(b testing.TB, dir, kind string, n int) []string {
	b.Helper()
	r := rand.New(rand.NewPCG(7, 11))
	var lines []string
	if kind == "ops" {
		ents, err := os.ReadDir("../../testdata/evals/corpus")
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range ents {
			data, err := os.ReadFile(filepath.Join("../../testdata/evals/corpus", e.Name()))
			if err != nil {
				b.Fatal(err)
			}
			for _, l := range strings.Split(string(data), "\n") {
				if strings.TrimSpace(l) != "" && !bytes.ContainsRune([]byte(l), 0) {
					lines = append(lines, l)
				}
			}
		}
	}
	var paths []string
	for i := 0; n > 0; i++ {
		var buf strings.Builder
		for buf.Len() < min(memBenchFile, n) {
			if kind == "ops" {
				l := lines[r.IntN(len(lines))]
				buf.WriteString(l)
				fmt.Fprintf(&buf, " #%d\n", r.IntN(1_000_000))
				continue
			}
			for w := 0; w < 12; w++ {
				buf.WriteString(randomWord(r))
				buf.WriteByte(' ')
			}
			buf.WriteByte('\n')
		}
		p := filepath.Join(dir, fmt.Sprintf("doc-%04d.txt", i))
		if err := os.WriteFile(p, []byte(buf.String()), 0o600); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, p)
		n -= buf.Len()
	}
	return paths
}

// randomWord returns 3 to 10 random lower-case letters.
func randomWord(r *rand.Rand) string {
	w := make([]byte, 3+r.IntN(8))
	for i := range w {
		w[i] = byte('a' + r.IntN(26))
	}
	return string(w)
}

// residentBytes reads VmRSS from /proc/self/status.
func residentBytes(b testing.TB) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			if f := bytes.Fields(rest); len(f) == 2 {
				kb, err := strconv.ParseInt(string(f[0]), 10, 64)
				if err == nil {
					return kb << 10
				}
			}
		}
	}
	b.Skip("no VmRSS")
	return 0
}

// TestMemoryPerMBOfText indexes 2 MiB of each kind of text and bounds the
// live heap the index keeps per MiB of text at 10 MiB (it was 10 for ops
// text and 22 for random words before vectors were quantised and BM25
// terms hashed). The benchmark above measures resident memory.
func TestMemoryPerMBOfText(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes 4 MiB")
	}
	for _, kind := range []string{"ops", "random"} {
		t.Run(kind, func(t *testing.T) {
			const size = 2 << 20
			files := writeBenchText(t, t.TempDir(), kind, size)
			ctx := context.Background()
			e := embed.NewBuiltin(0)
			x, err := index.Open(t.TempDir(), index.Config{Embedder: e})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			ix, err := New(Config{Index: x, Embedder: e})
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i, p := range files {
				src := Source{ID: fmt.Sprintf("f%05d", i), Name: filepath.Base(p), Path: p, Scope: index.ScopeUploads, ConversationID: "c"}
				if _, err := ix.IndexFile(ctx, src); err != nil {
					t.Fatal(err)
				}
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			perMB := (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / size
			t.Logf("%s: %.2f MiB of heap per MiB of text", kind, perMB)
			if perMB > 10 {
				t.Errorf("%s text: %.1f MiB of heap per MiB indexed, want at most 10", kind, perMB)
			}
		})
	}
}
