package index

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"opsassist/storage/bm25"
	"opsassist/storage/embed"
)

// Errors returned by Index.
var (
	// ErrClosed is returned by calls on a closed Index.
	ErrClosed = errors.New("index: closed")
	// ErrInvalid is returned for a File the index cannot store.
	ErrInvalid = errors.New("index: invalid file")
	// ErrLoading is returned by Search while the index is still loading
	// (Start).
	ErrLoading = errors.New("index: loading")
)

// DefaultCompactAfter is the log size after which a snapshot is written.
const DefaultCompactAfter = 64 << 20

// Config configures an Index.
type Config struct {
	// Embedder embeds queries; its Name and Dim are recorded, and an index
	// built by another embedder is discarded on open (its files must be
	// indexed again). Required.
	Embedder embed.Embedder
	// CompactAfter is the write-ahead log size in bytes after which a
	// snapshot is written in the background. Default DefaultCompactAfter.
	CompactAfter int64
	// MaxUploadText bounds the chunk text of all uploads in the index, in
	// bytes (chunks overlap, so a file's chunk text is about 1.1 times its
	// text). A Put past it fails with a *QuotaError and changes nothing.
	// System documents do not count. Default 0: no bound.
	MaxUploadText int64
	// MaxUploadTextPerConversation bounds the chunk text of one
	// conversation's uploads in the same way. Default 0: no bound.
	MaxUploadTextPerConversation int64
	// Logger receives diagnostics. Default: none.
	Logger *zap.Logger
}

// FileInfo describes an indexed file, without its chunks.
type FileInfo struct {
	ID             string    `json:"file_id"`
	Name           string    `json:"filename"`
	Path           string    `json:"filepath"`
	Scope          string    `json:"scope"`
	ConversationID string    `json:"conversation_id,omitempty"`
	SHA256         string    `json:"sha256"`
	UploadedAt     time.Time `json:"uploaded_at"`
	Chunks         int       `json:"chunks"`
	Skipped        string    `json:"skipped,omitempty"`
}

// Index is a durable hybrid index. It is safe for concurrent use.
type Index struct {
	dir string
	cfg Config
	log *zap.Logger

	ready   chan struct{} // closed when the load has ended
	loadErr error         // why the load failed; set before ready closes
	abort   atomic.Bool   // Close: stop loading

	// wmu serialises writers: the log, applying changes and snapshots.
	wmu     sync.Mutex
	wal     *os.File
	walGen  uint64
	walSize int64
	broken  error // a log write that could not be undone
	closing bool
	pending bool           // a background snapshot is queued or running
	wg      sync.WaitGroup // the load and background compaction

	// mu guards the in-memory state below; writers hold it only while
	// applying a change, so queries see whole files.
	mu     sync.RWMutex
	parts  map[string]*partition
	files  map[string]*fileMeta
	byName map[string]map[string]struct{} // lower-case name or stem → file ids
	chunks int
	// uploadText is the chunk text of all uploads, for the quota.
	uploadText int64
}

// partition is one scope's files and keyword index.
type partition struct {
	bm     *bm25.Index
	files  int
	metas  []*fileMeta // the partition's files, for the vector scan (scan.go)
	chunks int
	text   int64 // bytes of chunk text
}

// fileMeta is what the index keeps about a file: its description and its
// chunks. A chunk's text and position are substrings of one string per
// file, and its vector is in vecs: no chunk costs an allocation of its
// own.
type fileMeta struct {
	info      FileInfo
	part      string
	texts     []string
	positions []string
	vecs      vectors
	text      int64 // bytes of chunk text
	slot      int   // index in its partition's metas
}

// Open opens the index in dir, creating it if needed: it loads the last
// snapshot and replays the logs written after it, and returns once that
// is done.
func Open(dir string, cfg Config) (*Index, error) {
	x, err := Start(dir, cfg)
	if err != nil {
		return nil, err
	}
	if err := x.Wait(context.Background()); err != nil {
		x.Close()
		return nil, err
	}
	return x, nil
}

// Start opens the index in dir like Open, but loads it in the background
// and returns at once, so a server can serve while a large index loads.
// Until the load ends, Search fails with ErrLoading; Put, Delete,
// DeleteConversation and Snapshot wait for it; Get, Files, Conversations
// and Stats answer with what is loaded so far (Stats says it is loading).
// If the load fails, every later call fails with its error (Wait
// returns it).
func Start(dir string, cfg Config) (*Index, error) {
	if cfg.Embedder == nil {
		return nil, errors.New("index: Embedder is required")
	}
	if cfg.CompactAfter <= 0 {
		cfg.CompactAfter = DefaultCompactAfter
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	x := &Index{dir: dir, cfg: cfg, log: cfg.Logger, ready: make(chan struct{})}
	x.reset()
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		x.loadErr = x.load()
		close(x.ready)
	}()
	return x, nil
}

// Wait waits until the index is loaded, or ctx is done, and returns the
// load's error, if any.
func (x *Index) Wait(ctx context.Context) error {
	select {
	case <-x.ready:
		return x.loadErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Loaded reports whether the load has ended (successfully or not).
func (x *Index) Loaded() bool {
	select {
	case <-x.ready:
		return true
	default:
		return false
	}
}

// reset empties the in-memory state.
func (x *Index) reset() {
	// The load that calls it runs while readers (Get, Stats, the quota
	// check) may already look.
	x.mu.Lock()
	defer x.mu.Unlock()
	x.parts = make(map[string]*partition)
	x.files = make(map[string]*fileMeta)
	x.byName = make(map[string]map[string]struct{})
	x.chunks = 0
	x.uploadText = 0
}

// Put stores f, replacing every chunk of a file with the same ID. It
// returns once the change is durable.
func (x *Index) Put(ctx context.Context, f File) error {
	if err := x.validate(f); err != nil {
		return err
	}
	if err := x.Wait(ctx); err != nil {
		return err
	}
	v := quantize(f.Chunks, x.cfg.Embedder.Dim())
	f.Chunks = withoutEmbeddings(f.Chunks)
	payload := appendRecord(nil, record{op: opPutQ, file: f, vecs: v})
	if len(payload) > maxFrame {
		return fmt.Errorf("%w %q: %d bytes of chunks and vectors (at most %d in one record)", ErrInvalid, f.ID, len(payload), maxFrame)
	}
	return x.write(payload, func() error { return x.checkQuota(f) }, func() error { return x.applyPut(f, v) })
}

// Delete removes the file with this ID; deleting an absent file is not an
// error.
func (x *Index) Delete(ctx context.Context, id string) error {
	if err := x.Wait(ctx); err != nil {
		return err
	}
	x.mu.RLock()
	_, ok := x.files[id]
	x.mu.RUnlock()
	if !ok {
		return nil
	}
	payload := appendRecord(nil, record{op: opDelete, id: id})
	return x.write(payload, nil, func() error { x.applyDelete(id); return nil })
}

// DeleteConversation removes every upload of a conversation.
func (x *Index) DeleteConversation(ctx context.Context, conversationID string) error {
	if conversationID == "" {
		return fmt.Errorf("%w: empty conversation id", ErrInvalid)
	}
	if err := x.Wait(ctx); err != nil {
		return err
	}
	for _, f := range x.Files(ScopeUploads, conversationID) {
		if err := x.Delete(ctx, f.ID); err != nil {
			return err
		}
	}
	return nil
}

// validate checks f and its chunks' vectors before it is logged.
func (x *Index) validate(f File) error {
	if err := validateFile(f); err != nil {
		return err
	}
	dim := x.cfg.Embedder.Dim()
	for i, c := range f.Chunks {
		if len(c.Embedding) != dim {
			return fmt.Errorf("%w %q: chunk %d has dimension %d, want %d", ErrInvalid, f.ID, i, len(c.Embedding), dim)
		}
		var sq float64
		for _, v := range c.Embedding {
			sq += float64(v) * float64(v)
		}
		// Below 1e-30 the length cannot be divided out safely in float32.
		if !(sq >= 1e-30) || math.IsInf(sq, 0) {
			return fmt.Errorf("%w %q: chunk %d has a zero, tiny or non-finite vector", ErrInvalid, f.ID, i)
		}
	}
	return nil
}

// validateFile checks a file's id and scope.
func validateFile(f File) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w %q: %s", ErrInvalid, f.ID, fmt.Sprintf(format, a...))
	}
	switch {
	case f.ID == "":
		return bad("empty id")
	case f.Scope != ScopeSystem && f.Scope != ScopeUploads:
		return bad("scope %q", f.Scope)
	case f.Scope == ScopeUploads && f.ConversationID == "":
		return bad("upload without a conversation")
	case f.Scope == ScopeSystem && f.ConversationID != "":
		return bad("system document with a conversation")
	}
	return nil
}

// withoutEmbeddings returns a copy of cs without their float32 vectors,
// so the caller's File is left as it was and the vectors can be freed.
func withoutEmbeddings(cs []Chunk) []Chunk {
	out := make([]Chunk, len(cs))
	for i, c := range cs {
		out[i] = Chunk{Text: c.Text, Position: c.Position}
	}
	return out
}

// validateVectors checks the quantised vectors of a decoded record.
func (x *Index) validateVectors(f File, v vectors) error {
	if v.dim != x.cfg.Embedder.Dim() || v.len() != len(f.Chunks) || len(v.q) != v.len()*v.dim {
		return fmt.Errorf("%w %q: %d vectors of dimension %d for %d chunks", ErrInvalid, f.ID, v.len(), v.dim, len(f.Chunks))
	}
	for i, sc := range v.scale {
		if !(sc > 0) || math.IsInf(float64(sc), 0) {
			return fmt.Errorf("%w %q: chunk %d has scale %v", ErrInvalid, f.ID, i, sc)
		}
	}
	return nil
}

// write logs payload durably, then applies the change. check, if set,
// may refuse the change first.
func (x *Index) write(payload []byte, check, apply func() error) error {
	x.wmu.Lock()
	defer x.wmu.Unlock()
	if x.closing || x.wal == nil {
		return ErrClosed
	}
	if x.broken != nil {
		return fmt.Errorf("index: log unusable: %w", x.broken)
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	if err := x.appendLog(payload); err != nil {
		return err
	}
	if err := apply(); err != nil {
		return err
	}
	if x.walSize >= x.cfg.CompactAfter && !x.pending {
		x.pending = true
		x.wg.Add(1)
		go func() {
			defer x.wg.Done()
			if err := x.Snapshot(); err != nil && !errors.Is(err, ErrClosed) {
				x.log.Warn("index snapshot failed", zap.Error(err))
			}
		}()
	}
	return nil
}

// partName returns the partition a file belongs to.
func partName(scope, conversationID string) string {
	if scope == ScopeUploads {
		return "uploads/" + conversationID
	}
	return ScopeSystem
}

// chunkID names chunk i of a file.
func chunkID(fileID string, i int) string { return fileID + "#" + strconv.Itoa(i) }

// splitChunkID returns the file id and chunk number of a chunk id.
func splitChunkID(id string) (string, int) {
	j := strings.LastIndexByte(id, '#')
	if j < 0 {
		return id, -1
	}
	n, err := strconv.Atoi(id[j+1:])
	if err != nil {
		return id, -1
	}
	return id[:j], n
}

// applyPut replaces f in memory; v holds its chunks' vectors.
func (x *Index) applyPut(f File, v vectors) error {
	// One string holds every text and position of the file.
	total := 0
	for _, c := range f.Chunks {
		total += len(c.Text) + len(c.Position)
	}
	var sb strings.Builder
	sb.Grow(total)
	for _, c := range f.Chunks {
		sb.WriteString(c.Text)
		sb.WriteString(c.Position)
	}
	all, off := sb.String(), 0
	m := &fileMeta{texts: make([]string, len(f.Chunks)), positions: make([]string, len(f.Chunks)), vecs: v, text: textBytes(f.Chunks)}
	for i, c := range f.Chunks {
		m.texts[i] = all[off : off+len(c.Text)]
		off += len(c.Text)
		m.positions[i] = all[off : off+len(c.Position)]
		off += len(c.Position)
	}
	m.info = FileInfo{ID: f.ID, Name: f.Name, Path: f.Path, Scope: f.Scope, ConversationID: f.ConversationID,
		SHA256: f.SHA256, UploadedAt: f.UploadedAt, Chunks: len(f.Chunks), Skipped: f.Skipped}

	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeLocked(f.ID)
	name := partName(f.Scope, f.ConversationID)
	p := x.parts[name]
	if p == nil {
		p = &partition{bm: bm25.New()}
		x.parts[name] = p
	}
	m.part = name
	for i, text := range m.texts {
		text = f.Name + "\n" + text
		if ds := embed.DateTokens(text); len(ds) > 0 {
			text += "\n" + strings.Join(ds, " ")
		}
		p.bm.Add(chunkID(f.ID, i), text)
	}
	p.files++
	p.chunks += len(m.texts)
	p.text += m.text
	if f.Scope == ScopeUploads {
		x.uploadText += m.text
	}
	m.slot = len(p.metas)
	p.metas = append(p.metas, m)
	x.files[f.ID] = m
	x.chunks += len(f.Chunks)
	for _, k := range nameKeys(f.Name) {
		set := x.byName[k]
		if set == nil {
			set = make(map[string]struct{}, 1)
			x.byName[k] = set
		}
		set[f.ID] = struct{}{}
	}
	return nil
}

// applyDelete removes a file in memory.
func (x *Index) applyDelete(id string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeLocked(id)
}

// removeLocked removes a file's chunks; x.mu must be held for writing.
func (x *Index) removeLocked(id string) {
	m, ok := x.files[id]
	if !ok {
		return
	}
	p := x.parts[m.part]
	for i := range m.positions {
		p.bm.Delete(chunkID(id, i))
	}
	p.files--
	p.chunks -= len(m.positions)
	p.text -= m.text
	if m.info.Scope == ScopeUploads {
		x.uploadText -= m.text
	}
	last := p.metas[len(p.metas)-1]
	p.metas[m.slot], last.slot = last, m.slot
	p.metas[len(p.metas)-1] = nil
	p.metas = p.metas[:len(p.metas)-1]
	if p.files == 0 {
		delete(x.parts, m.part)
	}
	x.chunks -= len(m.positions)
	delete(x.files, id)
	for _, k := range nameKeys(m.info.Name) {
		if set := x.byName[k]; set != nil {
			delete(set, id)
			if len(set) == 0 {
				delete(x.byName, k)
			}
		}
	}
}

// Get returns what the index holds about a file.
func (x *Index) Get(id string) (FileInfo, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	m, ok := x.files[id]
	if !ok {
		return FileInfo{}, false
	}
	return m.info, true
}

// Files lists the files of a scope (ScopeSystem, or ScopeUploads of one
// conversation, or every upload when conversationID is empty), sorted by
// path.
func (x *Index) Files(scope, conversationID string) []FileInfo {
	x.mu.RLock()
	var out []FileInfo
	for _, m := range x.files {
		if m.info.Scope != scope || (conversationID != "" && m.info.ConversationID != conversationID) {
			continue
		}
		out = append(out, m.info)
	}
	x.mu.RUnlock()
	sortInfos(out)
	return out
}

// Conversations returns the conversations that have uploads in the index.
func (x *Index) Conversations() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []string
	for name := range x.parts {
		if c, ok := strings.CutPrefix(name, ScopeUploads+"/"); ok {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// Stats summarises the index.
type Stats struct {
	Files    int    `json:"files"`
	Chunks   int    `json:"chunks"`
	Embedder string `json:"embedder"`
	LogBytes int64  `json:"log_bytes"`
	// Loading is set while the index loads (Start); Files and Chunks
	// count what is loaded so far.
	Loading bool `json:"loading,omitempty"`
	// UploadText is the chunk text of all uploads, in bytes (the quota's
	// measure).
	UploadText int64 `json:"upload_text"`
}

// Stats returns the index's counts. It does not wait for the load.
func (x *Index) Stats() Stats {
	loading := !x.Loaded()
	x.mu.RLock()
	s := Stats{Files: len(x.files), Chunks: x.chunks, Embedder: x.cfg.Embedder.Name(), Loading: loading, UploadText: x.uploadText}
	x.mu.RUnlock()
	if !loading { // the load sets up the log without x.wmu
		x.wmu.Lock()
		s.LogBytes = x.walSize
		x.wmu.Unlock()
	}
	return s
}

// Close waits for a snapshot in progress and closes the log. Further
// calls fail with ErrClosed. Close is idempotent.
func (x *Index) Close() error {
	x.abort.Store(true)
	x.wmu.Lock()
	x.closing = true
	x.wmu.Unlock()
	x.wg.Wait()
	x.wmu.Lock()
	defer x.wmu.Unlock()
	if x.wal == nil {
		return nil
	}
	err := x.wal.Close()
	x.wal = nil
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}
