package web

import (
	"container/list"
	"net/http"
	"slices"
	"sync"

	"opsassist/server/chat"
	"opsassist/storage/history"
)

// sessionCache holds one chat.Session per conversation the web has
// touched, least recently used first out. A cached session stays on its
// conversation: the HTTP layer never switches it.
type sessionCache struct {
	svc *chat.Service
	max int

	mu    sync.Mutex
	byID  map[string]*list.Element // value: *chat.Session
	order *list.List               // front: most recently used
}

func newSessionCache(svc *chat.Service, max int) *sessionCache {
	return &sessionCache{svc: svc, max: max, byID: make(map[string]*list.Element), order: list.New()}
}

// create starts a new conversation and caches its session.
func (c *sessionCache) create() *chat.Session {
	se := c.svc.NewSession("web")
	c.put(se.ID(), se)
	return se
}

// get returns the session of conversation id (or a unique prefix of it).
// A conversation deleted elsewhere is not found.
func (c *sessionCache) get(id string) (*chat.Session, error) {
	c.mu.Lock()
	if el, ok := c.byID[id]; ok {
		se := el.Value.(*chat.Session)
		if se.ID() == id {
			c.order.MoveToFront(el)
			c.mu.Unlock()
			return se, nil
		}
		// Deleted by another client: the session moved on.
		c.order.Remove(el)
		delete(c.byID, id)
	}
	c.mu.Unlock()
	se := c.svc.NewSession("web")
	sum, err := se.Switch(id)
	if err != nil {
		return nil, err
	}
	return c.put(sum.ID, se), nil
}

// put caches se as the session of id, unless another request did first,
// whose session it returns.
func (c *sessionCache) put(id string, se *chat.Session) *chat.Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[id]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*chat.Session)
	}
	c.byID[id] = c.order.PushFront(se)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		for k, el := range c.byID {
			if el == last {
				delete(c.byID, k)
				break
			}
		}
	}
	return se
}

// forget drops a deleted conversation.
func (c *sessionCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[id]; ok {
		c.order.Remove(el)
		delete(c.byID, id)
	}
}

// unsaved returns the summaries of cached conversations that have no
// message or upload yet, newest first.
func (c *sessionCache) unsaved(saved []history.Summary) []history.Summary {
	c.mu.Lock()
	var sess []*chat.Session
	for el := c.order.Front(); el != nil; el = el.Next() {
		sess = append(sess, el.Value.(*chat.Session))
	}
	c.mu.Unlock()
	var out []history.Summary
	for _, se := range sess {
		sum := se.Summary()
		if !slices.ContainsFunc(saved, func(s history.Summary) bool { return s.ID == sum.ID }) {
			out = append(out, sum)
		}
	}
	return out
}

// sessionView is a session in API replies: its summary and model.
type sessionView struct {
	history.Summary
	Model string `json:"model"`
}

func view(se *chat.Session) sessionView {
	return sessionView{Summary: se.Summary(), Model: se.Model()}
}

// handleListSessions lists conversations: the web's new, empty ones
// first, then every saved one, most recent first.
func (s *Server) handleListSessions(w http.ResponseWriter, r *http.Request) {
	saved := s.cfg.Chat.List()
	list := append(s.sessions.unsaved(saved), saved...)
	if list == nil {
		list = []history.Summary{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": list, "total": len(list)})
}

// handleNewSession starts a conversation, optionally with a model
// ({"model"}).
func (s *Server) handleNewSession(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string `json:"model"`
	}
	if err := s.decodeJSON(w, r, &req, true); err != nil {
		s.writeError(w, r, err)
		return
	}
	se := s.cfg.Chat.NewSession("web")
	if req.Model != "" {
		if err := se.SetModel(req.Model); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	s.sessions.put(se.ID(), se)
	writeJSON(w, http.StatusCreated, view(se))
}

// session returns the session named by the {id} path value.
func (s *Server) session(r *http.Request) (*chat.Session, error) {
	return s.sessions.get(r.PathValue("id"))
}

// handleGetSession describes one conversation.
func (s *Server) handleGetSession(w http.ResponseWriter, r *http.Request) {
	se, err := s.session(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, view(se))
}

// handleDeleteSession deletes a conversation and its uploads.
func (s *Server) handleDeleteSession(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if se, err := s.sessions.get(id); err == nil && s.isUnsaved(se) {
		// Never saved: nothing on disk, only the cache knows it.
		s.sessions.forget(se.ID())
		writeJSON(w, http.StatusOK, map[string]any{"deleted": se.Summary()})
		return
	}
	sum, err := s.cfg.Chat.NewSession("web").Delete(id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.sessions.forget(sum.ID)
	writeJSON(w, http.StatusOK, map[string]any{"deleted": sum})
}

// isUnsaved reports whether se's conversation is not on disk yet.
func (s *Server) isUnsaved(se *chat.Session) bool {
	id := se.ID()
	return !slices.ContainsFunc(s.cfg.Chat.List(), func(sum history.Summary) bool { return sum.ID == id })
}

// handleHistory returns a conversation's messages and uploads.
func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request) {
	se, err := s.session(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	msgs, ups := se.History()
	if msgs == nil {
		msgs = []history.Message{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"session_id": se.ID(), "messages": msgs, "uploads": fileViews(ups)})
}

// handleClear empties a conversation's messages.
func (s *Server) handleClear(w http.ResponseWriter, r *http.Request) {
	se, err := s.session(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := se.Clear(); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, view(se))
}

// handleSetModel selects the model of a conversation ({"model"}).
func (s *Server) handleSetModel(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string `json:"model"`
	}
	if err := s.decodeJSON(w, r, &req, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	se, err := s.session(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := se.SetModel(req.Model); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, view(se))
}
