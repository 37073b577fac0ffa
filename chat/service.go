package chat

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"

	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// Config holds the Service's collaborators.
type Config struct {
	// History stores conversations. Required.
	History *history.Store
	// Uploads stores uploaded files. Required.
	Uploads *uploads.Store
	// Agent answers user turns. Required.
	Agent Agent
	// Indexer, if set, indexes uploads after they are committed.
	Indexer Indexer
	// MaxUploadBytesPerConversation bounds the bytes of one
	// conversation's uploads: an upload that would pass it is refused
	// with a *uploads.QuotaError and nothing of it is kept. Default 0: no
	// bound.
	MaxUploadBytesPerConversation int64
	// Models are the model names sessions may select. Default ["builtin"].
	Models []string
	// DefaultModel is the model of new sessions. Default Models[0].
	DefaultModel string
	// ModelInfo describes a model for ModelDetails (provider, model id,
	// base URL, cached reachability); it must not block. Default: names
	// only.
	ModelInfo func(name string) ModelInfo
	// CheckModel returns a fresh reachability result for a model (the
	// cached one if fresh, else a probe bounded by its short timeout);
	// Chat calls it before the agent and fails an unreachable model at
	// once. Default: no check.
	CheckModel func(ctx context.Context, name string) ModelInfo
	// PermissionTimeout is how long a permission request waits for the
	// user's answer; no answer by then denies the call. Default
	// DefaultPermissionTimeout (120 s).
	PermissionTimeout time.Duration
	// ExportBudget bounds the bytes all exports (Session.ExportTo, over
	// every transport) hold at once, from before one is built until it
	// is sent; an export that does not fit is refused with server_busy.
	// Default DefaultExportBudget (96 MiB); at least MaxExport.
	ExportBudget int64
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
	// Now returns the current time. Default time.Now.
	Now func() time.Time
}

// Service is the chat core shared by all transports.
type Service struct {
	cfg Config
	log *zap.Logger

	mu     sync.Mutex
	turns  map[string]chan struct{}         // per-conversation turn lock
	booked map[string]int64                 // conversation → bytes of uploads being committed
	live   map[string]*history.Conversation // conversations with a turn running, saved or not
	idle   chan struct{}                    // closed when live empties (WaitTurns); nil: nobody waits

	perms   *permissions // pending permission requests and grants (permissions.go)
	exports *byteBudget  // bytes held by exports (exportsize.go)
	cancels turnCancels  // running turns' cancel funcs (cancel.go)

	bg     context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New returns a Service.
func New(cfg Config) (*Service, error) {
	if cfg.History == nil || cfg.Uploads == nil || cfg.Agent == nil {
		return nil, errors.New("chat: History, Uploads and Agent are required")
	}
	if len(cfg.Models) == 0 {
		cfg.Models = []string{"builtin"}
	}
	if cfg.DefaultModel == "" {
		cfg.DefaultModel = cfg.Models[0]
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.PermissionTimeout <= 0 {
		cfg.PermissionTimeout = DefaultPermissionTimeout
	}
	if cfg.ExportBudget <= 0 {
		cfg.ExportBudget = DefaultExportBudget
	}
	cfg.ExportBudget = max(cfg.ExportBudget, MaxExport)
	bg, cancel := context.WithCancel(context.Background())
	return &Service{exports: &byteBudget{max: cfg.ExportBudget}, cfg: cfg, log: cfg.Logger, turns: make(map[string]chan struct{}), booked: make(map[string]int64), live: make(map[string]*history.Conversation), bg: bg, cancel: cancel, perms: newPermissions()}, nil
}

// NewSession starts a session for the principal who in a new
// conversation, which who owns. The conversation is saved when its first
// message or upload is.
func (s *Service) NewSession(clientType string, who Principal) *Session {
	return &Session{svc: s, who: who, conv: s.cfg.History.NewOwned(s.cfg.Now(), who.ID), clientType: clientType}
}

// List returns the saved conversations who may see, most recently
// updated first.
func (s *Service) List(who Principal) []history.Summary {
	all := s.cfg.History.List()
	out := all[:0]
	for _, sum := range all {
		if who.Sees(sum.Owner) {
			out = append(out, sum)
		}
	}
	return out
}

// MayDownload reports whether who may use a download token issued in
// conversation convID: the conversation must exist, saved or with a turn
// running (a new conversation is saved when its first turn ends, and
// its offers go out before), and be visible to who. The local operator
// may use any token, also one issued outside a conversation.
func (s *Service) MayDownload(who Principal, convID string) bool {
	if who.ID == LocalID {
		return true
	}
	c, err := s.cfg.History.Get(convID)
	if err != nil {
		s.mu.Lock()
		c = s.live[convID]
		s.mu.Unlock()
	}
	return c != nil && who.Sees(c.Owner())
}

// running records conv as having a turn in progress until the returned
// func is called. Turns in one conversation are serialised (lockTurn),
// so there is one at a time.
func (s *Service) running(conv *history.Conversation) (done func()) {
	id := conv.ID()
	s.mu.Lock()
	s.live[id] = conv
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.live, id)
		if len(s.live) == 0 && s.idle != nil {
			close(s.idle)
			s.idle = nil
		}
		s.mu.Unlock()
	}
}

// WaitTurns waits until no turn is running, or ctx ends. The daemon calls
// it on shutdown, once the transports have stopped and cancelled their
// turns, so the turns' last tool calls are recorded (the audit log)
// before what they write to is closed.
func (s *Service) WaitTurns(ctx context.Context) error {
	s.mu.Lock()
	if len(s.live) == 0 {
		s.mu.Unlock()
		return nil
	}
	if s.idle == nil {
		s.idle = make(chan struct{})
	}
	idle := s.idle
	s.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("chat: waiting for turns: %w", ctx.Err())
	}
}

// DefaultModel returns the model of new sessions.
func (s *Service) DefaultModel() string { return s.cfg.DefaultModel }

// Models returns the selectable model names.
func (s *Service) Models() []string { return append([]string(nil), s.cfg.Models...) }

// BeginStreamUpload opens an upload whose size is known only at its end
// (HTTP multipart). Commit it with a Session's CommitUpload after
// Pending.End.
func (s *Service) BeginStreamUpload(name string) (*uploads.Pending, error) {
	return s.cfg.Uploads.BeginStream(name, "")
}

// MaxUpload returns the upload size limit in bytes.
func (s *Service) MaxUpload() int64 { return s.cfg.Uploads.MaxSize() }

// checkUpload refuses an upload of n bytes that would take conv's uploads
// past their quota, counting uploads being committed; book, if set,
// books the bytes until the returned release is called (after the upload
// is recorded or refused).
func (s *Service) checkUpload(conv *history.Conversation, n int64, book bool) (release func(), err error) {
	limit := s.cfg.MaxUploadBytesPerConversation
	if limit <= 0 {
		return func() {}, nil
	}
	id := conv.ID()
	s.mu.Lock()
	defer s.mu.Unlock()
	// Read under s.mu: an upload recorded before its booking was released
	// is counted once, by one or the other.
	used := s.booked[id]
	for _, u := range conv.Uploads() {
		used += u.Size
	}
	if used+n > limit {
		return nil, &uploads.QuotaError{Scope: uploads.QuotaConversation, Limit: limit, Used: used, Need: n}
	}
	if !book {
		return func() {}, nil
	}
	s.booked[id] += n
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.booked[id] -= n; s.booked[id] <= 0 {
			delete(s.booked, id)
		}
	}, nil
}

// Close stops background indexing and waits for it, or for ctx.
func (s *Service) Close(ctx context.Context) error {
	s.cancel()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("chat: waiting for indexing: %w", ctx.Err())
	}
}

// lockTurn serialises turns within one conversation, so two clients in
// the same conversation never interleave their messages.
func (s *Service) lockTurn(ctx context.Context, id string) (func(), error) {
	s.mu.Lock()
	ch, ok := s.turns[id]
	if !ok {
		ch = make(chan struct{}, 1)
		s.turns[id] = ch
	}
	s.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// forgetTurn drops the turn lock of a deleted conversation.
func (s *Service) forgetTurn(id string) {
	s.mu.Lock()
	delete(s.turns, id)
	s.mu.Unlock()
	s.perms.forget(id)
}

// index runs the Indexer for an upload in the background, flips the
// upload's indexed flag when it succeeds and tells notify (if set) the
// outcome.
func (s *Service) index(conv *history.Conversation, u history.Upload, notify func(IndexNotice)) {
	if s.cfg.Indexer == nil {
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.indexNow(conv, u, notify)
	}()
}

// indexNow indexes one upload and records the outcome.
func (s *Service) indexNow(conv *history.Conversation, u history.Upload, notify func(IndexNotice)) {
	n := IndexNotice{FileID: u.FileID, Filename: u.Filename, SessionID: conv.ID()}
	err := s.guard("indexing upload", func() error { return s.cfg.Indexer.IndexUpload(s.bg, conv.ID(), u) })
	if err == nil {
		err = conv.MarkIndexed(u.FileID, s.cfg.Now())
	}
	if err != nil {
		if s.bg.Err() != nil {
			return // shutting down; indexed again at start
		}
		s.log.Info("upload not indexed", zap.String("file_id", u.FileID), zap.String("file", u.Filename), zap.Error(err))
		// The client reads a short reason in its user's language, never
		// the indexer's text, which may name server paths.
		n.Error = indexNoticeError(err, conversationLang(conv))
	} else {
		n.Indexed = true
	}
	if notify != nil {
		notify(n)
	}
}

// forgetIndexed drops a deleted conversation's uploads from the index,
// in the background: uploads of it still being indexed finish first.
func (s *Service) forgetIndexed(id string) {
	f, ok := s.cfg.Indexer.(ConversationForgetter)
	if !ok {
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		err := s.guard("forgetting conversation", func() error { return f.ForgetConversation(s.bg, id) })
		if err != nil && s.bg.Err() == nil {
			s.log.Warn("removing deleted conversation from the index failed", zap.String("conversation", id), zap.Error(err))
		}
	}()
}
