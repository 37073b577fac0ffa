package indexer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"opsassist/internal/testpdf"
	"opsassist/storage/embed"
	"opsassist/storage/history"
	"opsassist/storage/index"
	"opsassist/storage/ingest"
)

func newTest(t *testing.T) (*Indexer, *index.Index) {
	t.Helper()
	e := embed.NewBuiltin(128)
	x, err := index.Open(t.TempDir(), index.Config{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	ix, err := New(Config{Index: x, Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	return ix, x
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func top(t *testing.T, x *index.Index, q index.Query) string {
	t.Helper()
	hits, err := x.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 {
		return ""
	}
	return hits[0].File.Name
}

// TestEachSupportedType indexes one file of every supported type and
// finds each by a fact it alone contains.
func TestEachSupportedType(t *testing.T) {
	ix, x := newTest(t)
	dir := t.TempDir()
	files := map[string]string{
		"notes.txt":    "the quarterly maintenance window is sunday 02:00 utc",
		"guide.md":     "# Kafka\n\n## Retention\nkafka topic retention is seven days",
		"app.yaml":     "redis:\n  host: cache01\n  port: 6380\n",
		"pkg.json":     `{"elasticsearch": {"heap": "31g", "shards": 12}}`,
		"php.ini":      "[session]\nsession.gc_maxlifetime = 1440\n",
		"cargo.toml":   "[rabbitmq]\nprefetch = 250\n",
		"haproxy.conf": "backend api\n  balance leastconn\n",
		"kern.log":     "Nov 2 kernel: Out of memory: Killed process 4242 (java)\n",
		"servers.csv":  "hostname,ip,role\nzookeeper3,10.1.2.3,coordinator\n",
		"health.go":    "package main\n\nfunc probeMemcached() error { return nil }\n",
		"report.pdf":   string(testpdf.Minimal("Postgres vacuum report")),
		"image.png":    "\x89PNG\r\n\x1a\n\x00\x00binary",
		"empty.txt":    "   \n",
	}
	for name, content := range files {
		p := write(t, dir, name, content)
		res, err := ix.IndexFile(context.Background(), Source{ID: name, Name: name, Path: p, Scope: index.ScopeSystem})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		switch name {
		case "image.png", "empty.txt":
			if res.Skipped == "" || res.Chunks != 0 {
				t.Errorf("%s: %+v, want skipped", name, res)
			}
		default:
			if res.Chunks == 0 {
				t.Errorf("%s: no chunks (%+v)", name, res)
			}
		}
	}
	for q, want := range map[string]string{
		"maintenance window":   "notes.txt",
		"kafka retention":      "guide.md",
		"redis cache01 port":   "app.yaml",
		"elasticsearch heap":   "pkg.json",
		"session lifetime":     "php.ini",
		"rabbitmq prefetch":    "cargo.toml",
		"leastconn balance":    "haproxy.conf",
		"out of memory killed": "kern.log",
		"zookeeper3 ip":        "servers.csv",
		"probe memcached":      "health.go",
		"postgres vacuum":      "report.pdf",
	} {
		if got := top(t, x, index.Query{Text: q, Scope: index.QuerySystem, TopK: 1}); got != want {
			t.Errorf("%q → %q, want %q", q, got, want)
		}
	}
	if fi, ok := x.Get("image.png"); !ok || fi.Skipped == "" {
		t.Errorf("skip reason not recorded: %+v", fi)
	}
}

func TestSyncSystemIsIncremental(t *testing.T) {
	ix, x := newTest(t)
	ctx := context.Background()
	root := t.TempDir()
	write(t, root, "README.md", "# Service\nstart with systemctl start svc")
	write(t, root, "docs/backup.md", "# 备份\n每天凌晨两点备份数据库")
	write(t, root, "docs/old.md", "obsolete page about ftp")
	write(t, root, ".git/config", "[core]")
	rep, err := ix.SyncSystem(ctx, []string{root, filepath.Join(root, "missing")})
	if err != nil {
		t.Fatal(err)
	}
	if rep != (SyncReport{Added: 3}) {
		t.Fatalf("first scan: %+v", rep)
	}
	// Unchanged: skipped. Changed: replaced. Deleted: removed.
	write(t, root, "docs/backup.md", "# 备份\n每周日全量备份，保留三十天")
	os.Remove(filepath.Join(root, "docs/old.md"))
	rep, err = ix.SyncSystem(ctx, []string{root})
	if err != nil {
		t.Fatal(err)
	}
	if rep != (SyncReport{Updated: 1, Unchanged: 1, Removed: 1}) {
		t.Fatalf("second scan: %+v", rep)
	}
	if n := len(x.Files(index.ScopeSystem, "")); n != 2 {
		t.Fatalf("system files = %d", n)
	}
	hits, _ := x.Search(ctx, index.Query{Text: "全量备份 三十天", Scope: index.QuerySystem, TopK: 1})
	if len(hits) != 1 || !strings.Contains(hits[0].Chunk, "三十天") {
		t.Fatalf("changed file not replaced: %+v", hits)
	}
	hits, _ = x.Search(ctx, index.Query{Text: "凌晨两点", Scope: index.QuerySystem, TopK: 5})
	for _, h := range hits {
		if strings.Contains(h.Chunk, "凌晨两点") {
			t.Fatal("old chunk of a changed file still indexed")
		}
	}
}

// TestSyncSystemRootsMixFilesAndDirectories: roots may name single
// files beside directories (the default doc_roots lists the user pages
// of docs/ and docs/protocol/), a page beside them that no root names is
// not indexed, and one dropped from the roots is removed at the next
// scan (a data directory indexed under the old default of all of docs/
// loses the developer notes).
func TestSyncSystemRootsMixFilesAndDirectories(t *testing.T) {
	ix, x := newTest(t)
	ctx := context.Background()
	root := t.TempDir()
	write(t, root, "README.md", "# Service\nstart it with make run")
	write(t, root, "docs/configuration.md", "# Configuration\nkeys and defaults")
	write(t, root, "docs/evals.md", "# Evals\nA new-user walk-through saw this")
	write(t, root, "docs/protocol/http.md", "# HTTP API and web client")
	all := []string{filepath.Join(root, "README.md"), filepath.Join(root, "docs")}
	if rep, err := ix.SyncSystem(ctx, all); err != nil || rep.Added != 4 {
		t.Fatalf("whole docs/: %+v, %v", rep, err)
	}
	users := []string{filepath.Join(root, "README.md"), filepath.Join(root, "docs/configuration.md"), filepath.Join(root, "docs/protocol")}
	rep, err := ix.SyncSystem(ctx, users)
	if err != nil || rep != (SyncReport{Unchanged: 3, Removed: 1}) {
		t.Fatalf("user docs: %+v, %v", rep, err)
	}
	var got []string
	for _, f := range x.Files(index.ScopeSystem, "") {
		got = append(got, f.Name)
	}
	slices.Sort(got)
	if strings.Join(got, " ") != "README.md configuration.md http.md" {
		t.Errorf("indexed %v", got)
	}
}

func TestUploadsStayInTheirConversation(t *testing.T) {
	ix, x := newTest(t)
	ctx := context.Background()
	dir := t.TempDir()
	pa := write(t, dir, "a/config.yaml", "database:\n  port: 5432\n")
	pb := write(t, dir, "b/config.yaml", "database:\n  port: 3306\n")
	ua := history.Upload{FileID: "fa", Filename: "config.yaml", FilePath: pa, UploadedAt: time.Now(), SHA256: mustHash(t, pa)}
	ub := history.Upload{FileID: "fb", Filename: "config.yaml", FilePath: pb, UploadedAt: time.Now(), SHA256: mustHash(t, pb)}
	if err := ix.IndexUpload(ctx, "convA", ua); err != nil {
		t.Fatal(err)
	}
	if err := ix.IndexUpload(ctx, "convB", ub); err != nil {
		t.Fatal(err)
	}
	if !ix.Indexed(ua) || ix.Indexed(history.Upload{FileID: "fa", SHA256: "other"}) {
		t.Fatal("Indexed")
	}
	for conv, port := range map[string]string{"convA": "5432", "convB": "3306"} {
		hits, err := x.Search(ctx, index.Query{Text: "数据库端口", Scope: index.QueryUploads, ConversationID: conv, TopK: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 1 || !strings.Contains(hits[0].Chunk, port) {
			t.Fatalf("%s: %+v", conv, hits)
		}
	}
	// Re-indexing the same upload replaces, never duplicates.
	if err := ix.IndexUpload(ctx, "convA", ua); err != nil {
		t.Fatal(err)
	}
	if fi, _ := x.Get("fa"); fi.Chunks != 1 {
		t.Fatalf("chunks = %d", fi.Chunks)
	}
	// A binary upload is recorded as skipped.
	pbin := write(t, dir, "c/blob.bin", "\x00\x01\x02")
	err := ix.IndexUpload(ctx, "convA", history.Upload{FileID: "fc", Filename: "blob.bin", FilePath: pbin, SHA256: mustHash(t, pbin)})
	if !errors.Is(err, ErrSkipped) {
		t.Fatalf("binary upload: %v", err)
	}
	if err := ix.WaitIdle(ctx, "convA"); err != nil {
		t.Fatal(err)
	}
}

func mustHash(t *testing.T, p string) string {
	s, err := hashFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMaxChunksBoundsAFile(t *testing.T) {
	e := embed.NewBuiltin(32)
	x, err := index.Open(t.TempDir(), index.Config{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	ix, _ := New(Config{Index: x, Embedder: e, MaxChunks: 3})
	p := write(t, t.TempDir(), "long.log", strings.Repeat("ERROR disk full on host-7, retrying the backup job now\n", 200))
	res, err := ix.IndexFile(context.Background(), Source{ID: "l", Name: "long.log", Path: p, Scope: index.ScopeSystem})
	if err != nil || res.Chunks != 3 {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestForgetConversation: a deleted conversation's uploads leave the
// index and are never indexed for it again.
func TestForgetConversation(t *testing.T) {
	ix, x := newTest(t)
	ctx := context.Background()
	p := write(t, t.TempDir(), "a.log", "ERROR disk full")
	u := history.Upload{FileID: "f", Filename: "a.log", FilePath: p, SHA256: mustHash(t, p)}
	if err := ix.IndexUpload(ctx, "gone", u); err != nil {
		t.Fatal(err)
	}
	if err := ix.ForgetConversation(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if len(x.Conversations()) != 0 {
		t.Fatalf("conversations %v", x.Conversations())
	}
	if err := ix.IndexUpload(ctx, "gone", u); !errors.Is(err, ErrForgotten) {
		t.Fatalf("indexing for a deleted conversation: %v", err)
	}
	if len(x.Conversations()) != 0 {
		t.Fatal("deleted conversation came back")
	}
}

// countingEmbedder counts the texts it embeds.
type countingEmbedder struct {
	embed.Embedder
	n int
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.n += len(texts)
	return c.Embedder.Embed(ctx, texts)
}

// TestUploadOverTextQuota: an upload whose text would pass the index's
// quota is kept, recorded without chunks and with the reason, and
// IndexUpload says so (ErrSkipped); it is refused before its chunks are
// embedded.
func TestUploadOverTextQuota(t *testing.T) {
	e := embed.NewBuiltin(128)
	x, err := index.Open(t.TempDir(), index.Config{Embedder: e, MaxUploadTextPerConversation: 1000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	ce := &countingEmbedder{Embedder: e}
	ix, err := New(Config{Index: x, Embedder: ce})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	small := write(t, dir, "small.log", strings.Repeat("disk full on node7\n", 20))
	big := write(t, dir, "big.log", strings.Repeat("kafka lag on broker3\n", 100))
	ctx := context.Background()
	if err := ix.IndexUpload(ctx, "c1", history.Upload{FileID: "s", Filename: "small.log", FilePath: small}); err != nil {
		t.Fatal(err)
	}
	embedded := ce.n
	err = ix.IndexUpload(ctx, "c1", history.Upload{FileID: "b", Filename: "big.log", FilePath: big})
	if !errors.Is(err, ErrSkipped) || !strings.Contains(err.Error(), "quota") {
		t.Fatalf("upload past the quota: %v", err)
	}
	if ce.n != embedded {
		t.Errorf("%d chunks of a refused file embedded", ce.n-embedded)
	}
	fi, ok := x.Get("b")
	if !ok || fi.Chunks != 0 || !strings.Contains(fi.Skipped, "indexed-text quota") {
		t.Fatalf("recorded as %+v (%v)", fi, ok)
	}
	if got := top(t, x, index.Query{Text: "disk full node7", ConversationID: "c1"}); got != "small.log" {
		t.Fatalf("search found %q", got)
	}
}

// TestCutBeforeChunking: cutting a long text after MaxChunks × size runes
// (at a line end) leaves its first MaxChunks pieces as they were.
func TestCutBeforeChunking(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "%d 行 line with some words and 数据库 text %s\n", i, strings.Repeat("x", i%90))
		if i%500 == 0 {
			b.WriteString(strings.Repeat("长", 700) + "\n") // a line longer than a chunk
		}
	}
	full := b.String()
	for _, max := range []int{1, 7, 40, 200} {
		cut, was := cutAfterRunes(full, max*ingest.DefaultChunkSize)
		if !was || !strings.HasPrefix(full, cut) || !strings.HasSuffix(cut, "\n") {
			t.Fatalf("max %d: cut %d of %d bytes (%v)", max, len(cut), len(full), was)
		}
		want := ingest.Chunk(ingest.Doc{Kind: ingest.KindText, Text: full}, 0, 0)[:max]
		got := ingest.Chunk(ingest.Doc{Kind: ingest.KindText, Text: cut}, 0, 0)
		if len(got) < max {
			t.Fatalf("max %d: %d pieces after the cut", max, len(got))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("max %d: piece %d differs:\n%+v\n%+v", max, i, got[i], want[i])
			}
		}
	}
	// One line with no end (minified JSON): what is kept stays near
	// what is indexed, and the pieces indexed are the same.
	line := strings.Repeat(`{"k":"数据库 value","n":12345},`, 20000)
	for _, max := range []int{1, 7, 40} {
		n := max * ingest.DefaultChunkSize
		cut, was := cutAfterRunes(line, n)
		if !was || !strings.HasPrefix(line, cut) || utf8.RuneCountInString(cut) > 2*n {
			t.Fatalf("one line, max %d: kept %d runes of %d (%v)", max, utf8.RuneCountInString(cut), utf8.RuneCountInString(line), was)
		}
		want := ingest.Chunk(ingest.Doc{Kind: ingest.KindText, Text: line}, 0, 0)[:max]
		got := ingest.Chunk(ingest.Doc{Kind: ingest.KindText, Text: cut}, 0, 0)
		for i := range want {
			if i >= len(got) || got[i] != want[i] {
				t.Fatalf("one line, max %d: piece %d differs", max, i)
			}
		}
	}
	if s, was := cutAfterRunes("short\n", 100); was || s != "short\n" {
		t.Fatalf("short text cut: %q %v", s, was)
	}
}

// TestLargeFileReleasesMemory: indexing a file of ReleaseAfter bytes of
// text or more hands the memory it freed back to the operating system;
// a small file does not pay for it, and a negative ReleaseAfter never.
func TestLargeFileReleasesMemory(t *testing.T) {
	dir := t.TempDir()
	small := write(t, dir, "small.txt", "disk usage alert runbook\n")
	large := write(t, dir, "large.txt", strings.Repeat("nginx upstream timed out while reading response header\n", 300))
	for _, tc := range []struct {
		releaseAfter int64
		file         string
		want         int64
	}{
		{4 << 10, small, 0},
		{4 << 10, large, 1},
		{-1, large, 0},
	} {
		ix, _ := newTest(t)
		ix.cfg.ReleaseAfter = tc.releaseAfter
		if _, err := ix.IndexFile(context.Background(), Source{ID: "f", Name: filepath.Base(tc.file), Path: tc.file, Scope: "system"}); err != nil {
			t.Fatal(err)
		}
		if got := ix.released.Load(); got != tc.want {
			t.Errorf("ReleaseAfter %d, %s: released %d times, want %d", tc.releaseAfter, filepath.Base(tc.file), got, tc.want)
		}
	}
}
