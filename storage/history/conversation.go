package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"opsassist/storage/fsutil"
)

// titleRunes is the length at which a conversation title is cut.
const titleRunes = 40

// Conversation is one conversation: its messages and uploads, mirrored in
// memory and persisted in an append-only file. It is safe for concurrent
// use.
type Conversation struct {
	store *Store
	id    string
	path  string
	owner string // set at creation; "" for conversations older than ownership

	// model is the conversation's chosen model ("" if none); guarded by mu.
	model string

	mu       sync.Mutex
	saved    bool // the file exists
	deleted  bool
	created  time.Time
	updated  time.Time
	messages []Message
	uploads  []Upload
	title    string // set by the user; "" means derived from the first user message
}

// ID returns the conversation's id.
func (c *Conversation) ID() string { return c.id }

// Owner returns the id of the principal that created the conversation,
// or "" if it was recorded before conversations had owners.
func (c *Conversation) Owner() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.owner
}

// Model returns the model chosen for the conversation, or "" if none was.
func (c *Conversation) Model() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.model
}

// SetModel chooses the conversation's model. A saved conversation
// persists the choice at once; an unsaved one keeps it in memory and
// writes it with its create record, so choosing a model alone does not
// make an empty conversation appear in the list.
func (c *Conversation) SetModel(name string, now time.Time) error {
	c.mu.Lock()
	if !c.saved && !c.deleted {
		c.model = name
		c.mu.Unlock()
		return nil
	}
	c.mu.Unlock()
	return c.commit([]record{{Type: recModel, Time: now, Model: name}}, func() { c.model = name })
}

// Append adds messages and persists them with one fsync.
func (c *Conversation) Append(msgs ...Message) error {
	recs := make([]record, len(msgs))
	for i := range msgs {
		recs[i] = record{Type: recMessage, Time: msgs[i].Time, Message: &msgs[i]}
	}
	return c.commit(recs, func() { c.messages = append(c.messages, msgs...) })
}

// AddUpload records an upload.
func (c *Conversation) AddUpload(u Upload) error {
	return c.commit([]record{{Type: recUpload, Time: u.UploadedAt, Upload: &u}}, func() {
		c.uploads = append(c.uploads, u)
	})
}

// MarkIndexed sets the indexed flag of the upload with the given id.
func (c *Conversation) MarkIndexed(fileID string, now time.Time) error {
	return c.commit([]record{{Type: recIndexed, Time: now, FileID: fileID}}, func() { c.applyIndexed(fileID) })
}

// Clear removes all messages. Uploads stay: their files still exist.
// Clearing a conversation without messages changes nothing and writes
// nothing: "/new" then "/clear" leaves no empty conversation on disk.
func (c *Conversation) Clear(now time.Time) error {
	return c.commitUnless(func() bool { return len(c.messages) == 0 },
		[]record{{Type: recClear, Time: now}}, func() { c.messages = nil })
}

// SetTitle records a title chosen by the user; "" restores the title
// derived from the first user message. Like every change, it is one
// fsynced record appended to the conversation's file (which it creates
// for a conversation not yet saved). The caller validates title.
func (c *Conversation) SetTitle(title string, now time.Time) error {
	return c.commit([]record{{Type: recTitle, Time: now, Title: title}}, func() { c.title = title })
}

// Messages returns a copy of the messages.
func (c *Conversation) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Message(nil), c.messages...)
}

// Uploads returns a copy of the upload records, oldest first.
func (c *Conversation) Uploads() []Upload {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Upload(nil), c.uploads...)
}

// Summary describes the conversation.
func (c *Conversation) Summary() Summary {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := Summary{ID: c.id, CreatedAt: c.created, UpdatedAt: c.updated, Messages: len(c.messages), Uploads: len(c.uploads), Owner: c.owner, Model: c.model}
	if c.title != "" {
		s.Title = c.title
		return s
	}
	for _, m := range c.messages {
		if m.Role == "user" {
			s.Title = cut(m.Content, titleRunes)
			break
		}
	}
	return s
}

func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// commit appends recs to the file, fsyncs, then applies the in-memory
// change. On error nothing changes in memory.
func (c *Conversation) commit(recs []record, apply func()) error {
	return c.commitUnless(nil, recs, apply)
}

// commitUnless is commit, but writes and applies nothing when noop (if
// not nil) reports, under the conversation's lock, that the change
// would change nothing.
func (c *Conversation) commitUnless(noop func() bool, recs []record, apply func()) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return fmt.Errorf("history: encoding record: %w", err)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.deleted {
		return fmt.Errorf("history: conversation %s: %w", c.id, ErrNotFound)
	}
	if noop != nil && noop() {
		return nil
	}
	if !c.saved {
		if err := c.create(buf.Bytes()); err != nil {
			return fmt.Errorf("history: conversation %s: %w", c.id, err)
		}
	} else if err := appendSync(c.path, buf.Bytes()); err != nil {
		return fmt.Errorf("history: conversation %s: %w", c.id, err)
	}
	apply()
	if t := recs[len(recs)-1].Time; t.After(c.updated) {
		c.updated = t
	}
	return nil
}

// create writes the conversation's file: its create record, then b.
func (c *Conversation) create(b []byte) error {
	head, err := json.Marshal(record{Type: recCreate, Time: c.created, ID: c.id, Owner: c.owner, Model: c.model})
	if err != nil {
		return err
	}
	f, err := os.OpenFile(c.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(append(head, '\n'), b...))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsutil.SyncDir(filepath.Dir(c.path))
	}
	if err != nil {
		if rerr := os.Remove(c.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
		return err
	}
	c.saved = true
	c.store.register(c)
	return nil
}

// Saved reports whether the conversation has been written to disk.
func (c *Conversation) Saved() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.saved
}

// Deleted reports whether the conversation was deleted from its store.
func (c *Conversation) Deleted() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.deleted
}

// apply replays one record read from the file.
func (c *Conversation) apply(r record) bool {
	switch r.Type {
	case recCreate:
		c.created = r.Time
		c.owner = r.Owner
		c.model = r.Model
	case recMessage:
		if r.Message == nil {
			return false
		}
		c.messages = append(c.messages, *r.Message)
	case recUpload:
		if r.Upload == nil || r.Upload.FileID == "" {
			return false
		}
		c.uploads = append(c.uploads, *r.Upload)
	case recIndexed:
		c.applyIndexed(r.FileID)
	case recClear:
		c.messages = nil
	case recTitle:
		c.title = r.Title
	case recModel:
		c.model = r.Model
	default:
		return false
	}
	if r.Time.After(c.updated) {
		c.updated = r.Time
	}
	return true
}

func (c *Conversation) applyIndexed(fileID string) {
	for i := range c.uploads {
		if c.uploads[i].FileID == fileID {
			c.uploads[i].Indexed = true
		}
	}
}

// appendSync appends b to the file at path and fsyncs it. If the write or
// the fsync fails, the file is cut back to its old length, so a partial
// record cannot glue itself to the next one.
func appendSync(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		terr := f.Truncate(st.Size())
		if terr == nil {
			terr = f.Sync()
		}
		if terr != nil {
			err = errors.Join(err, fmt.Errorf("undoing partial write: %w", terr))
		}
		f.Close()
		return err
	}
	return f.Close()
}

// Matches reports whether the conversation's title or one of its user or
// assistant messages contains lowerQ, which must be lower case, ignoring
// case. It reads at most budget bytes of message text and returns how
// many it read; a conversation whose text runs past budget matches only
// if lowerQ is found before it.
func (c *Conversation) Matches(lowerQ string, budget int64) (match bool, read int64) {
	if strings.Contains(strings.ToLower(c.Summary().Title), lowerQ) {
		return true, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.messages {
		if m.Role != "user" && m.Role != "assistant" {
			continue
		}
		s := m.Content
		if int64(len(s)) > budget-read {
			s = s[:max(budget-read, 0)]
		}
		read += int64(len(s))
		if strings.Contains(strings.ToLower(s), lowerQ) {
			return true, read
		}
		if read >= budget {
			break
		}
	}
	return false, read
}
