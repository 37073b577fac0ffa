package watch

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"go.uber.org/zap"
)

// ErrNoFiles is returned by New for a Config without files.
var ErrNoFiles = errors.New("watch: no files to watch")

// DefaultDebounce is Config.Debounce's default.
const DefaultDebounce = 200 * time.Millisecond

// Config configures a Watcher.
type Config struct {
	// Files are the paths to watch. Their directories must exist; the
	// files need not (a file created later is seen).
	Files []string
	// Debounce is how long the files must be quiet after an event
	// before the change is reported. Default DefaultDebounce.
	Debounce time.Duration
	// Logger receives the watcher's errors. Default: none.
	Logger *zap.Logger
}

// Watcher reports changes of its files on Changes until Close.
type Watcher struct {
	fs      *fsnotify.Watcher
	changes chan struct{}
	done    chan struct{}
	wg      sync.WaitGroup
	once    sync.Once
}

// New starts watching cfg.Files' directories.
func New(cfg Config) (*Watcher, error) {
	if len(cfg.Files) == 0 {
		return nil, ErrNoFiles
	}
	if cfg.Debounce <= 0 {
		cfg.Debounce = DefaultDebounce
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	files := make(map[string]string, len(cfg.Files)) // path → resolved target
	dirs := make(map[string]bool)
	for _, f := range cfg.Files {
		abs, err := filepath.Abs(f)
		if err != nil {
			fw.Close()
			return nil, fmt.Errorf("watch: %s: %w", f, err)
		}
		files[abs] = resolve(abs)
		dir := filepath.Dir(abs)
		if dirs[dir] {
			continue
		}
		if err := fw.Add(dir); err != nil {
			fw.Close()
			return nil, fmt.Errorf("watch: %s: %w", dir, err)
		}
		dirs[dir] = true
	}
	w := &Watcher{fs: fw, changes: make(chan struct{}, 1), done: make(chan struct{})}
	hits := make(chan struct{}, 1)
	w.wg.Add(2)
	go func() {
		defer w.wg.Done()
		w.filter(files, hits, cfg.Logger)
	}()
	go func() {
		defer w.wg.Done()
		debounce(hits, w.changes, w.done, cfg.Debounce, time.After)
	}()
	return w, nil
}

// Changes receives a value after the watched files changed. Changes
// not yet received are coalesced into one.
func (w *Watcher) Changes() <-chan struct{} { return w.changes }

// Close stops watching and waits for the watcher's goroutines. It may
// be called more than once.
func (w *Watcher) Close() error {
	var err error
	w.once.Do(func() {
		close(w.done)
		err = w.fs.Close()
		w.wg.Wait()
	})
	return err
}

// filter passes on, to hits, the events that concern the files: one
// naming a file, or any event in a file's directory after which the
// file resolves to another target (a symlink swapped further up, as
// Kubernetes swaps a ConfigMap's ..data link). A chmod alone is not a
// change.
func (w *Watcher) filter(files map[string]string, hits chan<- struct{}, log *zap.Logger) {
	for {
		select {
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if ev.Op == fsnotify.Chmod {
				continue
			}
			if changed(files, filepath.Clean(ev.Name)) {
				select {
				case hits <- struct{}{}:
				default: // one pending is enough
				}
			}
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			log.Warn("watching files failed", zap.Error(err))
		}
	}
}

// changed reports whether an event on name concerns one of files, and
// records the files' new targets.
func changed(files map[string]string, name string) bool {
	hit := false
	for f, target := range files {
		if filepath.Dir(f) != filepath.Dir(name) {
			continue
		}
		now := resolve(f)
		if f == name || now != target {
			hit = true
		}
		files[f] = now
	}
	return hit
}

// resolve is the file path's target through symlinks, or the path
// itself if it cannot be resolved (it does not exist yet).
func resolve(path string) string {
	r, err := filepath.EvalSymlinks(path)
	if err != nil {
		return path
	}
	return r
}

// debounce reports on out, once the hits have been quiet for d, that
// there were some; after returns the timer's channel (time.After, or a
// fake clock's in tests). It returns when done is closed.
func debounce(hits <-chan struct{}, out chan<- struct{}, done <-chan struct{}, d time.Duration, after func(time.Duration) <-chan time.Time) {
	var quiet <-chan time.Time // nil: nothing pending
	for {
		select {
		case <-done:
			return
		case <-hits:
			quiet = after(d)
		case <-quiet:
			quiet = nil
			select {
			case out <- struct{}{}:
			default: // one unreceived report is enough
			}
		}
	}
}
