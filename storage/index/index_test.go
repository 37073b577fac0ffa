package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"opsassist/storage/embed"
)

// testDim keeps test vectors small; the code path is the same at 768.
const testDim = 64

func openTest(t *testing.T, dir string, cfg Config) *Index {
	t.Helper()
	if cfg.Embedder == nil {
		cfg.Embedder = embed.NewBuiltin(testDim)
	}
	x, err := Open(dir, cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// makeFile builds a file whose chunks are the given texts, embedded by e.
func makeFile(t testing.TB, e embed.Embedder, id, name, scope, conv string, texts ...string) File {
	t.Helper()
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	f := File{ID: id, Name: name, Path: "/data/" + id + "/" + name, Scope: scope, ConversationID: conv,
		SHA256: fmt.Sprintf("%064x", len(texts)), UploadedAt: time.Unix(1700000000, 0).UTC()}
	for i, s := range texts {
		f.Chunks = append(f.Chunks, Chunk{Text: s, Position: fmt.Sprintf("line %d-%d", i*10+1, i*10+10), Embedding: vecs[i]})
	}
	return f
}

func search(t *testing.T, x *Index, q Query) []Hit {
	t.Helper()
	hits, err := x.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search(%+v): %v", q, err)
	}
	return hits
}

func names(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.File.Name)
	}
	return out
}

func TestPutSearchReplaceDelete(t *testing.T) {
	ctx := context.Background()
	x := openTest(t, t.TempDir(), Config{})
	e := x.cfg.Embedder
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(x.Put(ctx, makeFile(t, e, "sys1", "backup.md", ScopeSystem, "", "# 备份\n每天凌晨两点执行数据库备份，保留 7 天。", "restore: run pg_restore from the latest dump")))
	must(x.Put(ctx, makeFile(t, e, "sys2", "tls.md", ScopeSystem, "", "TLS certificate renewal with certbot every 60 days")))
	must(x.Put(ctx, makeFile(t, e, "up1", "config.yaml", ScopeUploads, "convA", "database:\n  host: db1\n  port: 5432")))

	hits := search(t, x, Query{Text: "数据库备份", Scope: QuerySystem, TopK: 1})
	if len(hits) != 1 || hits[0].File.Name != "backup.md" {
		t.Fatalf("hits = %v", names(hits))
	}
	if hits[0].Position == "" || hits[0].Chunk == "" || hits[0].Similarity <= 0 {
		t.Fatalf("hit lacks detail: %+v", hits[0])
	}
	// Only one result per file even though backup.md has two chunks.
	hits = search(t, x, Query{Text: "backup restore 备份", Scope: QueryAll, TopK: 5})
	seen := map[string]bool{}
	for _, h := range hits {
		if seen[h.File.ID] {
			t.Fatalf("file %s returned twice: %v", h.File.ID, names(hits))
		}
		seen[h.File.ID] = true
	}
	// A full file name ranks that file first.
	hits = search(t, x, Query{Text: "下载config.yaml", ConversationID: "convA", TopK: 1})
	if len(hits) != 1 || hits[0].File.Name != "config.yaml" || !hits[0].NameMatch {
		t.Fatalf("name query: %v %+v", names(hits), hits)
	}
	// A file found by its content is no name match.
	if hits = search(t, x, Query{Text: "certbot renewal", Scope: QuerySystem, TopK: 1}); hits[0].File.Name != "tls.md" || hits[0].NameMatch {
		t.Fatalf("content query: %+v", hits[0])
	}
	// Replacing a file replaces its chunks.
	must(x.Put(ctx, makeFile(t, e, "sys1", "backup.md", ScopeSystem, "", "completely different text about nginx")))
	if fi, _ := x.Get("sys1"); fi.Chunks != 1 {
		t.Fatalf("chunks after replace = %d", fi.Chunks)
	}
	if st := x.Stats(); st.Chunks != 3 || st.Files != 3 {
		t.Fatalf("stats = %+v", st)
	}
	must(x.Delete(ctx, "sys1"))
	must(x.Delete(ctx, "sys1")) // absent: no error
	if _, ok := x.Get("sys1"); ok {
		t.Fatal("deleted file still present")
	}
	for _, h := range search(t, x, Query{Text: "nginx", TopK: 5}) {
		if h.File.ID == "sys1" {
			t.Fatal("deleted file found")
		}
	}
}

func TestScopesIsolateConversations(t *testing.T) {
	ctx := context.Background()
	x := openTest(t, t.TempDir(), Config{})
	e := x.cfg.Embedder
	for _, f := range []File{
		makeFile(t, e, "a", "app.log", ScopeUploads, "convA", "ERROR connection refused to redis:6379"),
		makeFile(t, e, "b", "app.log", ScopeUploads, "convB", "ERROR connection refused to redis:6379"),
		makeFile(t, e, "s", "redis.md", ScopeSystem, "", "redis runbook: connection refused means the server is down"),
	} {
		if err := x.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		q    Query
		want string // file ids, sorted
	}{
		{Query{Text: "redis connection refused app.log", Scope: QueryUploads, ConversationID: "convA", TopK: 5}, "a"},
		{Query{Text: "redis connection refused app.log", Scope: QueryUploads, ConversationID: "convB", TopK: 5}, "b"},
		{Query{Text: "redis connection refused app.log", Scope: QueryAll, ConversationID: "convA", TopK: 5}, "a,s"},
		{Query{Text: "redis connection refused app.log", Scope: QuerySystem, ConversationID: "convA", TopK: 5}, "s"},
		{Query{Text: "redis connection refused app.log", Scope: QueryUploads, TopK: 5}, ""},
		{Query{Text: "redis connection refused app.log", Scope: QueryAll, TopK: 5}, "s"},
	} {
		var ids []string
		for _, h := range search(t, x, tc.q) {
			ids = append(ids, h.File.ID)
		}
		sortStrings(ids)
		if got := strings.Join(ids, ","); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.q, got, tc.want)
		}
	}
	if err := x.DeleteConversation(ctx, ""); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty conversation id: %v", err)
	}
	if got := x.Conversations(); strings.Join(got, ",") != "convA,convB" {
		t.Fatalf("conversations %v", got)
	}
	if err := x.DeleteConversation(ctx, "convA"); err != nil {
		t.Fatal(err)
	}
	if n := len(x.Files(ScopeUploads, "")); n != 1 {
		t.Fatalf("uploads after deleting convA: %d", n)
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestInvalidFiles(t *testing.T) {
	ctx := context.Background()
	x := openTest(t, t.TempDir(), Config{})
	e := x.cfg.Embedder
	good := makeFile(t, e, "f", "a.txt", ScopeSystem, "", "hello world")
	for name, mutate := range map[string]func(*File){
		"no id":          func(f *File) { f.ID = "" },
		"bad scope":      func(f *File) { f.Scope = "other" },
		"upload no conv": func(f *File) { f.Scope = ScopeUploads },
		"system conv":    func(f *File) { f.ConversationID = "c" },
		"wrong dim":      func(f *File) { f.Chunks[0].Embedding = make([]float32, 3) },
		"zero vector":    func(f *File) { f.Chunks[0].Embedding = make([]float32, testDim) },
		"tiny vector": func(f *File) {
			f.Chunks[0].Embedding = make([]float32, testDim)
			f.Chunks[0].Embedding[0] = 1e-40
		},
	} {
		f := good
		f.Chunks = append([]Chunk(nil), good.Chunks...)
		mutate(&f)
		if err := x.Put(ctx, f); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	// A file with no chunks (skipped) is fine.
	if err := x.Put(ctx, File{ID: "bin", Name: "a.bin", Scope: ScopeSystem, Skipped: "binary file"}); err != nil {
		t.Fatal(err)
	}
	// It has no excerpt, but its name finds it.
	if hits := search(t, x, Query{Text: "下载 a.bin"}); len(hits) != 1 || hits[0].File.ID != "bin" || hits[0].Chunk != "" {
		t.Fatalf("skipped file by name: %+v", hits)
	}
}

func TestReopenReplaysLogAndSnapshot(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := embed.NewBuiltin(testDim)
	x, err := Open(dir, Config{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	put := func(x *Index, f File) {
		t.Helper()
		if err := x.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	put(x, makeFile(t, e, "one", "one.md", ScopeSystem, "", "alpha", "beta"))
	put(x, makeFile(t, e, "two", "two.md", ScopeSystem, "", "gamma"))
	if err := x.Snapshot(); err != nil {
		t.Fatal(err)
	}
	put(x, makeFile(t, e, "three", "three.md", ScopeUploads, "c", "delta"))
	if err := x.Delete(ctx, "one"); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if err := x.Put(ctx, makeFile(t, e, "late", "late.md", ScopeSystem, "", "x")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Put after Close: %v", err)
	}
	y := openTest(t, dir, Config{Embedder: e})
	if st := y.Stats(); st.Files != 2 || st.Chunks != 2 {
		t.Fatalf("after reopen: %+v", st)
	}
	if _, ok := y.Get("one"); ok {
		t.Fatal("deleted file came back")
	}
	if fi, ok := y.Get("three"); !ok || fi.ConversationID != "c" || fi.UploadedAt.IsZero() {
		t.Fatalf("three = %+v %v", fi, ok)
	}
	hits := search(t, y, Query{Text: "delta", ConversationID: "c", TopK: 1})
	if len(hits) != 1 || hits[0].File.ID != "three" || hits[0].Position != "line 1-10" {
		t.Fatalf("hits = %+v", hits)
	}
	// Only the snapshot and the newest log remain.
	gens, _ := y.logGens()
	if len(gens) != 1 {
		t.Fatalf("logs after snapshot: %v", gens)
	}
}

func TestTornLogTailIsCut(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := embed.NewBuiltin(testDim)
	x := seed(t, dir, e, false, makeFile(t, e, "kept", "kept.md", ScopeSystem, "", "kept text"))
	// Simulate a crash in the middle of the next record: half a frame.
	full := appendFrame(nil, appendRecord(nil, record{op: opPut, file: makeFile(t, e, "torn", "torn.md", ScopeSystem, "", "torn text")}))
	gens, _ := x.logGens()
	path := filepath.Join(dir, logName(gens[len(gens)-1]))
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(full[:len(full)/2])
	f.Close()

	y, err := Open(dir, Config{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := y.Get("torn"); ok {
		t.Fatal("torn record applied")
	}
	if _, ok := y.Get("kept"); !ok {
		t.Fatal("acknowledged record lost")
	}
	// Appending after the cut works and survives another reopen.
	if err := y.Put(ctx, makeFile(t, e, "after", "after.md", ScopeSystem, "", "after text")); err != nil {
		t.Fatal(err)
	}
	y.Close()
	z := openTest(t, dir, Config{Embedder: e})
	if st := z.Stats(); st.Files != 2 {
		t.Fatalf("files = %d, want kept and after", st.Files)
	}
}

func TestOtherEmbedderRebuilds(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := embed.NewBuiltin(testDim)
	seed(t, dir, e, true, makeFile(t, e, "f", "f.md", ScopeSystem, "", "text"))
	y := openTest(t, dir, Config{Embedder: embed.NewBuiltin(testDim * 2)})
	if st := y.Stats(); st.Files != 0 {
		t.Fatalf("index built by another embedder kept %d files", st.Files)
	}
	// New files use the new dimension.
	if err := y.Put(ctx, makeFile(t, y.cfg.Embedder, "g", "g.md", ScopeSystem, "", "text")); err != nil {
		t.Fatal(err)
	}
}

func TestCorruptSnapshotStartsEmpty(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, snapshotName), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	x := openTest(t, dir, Config{})
	if st := x.Stats(); st.Files != 0 {
		t.Fatalf("stats = %+v", st)
	}
	// The damaged file is kept for a post-mortem, never loaded again.
	if b, err := os.ReadFile(filepath.Join(dir, snapshotName+".bad")); err != nil || string(b) != "garbage" {
		t.Fatalf("snapshot not moved aside: %q %v", b, err)
	}
}

// TestUnreadableSnapshotFailsOpen: an I/O error is not corruption; Open
// fails and nothing is removed.
func TestUnreadableSnapshotFailsOpen(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, snapshotName), 0o700) // reading it fails with EISDIR
	os.WriteFile(filepath.Join(dir, logName(0)), []byte("log"), 0o600)
	if x, err := Open(dir, Config{Embedder: embed.NewBuiltin(testDim)}); err == nil {
		x.Close()
		t.Fatal("opened over an unreadable snapshot")
	}
	if _, err := os.Stat(filepath.Join(dir, logName(0))); err != nil {
		t.Fatalf("log removed: %v", err)
	}
}

// TestManyChunkIDs stores 200,000 chunks and checks none overwrote
// another.
func TestManyChunkIDs(t *testing.T) {
	ctx := context.Background()
	e := embed.NewBuiltin(8)
	x := openTest(t, t.TempDir(), Config{Embedder: e, CompactAfter: 1 << 40})
	const files, per = 2000, 100
	vec := make([]float32, 8)
	for i := range files {
		f := File{ID: fmt.Sprintf("file-%05d", i), Name: fmt.Sprintf("f%05d.txt", i), Scope: ScopeSystem}
		for j := range per {
			v := append([]float32(nil), vec...)
			v[(i+j)%8] = 1
			f.Chunks = append(f.Chunks, Chunk{Text: fmt.Sprintf("chunk %d of file %d", j, i), Embedding: v})
		}
		if err := x.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	if st := x.Stats(); st.Chunks != files*per {
		t.Fatalf("chunks = %d, want %d", st.Chunks, files*per)
	}
	x.mu.RLock()
	count := x.parts[ScopeSystem].chunks
	x.mu.RUnlock()
	if count != files*per {
		t.Fatalf("partition holds %d chunks, want %d", count, files*per)
	}
	for _, c := range []struct{ file, chunk int }{{0, 0}, {1999, 99}, {1234, 56}} {
		id := fmt.Sprintf("file-%05d", c.file)
		x.mu.RLock()
		got := x.files[id].texts[c.chunk]
		x.mu.RUnlock()
		if want := fmt.Sprintf("chunk %d of file %d", c.chunk, c.file); got != want {
			t.Fatalf("%s#%d: %q, want %q", id, c.chunk, got, want)
		}
	}
}

// TestConcurrentUse runs puts, deletes, queries and snapshots at once;
// run with -race.
func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := embed.NewBuiltin(testDim)
	x, err := Open(dir, Config{Embedder: e, CompactAfter: 32 << 10})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				id := fmt.Sprintf("w%d-%d", w, i%10)
				f := makeFile(t, e, id, id+".log", ScopeUploads, fmt.Sprintf("conv%d", w), fmt.Sprintf("worker %d line %d error disk full", w, i), "second chunk")
				if err := x.Put(ctx, f); err != nil {
					errs <- err
					return
				}
				if i%3 == 0 {
					if err := x.Delete(ctx, id); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				if _, err := x.Search(ctx, Query{Text: "disk full error", ConversationID: fmt.Sprintf("conv%d", i%3), TopK: 3}); err != nil {
					errs <- err
					return
				}
				x.Files(ScopeUploads, "")
				x.Stats()
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 5 {
			if err := x.Snapshot(); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	want := x.Stats()
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	y := openTest(t, dir, Config{Embedder: e})
	if got := y.Stats(); got.Files != want.Files || got.Chunks != want.Chunks {
		t.Fatalf("after reopen %+v, before %+v", got, want)
	}
}

// seed writes files into a new index in dir, optionally snapshots it, and
// closes it; the closed index is returned for its helpers (logGens).
func seed(t *testing.T, dir string, e embed.Embedder, snapshot bool, files ...File) *Index {
	t.Helper()
	x, err := Open(dir, Config{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := x.Put(context.Background(), f); err != nil {
			t.Fatal(err)
		}
	}
	if snapshot {
		if err := x.Snapshot(); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	return x
}

// TestSkippedFileSurvivesReopen: a file recorded without chunks (binary,
// no text, over a quota) is still known, with its reason, after the log
// is replayed and after a snapshot is loaded, so start-up does not index
// it again.
func TestSkippedFileSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := embed.NewBuiltin(testDim)
	skipped := File{ID: "bin", Name: "a.bin", Path: "/data/bin/a.bin", Scope: ScopeUploads, ConversationID: "c",
		SHA256: fmt.Sprintf("%064x", 7), Skipped: "binary file"}
	for _, snapshot := range []bool{false, true} {
		x, err := Open(dir, Config{Embedder: e})
		if err != nil {
			t.Fatal(err)
		}
		if err := x.Put(ctx, skipped); err != nil {
			t.Fatal(err)
		}
		if snapshot {
			if err := x.Snapshot(); err != nil {
				t.Fatal(err)
			}
		}
		if err := x.Close(); err != nil {
			t.Fatal(err)
		}
		y := openTest(t, dir, Config{Embedder: e})
		if fi, ok := y.Get("bin"); !ok || fi.Skipped != "binary file" || fi.Chunks != 0 {
			t.Fatalf("snapshot %v: after reopen %+v %v", snapshot, fi, ok)
		}
		y.Close()
	}
}

// TestReadersDuringRebuildingLoad: while Start loads in the background
// an index that must be rebuilt (another embedder) or moved aside,
// Get, Stats and Files may be called; with -race this proves the load
// resets the in-memory state under the lock.
func TestReadersDuringRebuildingLoad(t *testing.T) {
	e := embed.NewBuiltin(testDim)
	for _, corrupt := range []bool{false, true} {
		dir := t.TempDir()
		seed(t, dir, e, true, makeFile(t, e, "f", "f.md", ScopeSystem, "", "text"))
		cfg := Config{Embedder: embed.NewBuiltin(testDim * 2)}
		if corrupt {
			cfg.Embedder = e
			snaps, _ := filepath.Glob(filepath.Join(dir, "snapshot*"))
			for _, s := range snaps {
				os.WriteFile(s, []byte("not a snapshot"), 0o600)
			}
		}
		x, err := Start(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for !x.Loaded() {
			x.Get("f")
			x.Stats()
			x.Files(ScopeSystem, "")
		}
		if err := x.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
		x.Close()
	}
}
