package web

import (
	"container/list"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
)

// sessionCache holds one chat.Session per conversation and principal
// the web has touched, least recently used first out. A cached session
// stays on its conversation: the HTTP layer never switches it. Entries
// are keyed by principal and conversation, so one principal never gets
// a session another opened.
type sessionCache struct {
	svc *chat.Service
	max int

	mu    sync.Mutex
	byKey map[cacheKey]*list.Element // value: *chat.Session
	order *list.List                 // front: most recently used
}

// cacheKey names a cached session.
type cacheKey struct{ who, conv string }

func newSessionCache(svc *chat.Service, max int) *sessionCache {
	return &sessionCache{svc: svc, max: max, byKey: make(map[cacheKey]*list.Element), order: list.New()}
}

// create starts a new conversation owned by who and caches its session.
func (c *sessionCache) create(who chat.Principal) *chat.Session {
	se := c.svc.NewSession(api.ClientWeb, who)
	c.put(se.ID(), se)
	return se
}

// get returns who's session of conversation id (or a unique prefix of
// it). A conversation deleted elsewhere, or one who may not see, is not
// found.
func (c *sessionCache) get(who chat.Principal, id string) (*chat.Session, error) {
	k := cacheKey{who.ID, id}
	c.mu.Lock()
	if el, ok := c.byKey[k]; ok {
		se := el.Value.(*chat.Session)
		if se.ID() == id {
			c.order.MoveToFront(el)
			c.mu.Unlock()
			return se, nil
		}
		// Deleted by another client: the session moved on.
		c.order.Remove(el)
		delete(c.byKey, k)
	}
	c.mu.Unlock()
	se := c.svc.NewSession(api.ClientWeb, who)
	sum, err := se.Switch(id)
	if err != nil {
		return nil, err
	}
	return c.put(sum.ID, se), nil
}

// put caches se as its principal's session of id, unless another request
// did first, whose session it returns.
func (c *sessionCache) put(id string, se *chat.Session) *chat.Session {
	k := cacheKey{se.Principal().ID, id}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[k]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*chat.Session)
	}
	c.byKey[k] = c.order.PushFront(se)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		for k, el := range c.byKey {
			if el == last {
				delete(c.byKey, k)
				break
			}
		}
	}
	return se
}

// forget drops a deleted conversation, for every principal.
func (c *sessionCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, el := range c.byKey {
		if k.conv == id {
			c.order.Remove(el)
			delete(c.byKey, k)
		}
	}
}

// unsaved returns the summaries of who's cached conversations that have
// no message or upload yet, newest first.
func (c *sessionCache) unsaved(who chat.Principal, saved []history.Summary) []history.Summary {
	c.mu.Lock()
	var sess []*chat.Session
	for el := c.order.Front(); el != nil; el = el.Next() {
		if se := el.Value.(*chat.Session); se.Principal().ID == who.ID {
			sess = append(sess, se)
		}
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

// handleListSessions lists conversations, the web's new, empty ones
// among them, most recently updated first (history.Compare). ?q=TEXT
// keeps those whose title or messages contain TEXT
// (chat.Service.Search); ?limit=N and ?before=CURSOR page the list
// (listPage), "next" naming the following page.
func (s *Server) handleListSessions(w http.ResponseWriter, r *http.Request) {
	who := s.principal(r)
	query := r.URL.Query()
	page, err := parsePage(query)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	reply := map[string]any{}
	var list []history.Summary
	if q := strings.TrimSpace(query.Get("q")); q != "" {
		if len(q) > maxQuery {
			s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, fmt.Sprintf("q longer than %d bytes", maxQuery)))
			return
		}
		var complete bool
		list, complete = s.cfg.Chat.Search(who, q, s.cfg.SearchBytes)
		reply["complete"] = complete
	} else {
		saved := s.cfg.Chat.List(who)
		list = append(s.sessions.unsaved(who, saved), saved...)
	}
	history.Sort(list) // the order the page cursor walks
	reply["total"] = len(list)
	list, next, err := page.apply(list)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if list == nil {
		list = []history.Summary{}
	}
	reply["sessions"] = list
	if next != "" {
		reply["next"] = next
	}
	writeJSON(w, http.StatusOK, reply)
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
	se := s.cfg.Chat.NewSession(api.ClientWeb, s.principal(r))
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
	return s.sessions.get(s.principal(r), r.PathValue("id"))
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

// handleRenameSession sets a conversation's title: {"title": "…"}; ""
// restores the title derived from the first message.
func (s *Server) handleRenameSession(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Title *string `json:"title"`
	}
	if err := s.decodeJSON(w, r, &req, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Title == nil {
		s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, `request body needs a "title" string`))
		return
	}
	se, err := s.session(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if _, err := se.Rename(*req.Title); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, view(se))
}

// handleDeleteSession deletes a conversation and its uploads.
func (s *Server) handleDeleteSession(w http.ResponseWriter, r *http.Request) {
	sum, err := s.deleteSession(s.principal(r), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"deleted": sum})
}

// deleteSession deletes who's conversation id (or unique prefix): a
// never saved one from the cache only, a saved one with its uploads.
func (s *Server) deleteSession(who chat.Principal, id string) (history.Summary, error) {
	if se, err := s.sessions.get(who, id); err == nil && !se.Saved() {
		// Never saved: nothing on disk, only the cache knows it.
		s.sessions.forget(se.ID())
		return se.Summary(), nil
	}
	sum, err := s.cfg.Chat.NewSession(api.ClientWeb, who).Delete(id)
	if err != nil {
		return history.Summary{}, err
	}
	s.sessions.forget(sum.ID)
	return sum, nil
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
