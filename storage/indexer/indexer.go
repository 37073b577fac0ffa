// Package indexer feeds the search index: it extracts, chunks and embeds
// uploads (through a bounded worker pool) and system documents (scanned
// incrementally at start), and replaces a file's chunks when it changes.
package indexer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"

	"opsassist/storage/embed"
	"opsassist/storage/history"
	"opsassist/storage/index"
	"opsassist/storage/ingest"
)

// Config configures an Indexer.
type Config struct {
	// Index receives the chunks. Required.
	Index *index.Index
	// Embedder embeds chunks; it must be the index's embedder. Required.
	Embedder embed.Embedder
	// Workers bounds files indexed at once. Default 2.
	Workers int
	// MaxBytes is the largest file indexed. Default ingest.DefaultMaxBytes.
	MaxBytes int64
	// ChunkSize and ChunkOverlap are in runes. Default 500 and 50.
	ChunkSize, ChunkOverlap int
	// MaxChunks bounds the chunks indexed per file (about 10 million
	// characters by default, 20,000); the rest of a longer file is not
	// searchable. It keeps one file's index record far below the log's
	// frame limit whatever the embedder's dimension.
	MaxChunks int
	// ReleaseAfter is the text size, in bytes, from which indexing a file
	// ends by handing the memory it freed back to the operating system
	// (debug.FreeOSMemory): embedding a large file needs several times
	// its size for a moment, and the Go runtime would otherwise keep that
	// peak resident for minutes. Default 1 MiB; negative: never.
	ReleaseAfter int64
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
}

// Indexer indexes files. It is safe for concurrent use.
type Indexer struct {
	cfg Config
	log *zap.Logger
	sem chan struct{}

	released atomic.Int64 // times release ran, for tests

	mu        sync.Mutex
	pending   map[string]int           // conversation → uploads being indexed
	idle      map[string]chan struct{} // closed when a conversation has none
	forgotten map[string]bool          // deleted conversations: never index for them again
}

// New returns an Indexer.
func New(cfg Config) (*Indexer, error) {
	if cfg.Index == nil || cfg.Embedder == nil {
		return nil, errors.New("indexer: Index and Embedder are required")
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 2
	}
	if cfg.MaxChunks <= 0 {
		cfg.MaxChunks = 20_000
	}
	if cfg.ReleaseAfter == 0 {
		cfg.ReleaseAfter = 1 << 20
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	return &Indexer{cfg: cfg, log: cfg.Logger, sem: make(chan struct{}, cfg.Workers),
		pending: map[string]int{}, idle: map[string]chan struct{}{}, forgotten: map[string]bool{}}, nil
}

// Source describes a file to index.
type Source struct {
	ID             string
	Name           string
	Path           string
	Scope          string
	ConversationID string
	UploadedAt     time.Time
	// SHA256 is the file's known digest; empty to compute it.
	SHA256 string
}

// Result tells what indexing a file did.
type Result struct {
	Chunks int
	// Skipped is why the file has no chunks, if it has none.
	Skipped string
	// Unchanged is true when the index already held this version.
	Unchanged bool
	// Quota is set when the file was skipped for an indexed-text quota.
	Quota *index.QuotaError
}

// ErrSkipped wraps the reason a file could not be indexed (unsupported
// type, binary, too large).
var ErrSkipped = errors.New("indexer: file not indexed")

// SkipError says why an upload was not indexed. It matches ErrSkipped,
// and unwraps to the *index.QuotaError of a file over a quota.
type SkipError struct {
	Reason string
	Err    error
}

func (e *SkipError) Error() string { return ErrSkipped.Error() + ": " + e.Reason }

// Is makes errors.Is(err, ErrSkipped) true.
func (e *SkipError) Is(target error) bool { return target == ErrSkipped }

// SkipReason returns the reason alone, as users read it.
func (e *SkipError) SkipReason() string { return e.Reason }

// Unwrap returns the cause, if the reason has one (a quota).
func (e *SkipError) Unwrap() error { return e.Err }

// ErrForgotten is returned for an upload of a deleted conversation.
var ErrForgotten = errors.New("indexer: conversation deleted")

// IndexUpload indexes an upload into its conversation's scope. It waits
// for a free worker. A file that cannot be indexed is recorded with its
// reason and yields a *SkipError.
func (ix *Indexer) IndexUpload(ctx context.Context, conversationID string, u history.Upload) error {
	if !ix.begin(conversationID) {
		return ErrForgotten
	}
	defer ix.done(conversationID)
	res, err := ix.IndexFile(ctx, Source{ID: u.FileID, Name: u.Filename, Path: u.FilePath, Scope: index.ScopeUploads,
		ConversationID: conversationID, UploadedAt: u.UploadedAt, SHA256: u.SHA256})
	if err != nil {
		return err
	}
	if res.Skipped != "" {
		se := &SkipError{Reason: res.Skipped}
		if res.Quota != nil {
			se.Err = res.Quota
		}
		return se
	}
	return nil
}

// Indexed reports whether the index holds this version of an upload, so
// start-up can re-index only what a crash left out.
func (ix *Indexer) Indexed(u history.Upload) bool {
	fi, ok := ix.cfg.Index.Get(u.FileID)
	return ok && fi.SHA256 == u.SHA256
}

// WaitIdle waits until no upload of the conversation is being indexed, or
// ctx is done.
func (ix *Indexer) WaitIdle(ctx context.Context, conversationID string) error {
	ix.mu.Lock()
	ch := ix.idle[conversationID]
	ix.mu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// begin counts an upload of conv as being indexed; false if conv was
// deleted.
func (ix *Indexer) begin(conv string) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.forgotten[conv] {
		return false
	}
	if ix.pending[conv] == 0 {
		ix.idle[conv] = make(chan struct{})
	}
	ix.pending[conv]++
	return true
}

func (ix *Indexer) done(conv string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.pending[conv]--
	if ix.pending[conv] == 0 {
		close(ix.idle[conv])
		delete(ix.idle, conv)
		delete(ix.pending, conv)
	}
}

// IndexFile indexes one file, replacing the chunks of an earlier version.
// It does nothing if the index already holds the same content.
func (ix *Indexer) IndexFile(ctx context.Context, src Source) (Result, error) {
	select {
	case ix.sem <- struct{}{}:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	defer func() { <-ix.sem }()
	if src.SHA256 == "" {
		sum, err := hashFile(src.Path)
		if err != nil {
			return Result{}, fmt.Errorf("indexer: %w", err)
		}
		src.SHA256 = sum
	}
	if fi, ok := ix.cfg.Index.Get(src.ID); ok && fi.SHA256 == src.SHA256 && fi.Path == src.Path {
		return Result{Chunks: fi.Chunks, Skipped: fi.Skipped, Unchanged: true}, nil
	}
	f := index.File{ID: src.ID, Name: src.Name, Path: src.Path, Scope: src.Scope, ConversationID: src.ConversationID,
		SHA256: src.SHA256, UploadedAt: src.UploadedAt}
	doc, err := ingest.Extract(ctx, src.Path, ix.cfg.MaxBytes)
	if ix.cfg.ReleaseAfter >= 0 && int64(len(doc.Text)) >= ix.cfg.ReleaseAfter {
		defer ix.release()
	}
	var skip *ingest.SkipError
	switch {
	case errors.As(err, &skip):
		f.Skipped, err = skip.Reason, nil
	case err != nil:
		return Result{}, fmt.Errorf("indexer: %s: %w", src.Name, err)
	default:
		f.Chunks, err = ix.chunks(ctx, f, doc)
		if err == nil && len(f.Chunks) == 0 {
			f.Skipped = "no text"
		}
	}
	if err == nil {
		err = ix.cfg.Index.Put(ctx, f)
	}
	// Over the indexed-text quota, before embedding (chunks) or at the
	// write (Put, under the index's lock): the file is recorded without
	// its chunks, with the reason, like any file that cannot be indexed.
	var qe *index.QuotaError
	if errors.As(err, &qe) {
		ix.log.Warn("file not indexed: over the indexed-text quota", zap.String("file", src.Path), zap.String("quota", qe.Scope),
			zap.Int64("limit", qe.Limit), zap.Int64("used", qe.Used), zap.Int64("need", qe.Need))
		f.Chunks, f.Skipped = nil, qe.Reason()
		err = ix.cfg.Index.Put(ctx, f)
	}
	if err != nil {
		return Result{}, err
	}
	ix.log.Debug("file indexed", zap.String("file", src.Path), zap.Int("chunks", len(f.Chunks)), zap.String("skipped", f.Skipped))
	return Result{Chunks: len(f.Chunks), Skipped: f.Skipped, Quota: qe}, nil
}

// chunks cuts a document and embeds its pieces. Each piece is embedded
// with the file name and its section heading, so a chunk of nginx.conf
// or of a "数据库备份" section carries that context. A file whose pieces
// are over the index's quota is not embedded: the *index.QuotaError is
// returned.
func (ix *Indexer) chunks(ctx context.Context, f index.File, doc ingest.Doc) ([]index.Chunk, error) {
	name := f.Name
	size := ix.cfg.ChunkSize
	if size <= 0 {
		size = ingest.DefaultChunkSize
	}
	// The first MaxChunks pieces hold at most MaxChunks × size runes: the
	// rest of a longer text would be dropped after chunking, so it is
	// dropped before, and a 100 MiB log costs no more to chunk than the
	// part of it that is indexed.
	text, cut := cutAfterRunes(doc.Text, ix.cfg.MaxChunks*size)
	doc.Text = text
	pieces := ingest.Chunk(doc, ix.cfg.ChunkSize, ix.cfg.ChunkOverlap)
	if len(pieces) > ix.cfg.MaxChunks || cut {
		ix.log.Warn("file indexed in part: too many chunks", zap.String("file", name), zap.Int("indexed", ix.cfg.MaxChunks))
		pieces = pieces[:min(len(pieces), ix.cfg.MaxChunks)]
	}
	if doc.Kind == ingest.KindCSV {
		// Every piece of a table carries its column names.
		header, _, _ := strings.Cut(doc.Text, "\n")
		header = strings.TrimSuffix(header, "\r")
		for i := range pieces {
			if pieces[i].StartLine > 1 && header != "" {
				pieces[i].Text = header + "\n" + pieces[i].Text
			}
		}
	}
	// Embedding costs time and memory: refuse a file over the quota first.
	probe := f
	probe.Chunks = make([]index.Chunk, len(pieces))
	for i, p := range pieces {
		probe.Chunks[i].Text = p.Text
	}
	if err := ix.cfg.Index.CheckQuota(probe); err != nil {
		return nil, err
	}
	texts := make([]string, len(pieces))
	for i, p := range pieces {
		texts[i] = embedText(name, p)
	}
	const batch = 256
	out := make([]index.Chunk, 0, len(pieces))
	for start := 0; start < len(texts); start += batch {
		end := min(start+batch, len(texts))
		vecs, err := ix.cfg.Embedder.Embed(ctx, texts[start:end])
		if err != nil {
			return nil, fmt.Errorf("indexer: embedding %s: %w", name, err)
		}
		for i, v := range vecs {
			p := pieces[start+i]
			if isZero(v) {
				continue // nothing searchable in it
			}
			out = append(out, index.Chunk{Text: p.Text, Position: p.Position, Embedding: v})
		}
	}
	return out, nil
}

// cutAfterRunes returns s up to the end of the line holding its n-th
// rune, and whether anything was cut. A line that runs on (minified
// JSON, a base64 blob) is cut n runes further at most, on a rune
// boundary, so what is kept stays within twice what is indexed.
func cutAfterRunes(s string, n int) (string, bool) {
	if len(s) <= n { // n runes take at least n bytes
		return s, false
	}
	i := 0
	for j := range s {
		if i == n {
			rest := s[j:]
			if len(rest) > 4*n { // n more runes take at most 4n bytes
				rest = rest[:4*n]
			}
			if k := strings.IndexByte(rest, '\n'); k >= 0 {
				return s[:j+k+1], j+k+1 < len(s)
			}
			end, more := j, 0
			for end < len(s) && more < n {
				_, w := utf8.DecodeRuneInString(s[end:])
				end += w
				more++
			}
			return s[:end], end < len(s)
		}
		i++
	}
	return s, false
}

// embedText is the text embedded for a piece.
func embedText(name string, p ingest.Piece) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('\n')
	if !strings.HasPrefix(p.Position, "line ") {
		b.WriteString(p.Position)
		b.WriteByte('\n')
	}
	b.WriteString(p.Text)
	if ds := embed.DateTokens(name + "\n" + p.Text); len(ds) > 0 {
		b.WriteByte('\n')
		b.WriteString(strings.Join(ds, " "))
	}
	return b.String()
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// SystemID is the index id of a system document at an absolute path.
func SystemID(path string) string {
	s := sha256.Sum256([]byte(filepath.Clean(path)))
	return "sys-" + hex.EncodeToString(s[:12])
}

// ForgetConversation removes a deleted conversation's uploads from the
// index. Uploads of it still being indexed finish first, and none is
// indexed for it afterwards.
func (ix *Indexer) ForgetConversation(ctx context.Context, conversationID string) error {
	ix.mu.Lock()
	ix.forgotten[conversationID] = true
	ix.mu.Unlock()
	if err := ix.WaitIdle(ctx, conversationID); err != nil {
		return err
	}
	return ix.cfg.Index.DeleteConversation(ctx, conversationID)
}

// release hands memory freed by indexing a large file back to the
// operating system, so the daemon's resident size follows what the index
// keeps. The runtime would do it by itself, but slowly.
func (ix *Indexer) release() {
	debug.FreeOSMemory()
	ix.released.Add(1)
}
