package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"opsassist/client"
)

// deleteTarget is one id of /delete as resolved before asking: the full
// id and its title when the conversation list names it, else the id as
// typed (title "").
type deleteTarget struct{ id, title string }

// label names t in the question: the id, and the title in quotes.
func (t deleteTarget) label() string {
	if t.title == "" {
		return t.id
	}
	return t.id + " " + strconv.Quote(oneLine(t.title, 40))
}

// resolveDelete resolves /delete's ids before the question is asked:
// an id or prefix one conversation has becomes that conversation's full
// id and title; one no conversation has is reported at once ("找不到对话
// zzzz") and left out, so nobody is asked about a conversation that is
// not there (the walk-through asked "删除对话 zzzz 及其全部消息？" and
// only then said not found). A prefix several conversations share is an
// error that lists them, so nothing is asked. ok is false when nothing
// is left to ask about. Without a conversation list (an older server, a
// failed request) the ids stay as typed and the server answers them.
func (r *repl) resolveDelete(ctx context.Context, ids []string) (targets []deleteTarget, ok bool) {
	var list []client.SessionInfo
	listed, current := false, ""
	r.do(ctx, func(ctx context.Context, c *client.Conn) error {
		current = c.SessionID()
		var err error
		list, err = allSessions(ctx, c)
		listed = err == nil // none: the ids stay as typed
		return nil
	})
	if ctx.Err() != nil {
		return nil, false
	}
	for _, id := range ids {
		t := deleteTarget{id: id}
		m := withPrefix(list, id)
		for _, s := range m {
			if s.SessionID == id { // a full id that is also a prefix of others
				m = []client.SessionInfo{s}
				break
			}
		}
		switch {
		case len(m) == 1:
			t = deleteTarget{id: m[0].SessionID, title: m[0].Title}
		case len(m) > 1:
			r.fail(r.ambiguous(id, m))
			return nil, false
		case listed && id != current:
			r.errorf("%s", fmt.Sprintf(r.cli.say("找不到对话 %s（/sessions 列出你的对话）", "conversation not found: %s (/sessions lists yours)"), id))
			continue
		}
		targets = append(targets, t)
	}
	return targets, len(targets) > 0
}

// deleteQuestion is /delete's y/N question, naming each conversation by
// its full id and title.
func (r *repl) deleteQuestion(targets []deleteTarget) string {
	if len(targets) == 1 {
		return fmt.Sprintf(r.cli.say("删除对话 %s 及其全部消息？", "delete conversation %s and all its messages?"), targets[0].label())
	}
	labels := make([]string, len(targets))
	for i, t := range targets {
		labels[i] = t.label()
	}
	return fmt.Sprintf(r.cli.say("删除 %d 个对话（%s）及其全部消息？", "delete %d conversations (%s) and all their messages?"), len(targets), strings.Join(labels, ", "))
}
