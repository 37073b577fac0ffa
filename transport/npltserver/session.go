package npltserver

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"opsassist/api"
	"opsassist/internal/runecut"
	"opsassist/nplt"
	"opsassist/storage/history"
)

// Session commands. Each reply is a RESULT frame (HELLO clients) and text.

// handleSessionList lists the conversations (empty payload), those
// matching a search (JSON {"q"}), or a page of either ({"limit",
// "before"}: listPage).
func (c *conn) handleSessionList(f nplt.Frame) bool {
	if len(bytes.TrimSpace(f.Payload)) == 0 {
		return c.enqueue(func(context.Context) { c.replySessionList(c.sess.List(), "", nil) })
	}
	if len(f.Payload) > maxSessionList {
		return c.enqueueError(api.CodeTooLarge, fmt.Sprintf("SESSION_LIST payload over %d bytes", maxSessionList))
	}
	var p nplt.SessionSearch
	if err := unmarshalStrict(f.Payload, &p); err != nil {
		return c.enqueueError(api.CodeBadJSON, `SESSION_LIST wants an empty payload or JSON {"q","limit","before"}`)
	}
	q := strings.TrimSpace(p.Q)
	if len(q) > maxSearchQuery {
		return c.enqueueError(api.CodeBadRequest, fmt.Sprintf("search text longer than %d bytes", maxSearchQuery))
	}
	page, err := parseListPage(p)
	if err != nil {
		return c.enqueueError(api.CodeBadRequest, err.Error())
	}
	return c.enqueue(func(context.Context) {
		if q == "" {
			c.replySessionList(c.sess.List(), "", page)
			return
		}
		list, _ := c.srv.cfg.Chat.Search(c.sess.Principal(), q, 0)
		c.replySessionList(list, q, page)
	})
}

// maxSearchQuery bounds a SESSION_LIST search.
const maxSearchQuery = 256

// maxSessionList bounds a SESSION_LIST payload: a search, a limit and a
// cursor.
const maxSessionList = 1 << 10

// maxListPage bounds SESSION_LIST's limit, as GET /api/sessions's.
const maxListPage = 500

// listPage is a requested page of SESSION_LIST: at most limit
// conversations after from (nil: from the start).
type listPage struct {
	limit int
	from  *history.Cursor
}

// parseListPage reads a SESSION_LIST's limit and before; nil when it
// asks for no page (the whole list, as before paging existed).
func parseListPage(p nplt.SessionSearch) (*listPage, error) {
	if p.Limit == 0 && p.Before == "" {
		return nil, nil
	}
	if p.Limit < 0 || p.Limit > maxListPage {
		return nil, fmt.Errorf("limit must be a number from 1 to %d", maxListPage)
	}
	lp := &listPage{limit: p.Limit}
	if p.Before != "" {
		c, err := history.ParseCursor(p.Before)
		if err != nil {
			return nil, fmt.Errorf(`before: not a cursor from a SESSION_LIST's "next"`)
		}
		lp.from = &c
	}
	return lp, nil
}

// replySessionList sends list; q is the search that chose it, if any;
// page, if any, cuts it (in history.Compare's order) and the RESULT
// carries "next", the cursor of the following page.
func (c *conn) replySessionList(list []history.Summary, q string, page *listPage) {
	cur := c.sess.ID()
	total := len(list)
	var next *history.Cursor
	if page != nil {
		history.Sort(list)
		list, next = history.Page(list, page.from, page.limit)
	}
	var b strings.Builder
	if q == "" {
		b.WriteString("=== 会话列表 Sessions ===\n")
	} else {
		fmt.Fprintf(&b, "=== 会话列表 Sessions: %q ===\n", q)
		if total == 0 {
			b.WriteString("(没有匹配的会话 no matching sessions)\n")
		}
	}
	for i, s := range list {
		mark := ""
		if s.ID == cur {
			mark = " (当前 current)"
		}
		fmt.Fprintf(&b, "%d. [%s] %s%s\n   消息数 messages: %d, 上传 uploads: %d, 最后访问 updated: %s\n",
			i+1, s.ID[:8], title(s), mark, s.Messages, s.Uploads, s.UpdatedAt.Local().Format(time.DateTime))
	}
	if next != nil {
		fmt.Fprintf(&b, "(还有更多 more: %d/%d)\n", len(list), total)
	}
	c.result("session_list", fitResult("session_list", len(list), func(k int) any {
		d := map[string]any{"current": cur, "sessions": nonNil(list[:k]), "total": total, "truncated": k < len(list)}
		switch {
		case page != nil && k > 0 && k < len(list):
			d["next"] = history.CursorAt(list[k-1]).String() // the page did not fit one frame
		case next != nil && k == len(list):
			d["next"] = next.String()
		}
		return d
	}, jsonSizes(list)), b.String())
}

func (c *conn) replySessionNew(context.Context) {
	s := c.sess.New()
	c.result("session", sessionResult{s, "new", nil}, "已创建新会话 New session: "+s.ID)
}

func (c *conn) handleSessionSwitch(f nplt.Frame) bool {
	id, ok := sessionRef(f.Payload)
	if !ok {
		return c.enqueueError(api.CodeBadJSON, `SESSION_SWITCH wants JSON {"session_id"}`)
	}
	return c.enqueue(func(context.Context) {
		s, err := c.sess.Switch(id)
		if err != nil {
			c.replyError(chatError(err))
			return
		}
		// The model belongs to the conversation: the switch reports it.
		s.Model = c.sess.Model()
		c.result("session", sessionResult{s, "switch", nil}, fmt.Sprintf("已切换到会话 Switched to session: [%s] %s\n模型 Model: %s", s.ID[:8], title(s), s.Model))
	})
}

func (c *conn) handleSessionDelete(f nplt.Frame) bool {
	id, ok := sessionRef(f.Payload)
	if !ok {
		return c.enqueueError(api.CodeBadJSON, `SESSION_DELETE wants JSON {"session_id"}`)
	}
	return c.enqueue(func(context.Context) {
		s, err := c.sess.Delete(id)
		if err != nil {
			c.replyError(chatError(err))
			return
		}
		c.result("session", sessionResult{c.sess.Summary(), "delete", &deletedRef{s.ID, s.Title}}, fmt.Sprintf("已删除会话 Deleted session: [%s] %s; 当前会话 current: %s", s.ID[:8], title(s), c.sess.ID()[:8]))
	})
}

func (c *conn) replyHistory(context.Context) {
	data, text := c.history()
	c.result("history", data, text)
}

// history returns the current conversation's history as a RESULT's data
// and as text.
func (c *conn) history() (any, string) {
	msgs, ups := c.sess.History()
	var b strings.Builder
	b.WriteString("=== 对话历史 History ===\n")
	for _, m := range msgs {
		switch {
		case m.Role == "user":
			fmt.Fprintf(&b, "\n用户 user: %s\n", m.Content)
		case m.Role == "assistant" && m.Cancelled:
			fmt.Fprintf(&b, "\n助手 assistant: %s（已取消 cancelled）\n", m.Content)
		case m.Role == "assistant" && m.Content != "":
			fmt.Fprintf(&b, "\n助手 assistant: %s\n", m.Content)
		}
	}
	if len(msgs) == 0 {
		b.WriteString("(空 empty)\n")
	}
	for _, u := range ups {
		fmt.Fprintf(&b, "\n📎 %s (file_id: %s, %d bytes)\n", u.Filename, u.FileID, u.Size)
	}
	// The RESULT carries the newest messages that fit one frame, each cut
	// to resultContent bytes; the text reply above has everything.
	short := make([]history.Message, len(msgs))
	for i, m := range msgs {
		m.Content = cutBytes(m.Content, resultContent)
		short[i] = m
	}
	// Uploads, newest last, get at most half the frame; messages the rest.
	upsShown := len(ups) - countFitting(reversed(jsonSizes(ups)), nplt.MaxPayload/2)
	ups = ups[upsShown:]
	id := c.sess.ID()
	return fitResult("history", len(short), func(k int) any {
		return map[string]any{"session_id": id, "messages": nonNil(short[len(short)-k:]), "uploads": nonNil(ups),
			"total": len(short), "truncated": k < len(short), "uploads_total": upsShown + len(ups)}
	}, reversed(jsonSizes(short))), b.String()
}

func (c *conn) replyClear(context.Context) {
	if err := c.sess.Clear(); err != nil {
		c.replyError(chatError(err))
		return
	}
	c.result("cleared", map[string]any{"session_id": c.sess.ID()}, "会话已清空 History cleared.")
}

// handleModelSwitch selects the current conversation's model (payload:
// name as text or JSON {"model"}; persisted with the conversation) or,
// with an empty payload, lists the models.
func (c *conn) handleModelSwitch(f nplt.Frame) bool {
	name := strings.TrimSpace(string(f.Payload))
	if strings.HasPrefix(name, "{") {
		var m nplt.ModelRequest
		if err := unmarshalStrict(f.Payload, &m); err != nil {
			return c.enqueueError(api.CodeBadJSON, `MODEL_SWITCH wants a model name or JSON {"model"}`)
		}
		name = m.Model
	}
	return c.enqueue(func(context.Context) {
		if name != "" {
			if err := c.sess.SetModel(name); err != nil {
				c.replyError(chatError(err))
				return
			}
		}
		models := c.srv.cfg.Chat.Models()
		details := c.srv.cfg.Chat.ModelDetails()
		current := c.sess.Model()
		var b strings.Builder
		if name != "" {
			fmt.Fprintf(&b, "已切换模型 Model switched to: %s\n", name)
		}
		b.WriteString(modelTable(details, current))
		c.result("models", map[string]any{"current": current, "models": models, "details": details}, b.String())
	})
}

// resultContent caps each message's content in a history RESULT.
const resultContent = 4096

// fitResult returns build(k) for the largest k ≤ n whose RESULT frame
// fits MaxPayload. sizes are the JSON sizes of the items in the order
// build takes them; they give a first guess, which is then checked
// against the real encoding, so a long list is encoded only a few times.
func fitResult(kind string, n int, build func(k int) any, sizes []int) any {
	fits := func(k int) bool {
		b, err := marshal(nplt.ResultPayload{Kind: kind, Data: build(k)})
		return err == nil && len(b) <= nplt.MaxPayload
	}
	if fits(n) {
		return build(n)
	}
	empty, _ := marshal(nplt.ResultPayload{Kind: kind, Data: build(0)})
	k := countFitting(sizes, nplt.MaxPayload-len(empty))
	for k > 0 && !fits(k) {
		k = k * 9 / 10
	}
	return build(k)
}

// countFitting returns how many items, taken in order, fit in budget bytes
// as the elements of a JSON array.
func countFitting(sizes []int, budget int) int {
	total := 0
	for i, s := range sizes {
		total += s + 1 // the comma
		if total > budget {
			return i
		}
	}
	return len(sizes)
}

// jsonSizes returns the encoded size of each item.
func jsonSizes[T any](items []T) []int {
	sizes := make([]int, len(items))
	for i, it := range items {
		b, err := marshal(it)
		if err != nil {
			sizes[i] = nplt.MaxPayload // never fits
			continue
		}
		sizes[i] = len(b)
	}
	return sizes
}

// reversed returns s in reverse order.
func reversed(s []int) []int {
	out := make([]int, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// cutBytes shortens s to at most n bytes on a rune boundary, marking the
// cut.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return runecut.Head(s, n) + "…[truncated]"
}

// sessionRef reads a session id from JSON {"session_id"} or plain text.
func sessionRef(p []byte) (string, bool) {
	s := strings.TrimSpace(string(p))
	if strings.HasPrefix(s, "{") {
		var r nplt.SessionRef
		if err := unmarshalStrict(p, &r); err != nil {
			return "", false
		}
		s = strings.TrimSpace(r.SessionID)
	}
	return s, s != ""
}

func title(s history.Summary) string {
	if s.Title == "" {
		return "新会话 new session"
	}
	return s.Title
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// sessionResult is a session command's RESULT data: the current
// conversation's summary, and what the command did — "new", "switch",
// "rename" or "delete" (with the deleted conversation), so a client
// words the result itself instead of reading the text.
type sessionResult struct {
	history.Summary
	Action  string      `json:"action"`
	Deleted *deletedRef `json:"deleted,omitempty"`
}

// deletedRef names a deleted conversation.
type deletedRef struct {
	SessionID string `json:"session_id"`
	Title     string `json:"title"`
}
