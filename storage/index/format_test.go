package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"opsassist/storage/embed"
)

// TestReadsFloat32Records opens an index whose snapshot and log hold puts
// in the format written before vectors were quantised (opPut, float32
// vectors): every file is loaded and found, and the next snapshot
// rewrites them in the current format.
func TestReadsFloat32Records(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := embed.NewBuiltin(testDim)
	old := func(kind byte, gen uint64, files ...File) []byte {
		x := &Index{cfg: Config{Embedder: e}}
		b := appendHeader(nil, x.header(kind, gen))
		for _, f := range files {
			b = appendFrame(b, appendRecord(nil, record{op: opPut, file: f}))
		}
		return b
	}
	snap := old(kindSnapshot, 1, makeFile(t, e, "a", "nginx.conf", ScopeSystem, "", "upstream api keepalive 32", "worker_processes auto"))
	snap = appendFrame(snap, nil) // end marker
	wal := old(kindLog, 1, makeFile(t, e, "b", "backup.md", ScopeUploads, "c1", "数据库 每天 凌晨 备份 到 对象存储"))
	if err := os.WriteFile(filepath.Join(dir, snapshotName), snap, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, logName(1)), wal, 0o600); err != nil {
		t.Fatal(err)
	}
	check := func(x *Index) {
		t.Helper()
		if st := x.Stats(); st.Files != 2 || st.Chunks != 3 {
			t.Fatalf("stats %+v, want 2 files, 3 chunks", st)
		}
		for q, want := range map[string]string{"upstream keepalive": "nginx.conf", "数据库 备份": "backup.md"} {
			hits, err := x.Search(ctx, Query{Text: q, ConversationID: "c1"})
			if err != nil || len(hits) == 0 || hits[0].File.Name != want {
				t.Fatalf("%q: %+v (%v), want %s first", q, hits, err, want)
			}
			if hits[0].Similarity <= 0 || hits[0].Chunk == "" {
				t.Fatalf("%q: hit without similarity or chunk: %+v", q, hits[0])
			}
		}
	}
	x, err := Open(dir, Config{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	check(x)
	if err := x.Snapshot(); err != nil {
		t.Fatal(err)
	}
	x.Close()
	x = openTest(t, dir, Config{Embedder: e})
	check(x)
}
