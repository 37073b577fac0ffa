package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
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
// sent): then it keeps waiting, so that a reloaded page can list the
// request (GET /api/sessions/{id}/pending) and answer it, and runs on to
// its end unseen, its answer saved in the history. Stop
// (POST …/cancel), the request's deadline and shutdown still end it.
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
	var se *chat.Session
	if req.SessionID == "" {
		se = s.sessions.create(s.principal(r))
	} else {
		var err error
		if se, err = s.sessions.get(s.principal(r), req.SessionID); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	se.SetClientType(req.ClientType)
	s.cfg.Observer.ChatStarted(transportName)

	// The turn's context outlives the request's only while it waits for
	// a person (detached); otherwise the client's leaving cancels it.
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	var detached atomic.Bool
	leave := func() bool { // the client is gone: stop the turn, or detach
		if se.HasPending() {
			if !detached.Swap(true) {
				s.log.Debug("chat client left while a request waits for an answer; the turn goes on", zap.String("session", se.ID()))
			}
			return false
		}
		cancel()
		return true
	}
	stopWatch := context.AfterFunc(r.Context(), func() { leave() })
	defer stopWatch()
	stopBase := context.AfterFunc(s.base, cancel) // a shutdown out of time stops a detached turn too
	defer stopBase()
	sse := newSSEWriter(w, s.cfg.StallTimeout)
	stopPing := s.keepAlive(ctx, sse)
	defer stopPing()
	emit := func(e chat.Event) error {
		if detached.Load() {
			return nil // nobody reads the stream; the history keeps the answer
		}
		if err := sse.event(string(e.Kind), s.eventData(e)); err != nil {
			if leave() {
				return err
			}
			return nil
		}
		return nil
	}
	err := s.endOnPanic(sse, se.ID(), req.Message, func() error { return se.Chat(ctx, req.Message, emit) })
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled), r.Context().Err() != nil, detached.Load():
		s.log.Debug("chat stream ended by the client", zap.String("session", se.ID()))
	default:
		var ce *chat.Error
		if !errors.As(err, &ce) { // chat errors were sent as an error event
			s.log.Info("chat turn failed", zap.String("session", se.ID()), zap.Error(err))
		}
	}
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

// eventData is the "data" JSON of one SSE event: the event's own payload
// without the envelope, since "event:" already names its type.
func (s *Server) eventData(e chat.Event) any {
	switch e.Kind {
	case chat.KindStreamStart:
		return map[string]string{"session_id": e.SessionID}
	case chat.KindStatus:
		if e.Status != nil {
			return e.Status
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
