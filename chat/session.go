package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// Session is one client's state: its current conversation. A transport
// keeps one per connection. The model is the conversation's (Model), never
// the connection's. Its methods are safe for concurrent
// use.
type Session struct {
	svc *Service
	who Principal // fixed for the session's life

	mu         sync.Mutex
	conv       *history.Conversation
	clientType string
	notify     func(IndexNotice)
}

// SetIndexNotify makes the session report what became of its uploads
// once indexing ends; f must not block.
func (se *Session) SetIndexNotify(f func(IndexNotice)) {
	se.mu.Lock()
	se.notify = f
	se.mu.Unlock()
}

// Principal returns who the session acts for.
func (se *Session) Principal() Principal { return se.who }

// ID returns the current conversation id.
func (se *Session) ID() string { return se.current().ID() }

// Model returns the current conversation's model: the one chosen for
// it (persisted with it) if that is still configured, else the service
// default. The model belongs to the conversation alone — one rule for
// every transport — so Switch switches it too, and a model chosen in one
// conversation never leaks into the next one the session switches to.
func (se *Session) Model() string { return se.modelOf(se.current()) }

// modelOf returns the model a turn in conversation c uses.
func (se *Session) modelOf(c *history.Conversation) string {
	if m := c.Model(); m != "" && slices.Contains(se.svc.cfg.Models, m) {
		return m
	}
	return se.svc.cfg.DefaultModel
}

// ClientType returns the client kind.
func (se *Session) ClientType() string {
	se.mu.Lock()
	defer se.mu.Unlock()
	return se.clientType
}

// SetClientType records the client kind ("cli", "desktop", "web").
func (se *Session) SetClientType(t string) {
	se.mu.Lock()
	se.clientType = t
	se.mu.Unlock()
}

// current returns the session's conversation. If another client deleted
// it, the session moves to a new conversation.
func (se *Session) current() *history.Conversation {
	se.mu.Lock()
	defer se.mu.Unlock()
	if se.conv.Deleted() {
		se.conv = se.svc.cfg.History.NewOwned(se.svc.cfg.Now(), se.who.ID)
	}
	return se.conv
}

// Chat runs one turn: it emits StreamStart, lets the agent stream its
// reply, persists the user message and the agent's messages with one
// fsync, and emits End. Agent and storage failures are reported as an
// Error event before End and returned. A panic in the agent is an Error
// with api.CodeInternal (ErrPanicked), recorded with the user message as an
// assistant note. If emit fails (client gone) the turn stops and the
// user message is still recorded. A panic anywhere else in the turn (in
// emit, say) is recovered the same way (endOnPanic): the user message and
// the note are recorded unless they were, and the Error and End events
// not yet tried are emitted, so each is sent at most once. A turn the
// user cancels (Cancel) stops its agent through ctx, records the text
// streamed so far as a cancelled assistant message, emits End without
// an Error and returns nil; an agent that finished despite the cancel is
// recorded as usual.
func (se *Session) Chat(ctx context.Context, input string, emit Emit) (err error) {
	conv := se.current()
	unlock, err := se.svc.lockTurn(ctx, conv.ID())
	if err != nil {
		return err
	}
	defer unlock()
	defer se.svc.running(conv)()
	ctx, endTurn := se.svc.beginTurn(ctx, conv.ID()) // Cancel ends ctx
	defer endTurn()
	now := se.svc.cfg.Now()
	var st turnState
	defer se.endOnPanic(conv, input, now, emit, &st, &err)
	if err := emit(Event{Kind: KindStreamStart, SessionID: conv.ID()}); err != nil {
		return err
	}
	if e := messageError(input); e != nil {
		st.recorded = true // a refused message is not recorded
		return se.refuse(emit, &st, e)
	}
	model := se.modelOf(conv)
	if e := se.modelError(ctx, input, model); e != nil {
		st.recorded = true // refused before the agent: nothing to record
		return se.refuse(emit, &st, e)
	}
	se.mu.Lock()
	turn := &Turn{SessionID: conv.ID(), Input: input, Model: model, ClientType: se.clientType, User: se.who.Name, Role: se.who.Role, Now: now}
	se.mu.Unlock()
	turn.History = conv.Messages()
	turn.Uploads = conv.Uploads()
	rec := &partialResponder{Responder: se.svc.newEmitResponder(conv.ID(), se.who.ID, emit)}
	msgs, agentErr := se.respond(ctx, turn, rec)
	if agentErr != nil && !errors.Is(agentErr, ErrPanicked) && userCancelled(ctx) {
		msgs, agentErr = cancelledAnswer(msgs, rec.streamed(), se.svc.cfg.Now()), nil
	}
	user := history.Message{Role: "user", Content: input, Time: now}
	if agentErr != nil && !errors.Is(agentErr, ErrPanicked) {
		msgs = nil
	}
	st.recorded = true
	if err := conv.Append(append([]history.Message{user}, msgs...)...); err != nil {
		se.svc.log.Error("saving turn failed", zap.String("session", conv.ID()), zap.Error(err))
		if agentErr == nil {
			agentErr = &Error{Code: api.CodeInternal, Err: fmt.Errorf("saving conversation: %w", err)}
		}
	}
	if agentErr != nil {
		code := api.CodeAgentError
		var ce *Error
		if errors.As(agentErr, &ce) {
			code = ce.Code
		}
		if ctx.Err() == nil {
			st.errorSent = true
			if err := emit(Event{Kind: KindError, Error: &ErrorInfo{Code: code, Message: Message(agentErr)}}); err != nil {
				return err
			}
		}
	}
	st.endSent = true
	if err := emit(Event{Kind: KindEnd}); err != nil {
		return err
	}
	return agentErr
}

// refuse ends a turn that is not run: an Error event, then End. Nothing
// is recorded.
func (se *Session) refuse(emit Emit, st *turnState, err *Error) error {
	st.errorSent = true
	if e := emit(Event{Kind: KindError, Error: &ErrorInfo{Code: err.Code, Message: Message(err)}}); e != nil {
		return e
	}
	st.endSent = true
	if e := emit(Event{Kind: KindEnd}); e != nil {
		return e
	}
	return err
}

// New moves the session to a new, empty conversation. It starts with
// the model of the conversation the session leaves, if one was chosen
// for it (as the web's New chat keeps the picker's model); that choice
// is then the new conversation's own.
func (se *Session) New() history.Summary {
	now := se.svc.cfg.Now()
	prev := se.current().Model()
	c := se.svc.cfg.History.NewOwned(now, se.who.ID)
	if prev != "" && slices.Contains(se.svc.cfg.Models, prev) {
		// Unsaved: kept in memory, written with the create record; no
		// error is possible.
		if err := c.SetModel(prev, now); err != nil {
			se.svc.log.Warn("carrying the model over", zap.Error(err))
		}
	}
	se.mu.Lock()
	se.conv = c
	se.mu.Unlock()
	return c.Summary()
}

// resolve finds the conversation with this id or unique id prefix among
// those the session's principal sees; the others are not found.
func (se *Session) resolve(id string) (*history.Conversation, error) {
	c, err := se.svc.cfg.History.ResolveVisible(id, se.who.Sees)
	if err != nil {
		return nil, &Error{Code: api.CodeNotFound, Err: err}
	}
	return c, nil
}

// Switch moves the session to the conversation with this id or unique id
// prefix, among those its principal sees.
func (se *Session) Switch(id string) (history.Summary, error) {
	c, err := se.resolve(id)
	if err != nil {
		return history.Summary{}, err
	}
	se.mu.Lock()
	se.conv = c
	se.mu.Unlock()
	return c.Summary(), nil
}

// Delete removes the conversation with this id or unique prefix, among
// those its principal sees, and its uploaded files. Deleting the current
// conversation moves the session to a new one. It returns the deleted
// conversation's summary.
func (se *Session) Delete(id string) (history.Summary, error) {
	c, err := se.resolve(id)
	if err != nil {
		return history.Summary{}, err
	}
	sum := c.Summary()
	if err := se.svc.remove(c); err != nil {
		return history.Summary{}, &Error{Code: api.CodeInternal, Err: err}
	}
	se.current() // moves to a new conversation if this one was deleted
	return sum, nil
}

// List returns the saved conversations the session's principal sees,
// most recent first, preceded by the current one if it has not been saved
// yet.
func (se *Session) List() []history.Summary {
	list := se.svc.List(se.who)
	if c := se.current(); !c.Saved() {
		list = append([]history.Summary{c.Summary()}, list...)
	}
	return list
}

// Saved reports whether the current conversation is on disk (has a
// message or an upload).
func (se *Session) Saved() bool { return se.current().Saved() }

// MayDownload reports whether the session's principal may use a download
// token issued in conversation convID (Service.MayDownload).
func (se *Session) MayDownload(convID string) bool { return se.svc.MayDownload(se.who, convID) }

// Summary describes the current conversation.
func (se *Session) Summary() history.Summary { return se.current().Summary() }

// History returns the current conversation's messages and uploads.
func (se *Session) History() ([]history.Message, []history.Upload) {
	c := se.current()
	return c.Messages(), c.Uploads()
}

// Clear removes the current conversation's messages. A conversation
// without messages is left as it is: clearing one never saved does not
// save it (no empty conversation in the lists).
func (se *Session) Clear() error {
	if err := se.current().Clear(se.svc.cfg.Now()); err != nil {
		return &Error{Code: api.CodeInternal, Err: err}
	}
	return nil
}

// SetModel selects a configured model for the current conversation
// (persisted with it once it is saved); New carries it into the
// conversation the session starts next.
func (se *Session) SetModel(name string) error {
	if !slices.Contains(se.svc.cfg.Models, name) {
		return &Error{Code: api.CodeUnknownModel, Err: fmt.Errorf("unknown model %q (have %v)", name, se.svc.cfg.Models)}
	}
	if err := se.current().SetModel(name, se.svc.cfg.Now()); err != nil {
		return &Error{Code: api.CodeInternal, Err: err}
	}
	return nil
}

// BeginUpload validates upload metadata and opens its temp file. An
// upload past the current conversation's quota or the store's is refused
// with a *uploads.QuotaError before anything is stored.
func (se *Session) BeginUpload(name string, size int64, sha256 string) (*uploads.Pending, error) {
	if err := se.svc.cfg.Uploads.CheckSize(size); err != nil {
		return nil, err
	}
	if _, err := se.svc.checkUpload(se.current(), size, false); err != nil {
		return nil, err
	}
	return se.svc.cfg.Uploads.Begin(name, size, sha256)
}

// CommitUpload verifies and stores a complete upload, records it in the
// current conversation, calls confirm (if not nil) with the recorded
// upload and only then starts indexing it: a transport confirms the
// upload in confirm, so the index notice (SetIndexNotify) can never
// overtake the confirmation, however fast the indexer. On error nothing
// is kept and confirm is not called; an upload past the conversation's
// quota is refused with a *uploads.QuotaError.
func (se *Session) CommitUpload(p *uploads.Pending, confirm func(history.Upload)) (history.Upload, error) {
	conv := se.current()
	release, err := se.svc.checkUpload(conv, p.Size(), true)
	if err != nil {
		p.Abort()
		return history.Upload{}, err
	}
	defer release()
	r, err := p.Commit()
	if err != nil {
		return history.Upload{}, err
	}
	u := history.Upload{FileID: r.ID, Filename: r.Name, FilePath: r.Path, UploadedAt: se.svc.cfg.Now(), Size: r.Size, SHA256: r.SHA256}
	if err := conv.AddUpload(u); err != nil {
		if rerr := se.svc.cfg.Uploads.Remove(r.ID); rerr != nil {
			se.svc.log.Warn("removing unrecorded upload failed", zap.String("file_id", r.ID), zap.Error(rerr))
		}
		return history.Upload{}, &Error{Code: api.CodeInternal, Err: err}
	}
	se.mu.Lock()
	notify := se.notify
	se.mu.Unlock()
	if confirm != nil {
		confirm(u)
	}
	se.svc.index(conv, u, notify)
	return u, nil
}
