//go:build unix

package e2e

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"opsassist/client"
	"opsassist/config"
	"opsassist/storage/embed"
	"opsassist/storage/index"
)

// gateIndex makes data/index/snapshot a named pipe that yields the
// snapshot of an index holding one document, and returns a function that
// feeds it (once; later calls do nothing). Until then the daemon's index
// is stuck loading, however long that takes.
func gateIndex(t *testing.T, data string) (release func()) {
	t.Helper()
	emb, err := embed.New(config.Defaults().Search.EmbedConfig(os.LookupEnv))
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	x, err := index.Open(src, index.Config{Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	vec, _ := emb.Embed(context.Background(), []string{"restore the nightly database backup from object storage"})
	err = x.Put(context.Background(), index.File{ID: "old", Name: "restore.md", Path: "/old/restore.md", Scope: index.ScopeSystem,
		Chunks: []index.Chunk{{Text: "restore the nightly database backup from object storage", Position: "line 1-1", Embedding: vec[0]}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Snapshot(); err != nil {
		t.Fatal(err)
	}
	x.Close()
	b, err := os.ReadFile(filepath.Join(src, "snapshot"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(data, "index"), 0o700)
	fifo := filepath.Join(data, "index", "snapshot")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer w.Close()
			w.Write(b)
		})
	}
}

// TestServesWhileIndexLoads: the daemon starts and serves NPLT and HTTP
// while its index is still loading; semantic_search answers, in the
// user's language, that the index is loading; once it has loaded,
// search works as usual.
func TestServesWhileIndexLoads(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	release := gateIndex(t, data)
	a := startApp(t, data) // returns although the index cannot load yet
	defer stop(t, a)
	defer release() // before stop: Close waits for the load
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if got, _ := chatOnce(ctx, t, conn, "如何配置数据库？"); !strings.Contains(got, "搜索索引正在加载") {
		t.Fatalf("zh search while loading: %q", got)
	}
	if got, _ := chatOnce(ctx, t, conn, "How do I configure the database?"); !strings.Contains(got, "still loading") || strings.Contains(got, "正在加载") {
		t.Fatalf("en search while loading: %q", got)
	}
	res, err := http.Get("http://" + a.HTTPAddr().String() + "/api/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"index":"loading`) {
		t.Fatalf("health while loading: %d %s", res.StatusCode, body)
	}
	release()
	if err := a.Index().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := chatOnce(ctx, t, conn, "如何配置数据库？"); strings.Contains(got, "正在加载") {
		t.Fatalf("search after loading: %q", got)
	}
}
