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
// id and title; one no conversation has stays as typed (the server
// answers it). A prefix several conversations share is an error that
// lists them, so nothing is asked. ok is false after that error was
// reported. Without a conversation list (an older server, a failed
// request) the ids stay as typed.
func (r *repl) resolveDelete(ctx context.Context, ids []string) (targets []deleteTarget, ok bool) {
	var list []client.SessionInfo
	r.do(ctx, func(ctx context.Context, c *client.Conn) error {
		list, _ = allSessions(ctx, c) // none: the ids stay as typed
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
		}
		targets = append(targets, t)
	}
	return targets, true
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
