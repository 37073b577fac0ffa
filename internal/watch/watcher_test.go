package watch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/fsnotify/fsnotify"
	"go.uber.org/zap"
)

// wait fails unless a change is reported within a generous deadline.
func wait(t *testing.T, w *Watcher, what string) {
	t.Helper()
	select {
	case <-w.Changes():
	case <-time.After(time.Minute):
		t.Fatalf("%s: no change reported", what)
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func newWatcher(t *testing.T, files ...string) *Watcher {
	t.Helper()
	w, err := New(Config{Files: files, Debounce: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func TestWatchWriteRenameRemoveRecreate(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "opsassist.yaml")
	write(t, cfg, "a: 1\n")
	w := newWatcher(t, cfg)

	write(t, cfg, "a: 2\n")
	wait(t, w, "write")

	// An editor: write a temporary file, rename it over the original.
	tmp := filepath.Join(dir, ".opsassist.yaml.swp")
	write(t, tmp, "a: 3\n")
	if err := os.Rename(tmp, cfg); err != nil {
		t.Fatal(err)
	}
	wait(t, w, "rename over")

	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	wait(t, w, "remove")
	write(t, cfg, "a: 4\n")
	wait(t, w, "recreate")
	write(t, cfg, "a: 5\n")
	wait(t, w, "write after recreate")
}

// TestFilterIgnoresOtherFilesAndChmod feeds the filter events: another
// file's and a chmod of the watched file make no hit; the file's write
// does. The filter reads events one by one from an unbuffered channel,
// so once an event is sent the previous one has been handled.
func TestFilterIgnoresOtherFilesAndChmod(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "opsassist.yaml")
	write(t, cfg, "a: 1\n")
	evs, errs := make(chan fsnotify.Event), make(chan error)
	w := &Watcher{fs: &fsnotify.Watcher{Events: evs, Errors: errs}}
	hits := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() { defer close(done); w.filter(map[string]string{cfg: cfg}, hits, zap.NewNop()) }()
	for _, ev := range []fsnotify.Event{
		{Name: filepath.Join(dir, "other.yaml"), Op: fsnotify.Write},
		{Name: cfg, Op: fsnotify.Chmod},
		{Name: filepath.Join(t.TempDir(), "opsassist.yaml"), Op: fsnotify.Create}, // same name, another directory
		{Name: filepath.Join(dir, "other.yaml"), Op: fsnotify.Remove},
	} {
		evs <- ev
	}
	errs <- errors.New("queue overflow") // logged; handled after the events before it
	if len(hits) != 0 {
		t.Fatal("an unrelated event made a hit")
	}
	evs <- fsnotify.Event{Name: cfg, Op: fsnotify.Write | fsnotify.Chmod}
	<-hits
	close(evs)
	<-done
}

// TestWatchConfigMapSwap: Kubernetes mounts a ConfigMap as
// dir/config.yaml → ..data/config.yaml, ..data → ..2026_1; an update
// writes ..2026_2 and renames a new ..data link over the old one.
func TestWatchConfigMapSwap(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []string{"..2026_1", "..2026_2"} {
		if err := os.Mkdir(filepath.Join(dir, v), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, v, "config.yaml"), v)
	}
	if err := os.Symlink("..2026_1", filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.Symlink(filepath.Join("..data", "config.yaml"), cfg); err != nil {
		t.Fatal(err)
	}
	w := newWatcher(t, cfg)
	if err := os.Symlink("..2026_2", filepath.Join(dir, "..data_tmp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}
	wait(t, w, "symlink swap")
	if b, _ := os.ReadFile(cfg); string(b) != "..2026_2" {
		t.Fatalf("read %q", b)
	}
}

func TestWatchTwoFilesTwoDirectories(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "opsassist.yaml"), filepath.Join(t.TempDir(), ".mcp.json")
	w := newWatcher(t, a, b) // neither exists yet
	write(t, b, "{}")
	wait(t, w, "create the second")
	write(t, a, "x: 1")
	wait(t, w, "create the first")
}

func TestWatchNew(t *testing.T) {
	if _, err := New(Config{}); err != ErrNoFiles {
		t.Fatalf("no files: %v", err)
	}
	if _, err := New(Config{Files: []string{filepath.Join(t.TempDir(), "missing", "f")}}); err == nil {
		t.Fatal("a missing directory accepted")
	}
	w := newWatcher(t, filepath.Join(t.TempDir(), "f"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestDebounce: a burst of hits is reported once, DefaultDebounce after
// the last; hits after the report are reported again.
func TestDebounce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hits, out, done := make(chan struct{}), make(chan struct{}, 1), make(chan struct{})
		go debounce(hits, out, done, DefaultDebounce, time.After)
		defer close(done)
		start := time.Now()
		for range 5 {
			hits <- struct{}{}
			time.Sleep(DefaultDebounce / 2) // virtual time: a burst
		}
		synctest.Wait()
		if len(out) != 0 {
			t.Fatal("reported during the burst")
		}
		<-out
		if got, want := time.Since(start), 5*DefaultDebounce/2+DefaultDebounce/2; got != want {
			t.Fatalf("reported after %v, want %v", got, want)
		}
		synctest.Wait()
		if len(out) != 0 {
			t.Fatal("reported twice")
		}
		hits <- struct{}{}
		<-out
	})
}
