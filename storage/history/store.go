package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/storage/fsutil"
)

// Errors returned by Store.
var (
	// ErrNotFound means no conversation has the given id.
	ErrNotFound = errors.New("history: conversation not found")
	// ErrAmbiguous means an id prefix matches more than one conversation.
	ErrAmbiguous = errors.New("history: ambiguous conversation id")
)

// MinPrefix is the shortest id prefix Resolve accepts: api's
// MinSessionPrefix, the one owner of that rule, which the CLI reads too.
const MinPrefix = api.MinSessionPrefix

// maxLine bounds one record line when loading; longer lines are skipped
// (and counted as damage).
const maxLine = 16 << 20

// Store holds all conversations in a directory. It is safe for concurrent
// use.
type Store struct {
	dir string
	log *zap.Logger

	mu    sync.Mutex
	convs map[string]*Conversation
	// damaged counts the lines (and files) Open skipped as unreadable.
	damaged int
}

// Open loads every conversation in dir, creating dir if needed. A nil
// logger discards logs.
func Open(dir string, log *zap.Logger) (*Store, error) {
	if log == nil {
		log = zap.NewNop()
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	s := &Store{dir: dir, log: log, convs: make(map[string]*Conversation)}
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	for _, p := range paths {
		id := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		if uuid.Validate(id) != nil {
			// Not loaded, so it may hold records nobody sees: damage.
			s.damaged++
			log.Warn("skipping history file with a foreign name", zap.String("path", p))
			continue
		}
		c, err := s.load(id, p)
		if err != nil {
			return nil, err
		}
		s.convs[id] = c
	}
	return s, nil
}

// load replays one conversation file. A torn final line is cut off so the
// next append starts on a fresh line.
func (s *Store) load(id, path string) (*Conversation, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer f.Close()
	c := &Conversation{store: s, id: id, path: path, saved: true}
	br := bufio.NewReader(f)
	var good int64 // offset just past the last complete line
	for lineNo := 1; ; lineNo++ {
		line, n, ended, err := readLine(br)
		if n > 0 && !ended {
			s.log.Warn("skipping torn last line of history", zap.String("conversation", id), zap.Int("line", lineNo), zap.Int64("bytes", n))
			if terr := f.Truncate(good); terr != nil {
				return nil, fmt.Errorf("history: cutting torn line: %w", terr)
			}
			break
		}
		if n > 0 {
			good += n
			var r record
			switch jerr := json.Unmarshal(bytes.TrimSpace(line), &r); {
			case line != nil && len(bytes.TrimSpace(line)) == 0:
				// A blank line holds no record.
			case line == nil:
				s.damaged++
				s.log.Warn("skipping history line over 16 MiB", zap.String("conversation", id), zap.Int("line", lineNo), zap.Int64("bytes", n))
			case jerr != nil:
				s.damaged++
				s.log.Warn("skipping corrupt history line", zap.String("conversation", id), zap.Int("line", lineNo), zap.Error(jerr))
			case !c.apply(r):
				s.damaged++
				s.log.Warn("skipping history record of unknown type or without its content", zap.String("conversation", id), zap.Int("line", lineNo), zap.String("type", r.Type))
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("history: reading %s: %w", path, err)
		}
	}
	if c.created.IsZero() {
		if st, err := f.Stat(); err == nil {
			c.created = st.ModTime()
		}
	}
	if c.updated.IsZero() {
		c.updated = c.created
	}
	return c, nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// Damaged returns how many lines Open skipped because they could not be
// read as a record (not JSON, longer than 16 MiB, of an unknown type, or
// without their content), plus the *.jsonl files it skipped for a name
// that is not a conversation id. Such a line or file may have recorded an
// upload, so a caller deciding that an upload is recorded nowhere must
// not trust a store with damage. A torn last line (a crash mid-append) is
// cut off and not counted: its record was never complete, so never
// acknowledged.
func (s *Store) Damaged() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.damaged
}

// readLine reads through the next '\n' and returns the line, the bytes
// it takes in the file and whether it ends with '\n' (false for a torn
// last line). A line over maxLine is returned as nil, with its length,
// so it is skipped as damaged without losing the lines after it.
func readLine(br *bufio.Reader) (line []byte, n int64, ended bool, err error) {
	over := false
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		if !over && len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		} else {
			over, line = true, nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		ended = len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		return line, n, ended, err
	}
}

// New returns a new, empty conversation without an owner. It is saved,
// and appears in List, when its first record is committed, so
// connections that never chat leave nothing behind.
func (s *Store) New(now time.Time) *Conversation { return s.NewOwned(now, "") }

// NewOwned is New for a conversation created by the principal owner; the
// owner is recorded with the conversation.
func (s *Store) NewOwned(now time.Time, owner string) *Conversation {
	id := uuid.NewString()
	return &Conversation{store: s, id: id, path: filepath.Join(s.dir, id+".jsonl"), owner: owner, created: now, updated: now}
}

// register makes a just-saved conversation visible.
func (s *Store) register(c *Conversation) {
	s.mu.Lock()
	s.convs[c.id] = c
	s.mu.Unlock()
}

// Get returns the conversation with exactly this id.
func (s *Store) Get(id string) (*Conversation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.convs[id]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
}

// Resolve returns the conversation whose id is id or starts with id (at
// least MinPrefix characters), so users can type the short ids that
// listings show.
func (s *Store) Resolve(id string) (*Conversation, error) {
	return s.ResolveVisible(id, func(string) bool { return true })
}

// ResolveVisible is Resolve among the conversations whose owner visible
// accepts: the others are not found, and do not make a prefix ambiguous,
// so their existence does not leak.
func (s *Store) ResolveVisible(id string, visible func(owner string) bool) (*Conversation, error) {
	id = strings.TrimSpace(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.convs[id]; ok && visible(c.owner) {
		return c, nil
	}
	if len(id) < MinPrefix {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	var found *Conversation
	for k, c := range s.convs {
		if strings.HasPrefix(k, id) && visible(c.owner) {
			if found != nil {
				return nil, fmt.Errorf("%w: %q", ErrAmbiguous, id)
			}
			found = c
		}
	}
	if found == nil {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return found, nil
}

// List returns summaries of all conversations, most recently updated
// first, then by id (Compare).
func (s *Store) List() []Summary {
	s.mu.Lock()
	convs := make([]*Conversation, 0, len(s.convs))
	for _, c := range s.convs {
		convs = append(convs, c)
	}
	s.mu.Unlock()
	out := make([]Summary, len(convs))
	for i, c := range convs {
		out[i] = c.Summary()
	}
	Sort(out)
	return out
}

// Delete removes a conversation and its file. Later writes through a
// *Conversation still held by someone fail with ErrNotFound.
func (s *Store) Delete(id string) error {
	s.mu.Lock()
	c, ok := s.convs[id]
	delete(s.convs, id)
	s.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	c.mu.Lock()
	c.deleted = true
	c.mu.Unlock()
	if err := os.Remove(c.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("history: %w", err)
	}
	return fsutil.SyncDir(s.dir)
}
