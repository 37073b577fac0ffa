package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/tools"
)

// chatRequest is the body of POST /api/chat.
type chatRequest struct {
	Message    string `json:"message"`
	SessionID  string `json:"session_id"`
	ClientType string `json:"client_type"`
}

// handleChat runs one chat turn and streams its events as SSE. Errors
// found before the stream starts (bad JSON, unknown session) are plain
// JSON errors; later ones are an "error" event before "end". A client
// that goes away cancels the turn — unless the turn is waiting for the
// user's answer (a permission request or question pending, or being
// sent): then the turn is detached (detached.go) and keeps waiting, so
// that a reloaded page can list the request (GET
// /api/sessions/{id}/pending) and answer it, and runs on to its end
// unseen, its answer saved in the history. The handler returns at once,
// so the departed client's connection is not counted as busy. Detached
// turns are bounded (MaxDetachedPerPrincipal, MaxDetached); over a bound
// the turn is cancelled. Stop (POST …/cancel) and shutdown still end it.
func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if err := s.decodeJSON(w, r, &req, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	if strings.TrimSpace(req.Message) == "" {
		s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, `"message" is required`))
		return
	}
	if err := chat.CheckMessage(req.Message); err != nil {
		s.writeError(w, r, errorf(http.StatusRequestEntityTooLarge, api.CodeTooLarge, chat.Message(err)))
		return
	}
	switch req.ClientType {
	case "":
		req.ClientType = api.ClientWeb
	case api.ClientWeb, api.ClientCLI, api.ClientDesktop:
	default:
		s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, `"client_type" must be web, cli or desktop`))
		return
	}
	who := s.principal(r)
	var se *chat.Session
	if req.SessionID == "" {
		se = s.sessions.create(who)
	} else {
		var err error
		if se, err = s.sessions.get(who, req.SessionID); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	se.SetClientType(req.ClientType)
	s.cfg.Observer.ChatStarted(transportName)

	// The turn's context outlives the request's only while it waits for
	// a person (detached); otherwise the client's leaving cancels it.
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	stopBase := context.AfterFunc(s.base, cancel) // a shutdown out of time stops a detached turn too
	sse := newSSEWriter(w, s.cfg.StallTimeout)
	t := &webTurn{detachedCh: make(chan struct{})}
	leave := func() bool { // the client is gone: stop the turn, or detach it
		if se.HasPending() && t.detach(s.detached, who.ID, sse) {
			s.log.Debug("chat client left while a request waits for an answer; the turn goes on", zap.String("session", se.ID()))
			return false
		}
		if !t.isDetached() {
			cancel()
		}
		return true
	}
	stopWatch := context.AfterFunc(r.Context(), func() { leave() })
	stopPing := s.keepAlive(ctx, sse)
	emit := func(e chat.Event) error {
		if t.isDetached() {
			return nil // nobody reads the stream; the history keeps the answer
		}
		if err := sse.event(string(e.Kind), s.eventData(e)); err != nil {
			if leave() && !t.isDetached() {
				return err
			}
			return nil
		}
		return nil
	}
	done := make(chan error, 1)
	go func() {
		err := s.runTurn(sse, se.ID(), req.Message, func() error { return se.Chat(ctx, req.Message, emit) })
		stopWatch()
		stopPing()
		stopBase()
		cancel()
		if !t.finish() {
			done <- err
			return
		}
		s.logTurnEnd(se.ID(), err, true)
		s.detached.release(who.ID)
	}()
	select {
	case err := <-done:
		if err != nil && (errors.Is(err, context.Canceled) || r.Context().Err() != nil) {
			s.log.Debug("chat stream ended by the client", zap.String("session", se.ID()))
			return
		}
		s.logTurnEnd(se.ID(), err, false)
	case <-t.detachedCh:
		// The turn goes on without this handler; the stream is closed to
		// it (sseWriter.close), so nothing writes to w after we return.
	}
}

// logTurnEnd logs a turn's failure: chat errors were sent as an error
// event (a detached turn's are logged, since nobody saw them).
func (s *Server) logTurnEnd(session string, err error, detached bool) {
	if err == nil {
		return
	}
	var ce *chat.Error
	switch {
	case detached && errors.Is(err, context.Canceled):
		s.log.Info("detached chat turn cancelled", zap.String("session", session))
	case detached:
		s.log.Warn("detached chat turn failed", zap.String("session", session), zap.Error(err))
	case !errors.As(err, &ce):
		s.log.Info("chat turn failed", zap.String("session", session), zap.Error(err))
	}
}

// runTurn runs turn through endOnPanic, also catching the
// http.ErrAbortHandler it re-panics, since the turn runs in a goroutine
// of its own where a panic would end the process.
func (s *Server) runTurn(sse *sseWriter, session, msg string, turn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("chat turn aborted", zap.String("session", session), zap.Any("panic", p))
			err = &chat.Error{Code: api.CodeInternal, Err: fmt.Errorf("web: chat turn aborted: %v", p)}
		}
	}()
	return s.endOnPanic(sse, session, msg, turn)
}

// webTurn is the state one chat handler shares with its turn's
// goroutine: whether the turn was detached from the handler, and whether
// it finished, decided once under mu.
type webTurn struct {
	detachedCh chan struct{} // closed when detached

	mu       sync.Mutex
	detached bool
	finished bool
}

// detach hands the turn over to the server when a place among detached
// turns is free (d.admit) and the turn has not finished: it closes sse
// to the turn's writes and signals the handler to return. It reports
// whether the turn is (now or already) detached.
func (t *webTurn) detach(d *detachedTurns, principal string, sse *sseWriter) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.detached {
		return true
	}
	if t.finished || !d.admit(principal) {
		return false
	}
	sse.close()
	t.detached = true
	close(t.detachedCh)
	return true
}

func (t *webTurn) isDetached() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.detached
}

// finish marks the turn finished and reports whether it was detached
// (then the handler is gone and the turn's goroutine releases its
// place).
func (t *webTurn) finish() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.finished = true
	return t.detached
}

// endOnPanic runs turn, a chat turn streaming to sse. A panic that
// escapes it (the chat core recovers the agent's own) is logged with its
// stack and ends the stream with an "error" event (code internal, in the
// language of msg) and "end", never a silently cut stream.
func (s *Server) endOnPanic(sse *sseWriter, session, msg string, turn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.log.Error("chat turn panicked", zap.String("session", session), zap.Any("panic", p), zap.Stack("stack"))
			info := chat.ErrorInfo{Code: api.CodeInternal, Message: "internal error: the request failed on the server and was logged"}
			if chat.IsChinese(msg) {
				info.Message = "内部错误：请求未能完成，问题已记录在服务器日志中。"
			}
			if sse.event(string(chat.KindError), info) == nil {
				sse.event(string(chat.KindEnd), map[string]string{})
			}
			err = &chat.Error{Code: api.CodeInternal, Err: fmt.Errorf("web: chat turn panicked: %v", p)}
		}
	}()
	return turn()
}

// keepAlive writes an SSE comment every Config.KeepAlive until stop is
// called. A panic while pinging is logged with its stack and stops the
// pings; the turn and its stream go on.
func (s *Server) keepAlive(ctx context.Context, sse *sseWriter) (stop func()) {
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("sse keep-alive panicked", zap.Any("panic", p), zap.Stack("stack"))
			}
		}()
		t := time.NewTicker(s.cfg.KeepAlive)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				if sse.comment("keep-alive") != nil {
					return
				}
			case <-done:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() { close(done); <-exited }
}

// statusEvent is a status event's data: the chat.Status and its content
// in each language when tools.StatusTexts knows it.
type statusEvent struct {
	*chat.Status
	ContentZh string `json:"content_zh,omitempty"`
	ContentEn string `json:"content_en,omitempty"`
}

// eventData is the "data" JSON of one SSE event: the event's own payload
// without the envelope, since "event:" already names its type.
func (s *Server) eventData(e chat.Event) any {
	switch e.Kind {
	case chat.KindStreamStart:
		return map[string]string{"session_id": e.SessionID}
	case chat.KindStatus:
		if e.Status != nil {
			// content_zh and content_en: the status in each language, for
			// the page to show in its own (the agent words it in the
			// question's).
			st := statusEvent{Status: e.Status}
			if t, ok := tools.StatusTexts(e.Status.Type, e.Status.Content); ok {
				st.ContentZh, st.ContentEn = t.Zh, t.En
			}
			return st
		}
	case chat.KindDelta:
		return map[string]string{"text": e.Text}
	case chat.KindOffer:
		if e.Offer != nil {
			o := *e.Offer
			if o.DownloadURL == "" && o.DownloadToken != "" {
				o.DownloadURL = "/api/files/download/" + o.DownloadToken
			}
			return o
		}
	case chat.KindError:
		if e.Error != nil {
			return e.Error
		}
	case chat.KindPermissionRequest:
		if e.Permission != nil {
			return e.Permission
		}
	case chat.KindQuestion:
		if e.Question != nil {
			return e.Question
		}
	}
	return map[string]string{}
}
