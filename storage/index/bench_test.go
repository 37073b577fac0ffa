package index

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"opsassist/storage/embed"
)

// benchWords is the vocabulary of synthetic chunks: ops words in English
// and Chinese, so tokenisation and hashing see both scripts.
var benchWords = strings.Fields(`server database port config backup restore nginx redis kafka disk memory cpu
alert certificate renew rotate log error warning timeout latency deploy rollback cluster node replica shard
index query cache proxy firewall ssh key user group cron job queue retry health check upstream tls dns
数据库 端口 配置 备份 恢复 日志 告警 证书 磁盘 内存 服务器 集群 节点 部署 回滚 监控 阈值 防火墙 超时 延迟`)

// benchChunk returns about 500 runes of synthetic text.
func benchChunk(r *rand.Rand) string {
	var b strings.Builder
	for b.Len() < 900 {
		b.WriteString(benchWords[r.IntN(len(benchWords))])
		if r.IntN(8) == 0 {
			fmt.Fprintf(&b, " %d", r.IntN(65536))
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// buildBench fills an index with n chunks in files of 20 chunks and
// returns it with the raw size of its vectors and texts.
func buildBench(b *testing.B, dir string, n int) (*Index, int64) {
	b.Helper()
	ctx := context.Background()
	e := embed.NewBuiltin(embed.DefaultDim)
	x, err := Open(dir, Config{Embedder: e, CompactAfter: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var raw int64
	for i := 0; i < n; i += 20 {
		f := File{ID: fmt.Sprintf("f%06d", i), Name: fmt.Sprintf("doc-%06d.md", i), Path: fmt.Sprintf("/docs/doc-%06d.md", i), Scope: ScopeSystem}
		texts := make([]string, min(20, n-i))
		for j := range texts {
			texts[j] = benchChunk(r)
		}
		vecs, _ := e.Embed(ctx, texts)
		for j, t := range texts {
			f.Chunks = append(f.Chunks, Chunk{Text: t, Position: "line 1-10", Embedding: vecs[j]})
			raw += int64(len(t)) + int64(4*len(vecs[j]))
		}
		if err := x.Put(ctx, f); err != nil {
			b.Fatal(err)
		}
	}
	return x, raw
}

// BenchmarkQuery measures hybrid query latency at 1k, 10k and 100k chunks
// of 768 dimensions, reporting p50 and p99 in milliseconds.
func BenchmarkQuery(b *testing.B) {
	queries := []string{"数据库 备份 恢复", "nginx upstream timeout", "证书 续期", "disk memory alert 阈值", "config.yaml", "kafka replica shard"}
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("chunks=%d", n), func(b *testing.B) {
			x, _ := buildBench(b, b.TempDir(), n)
			defer x.Close()
			ctx := context.Background()
			var lat []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := x.Search(ctx, Query{Text: queries[i%len(queries)], Scope: QuerySystem, TopK: 3}); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(lat)
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
			b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*99/100)]), "p99-ms")
		})
	}
}

// BenchmarkOpen measures start-up (loading the snapshot of 10k and 100k
// chunks) and the heap it takes, as a multiple of the raw vectors and
// texts.
func BenchmarkOpen(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("chunks=%d", n), func(b *testing.B) { benchOpen(b, n) })
	}
}

func benchOpen(b *testing.B, n int) {
	dir := b.TempDir()
	x, raw := buildBench(b, dir, n)
	if err := x.Snapshot(); err != nil {
		b.Fatal(err)
	}
	x.Close()
	x = nil
	e := embed.NewBuiltin(embed.DefaultDim)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		debug.FreeOSMemory()
		rssBefore, _ := residentBytes()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		y, err := Open(dir, Config{Embedder: e})
		if err != nil {
			b.Fatal(err)
		}
		open := time.Since(t0)
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(open.Seconds(), "open-s")
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(raw), "heap/raw")
		debug.FreeOSMemory()
		if rss, ok := residentBytes(); ok {
			// Resident memory the open index added, after returning free
			// memory to the OS.
			b.ReportMetric(float64(rss-rssBefore)/float64(raw), "rss/raw")
		}
		b.ReportMetric(float64(raw)/(1<<20), "raw-MiB")
		runtime.KeepAlive(y)
		y.Close()
	}
}

// residentBytes reads the process's resident set size (Linux only).
func residentBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			f := bytes.Fields(rest)
			if len(f) == 2 {
				kb, err := strconv.ParseInt(string(f[0]), 10, 64)
				return kb << 10, err == nil
			}
		}
	}
	return 0, false
}
