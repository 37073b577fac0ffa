package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"opsassist/api"
	"opsassist/client"
)

// maxListedMatches bounds the conversations an ambiguous /switch or
// /delete lists; the answer says how many more there are.
const maxListedMatches = 10

// sessionCommand runs /switch ID or /delete ID…. A not_found answer for
// an id shorter than the server resolves (api.MinSessionPrefix) that is the
// prefix of one conversation is retried with that conversation's
// full id; for the prefix of several it lists them instead of saying
// "not found". /delete asks first, once for all its ids, naming the
// conversations they resolve to (resolveDelete; an ambiguous prefix is
// listed, not asked about), then deletes them in order, each answered
// on its own.
func (r *repl) sessionCommand(ctx context.Context, cmd, arg string) {
	ids := []string{arg}
	f := (*client.Conn).Switch
	if cmd == "delete" {
		f = (*client.Conn).Delete
		ids = strings.Fields(arg)
		for _, id := range ids {
			if len(id) < minDeletePrefix {
				var m []client.SessionInfo
				r.do(ctx, func(ctx context.Context, c *client.Conn) error {
					m = r.matchingSessions(ctx, c, id)
					return nil
				})
				if ctx.Err() == nil {
					r.fail(r.shortDeletePrefix(id, m))
				}
				return
			}
		}
		if r.askConfirm {
			// Resolve the prefixes first: the question names the full
			// ids and titles, and an ambiguous prefix is not asked about.
			targets, ok := r.resolveDelete(ctx, ids)
			if !ok || !r.confirmDestructive(ctx, r.deleteQuestion(targets)) {
				return
			}
			ids = ids[:0]
			for _, t := range targets {
				ids = append(ids, t.id)
			}
		}
	}
	for _, id := range ids {
		r.command(ctx, func(c *client.Conn, ctx context.Context) (client.Result, error) {
			res, err := f(c, ctx, id)
			if errors.Is(err, &client.ServerError{Code: api.CodeNotFound}) {
				switch m := r.matchingSessions(ctx, c, id); {
				case len(m) == 1 && len(id) < api.MinSessionPrefix:
					return f(c, ctx, m[0].SessionID)
				case len(m) > 1:
					return res, r.ambiguous(id, m)
				case cmd == "switch":
					return res, &hintedError{err: err, hint: r.cli.say("（/sessions 列出你的对话）", " (/sessions lists yours)")}
				}
			}
			return res, err
		})
		if ctx.Err() != nil {
			return
		}
	}
}

// matchingSessions returns the conversations whose id starts with
// prefix, or nil if they cannot be listed.
func (r *repl) matchingSessions(ctx context.Context, c *client.Conn, prefix string) []client.SessionInfo {
	list, err := allSessions(ctx, c)
	if err != nil {
		return nil
	}
	return withPrefix(list, prefix)
}

// allSessions lists every conversation, page by page (a whole list in
// one reply is cut to one frame: a prefix would not find those left
// out).
func allSessions(ctx context.Context, c *client.Conn) ([]client.SessionInfo, error) {
	sr, err := fetchSessions(ctx, c, "", true, "")
	return sr.list.Sessions, err
}

// minDeletePrefix is the fewest characters of an id /delete takes: a
// shorter prefix deletes nothing, even when one conversation has it,
// as the server resolves none shorter (api.MinSessionPrefix).
const minDeletePrefix = api.MinSessionPrefix

// shortDeletePrefix is the answer to a /delete id shorter than
// minDeletePrefix: how many characters to give, and the conversations
// that start with it.
func (r *repl) shortDeletePrefix(id string, m []client.SessionInfo) error {
	var b strings.Builder
	fmt.Fprintf(&b, r.cli.say("%q 太短：请至少给出 id 的 %d 个字符", "%q is too short: give at least %d characters of the id"), id, minDeletePrefix)
	if len(m) > 0 {
		b.WriteString(r.cli.say("；以它开头的对话：", "; conversations starting with it:"))
		r.listMatches(&b, m)
	}
	return &infoError{text: b.String()}
}

// withPrefix returns the conversations whose id starts with prefix.
func withPrefix(list []client.SessionInfo, prefix string) []client.SessionInfo {
	var m []client.SessionInfo
	for _, s := range list {
		if prefix != "" && strings.HasPrefix(s.SessionID, prefix) {
			m = append(m, s)
		}
	}
	return m
}

// ambiguous is the answer to a prefix several conversations share: not
// the user's error, so it is an infoError, shown as information with
// the matches.
func (r *repl) ambiguous(prefix string, m []client.SessionInfo) error {
	var b strings.Builder
	fmt.Fprintf(&b, r.cli.say("有 %[2]d 个对话的 id 以 %[1]q 开头，请给出更长的 id：", "%[2]d conversations start with %[1]q; give more of the id:"), prefix, len(m))
	r.listMatches(&b, m)
	return &infoError{text: b.String()}
}

// listMatches writes the first maxListedMatches of m, one a line, and
// how many more there are.
func (r *repl) listMatches(b *strings.Builder, m []client.SessionInfo) {
	for i, s := range m {
		if i == maxListedMatches {
			fmt.Fprintf(b, r.cli.say("\n  …还有 %d 个", "\n  … and %d more"), len(m)-i)
			break
		}
		fmt.Fprintf(b, "\n  %s  %s", s.SessionID, oneLine(r.cli.titleText(s.Title), 60))
	}
}

// infoError is a command's answer that stops it but is no failure (an
// ambiguous prefix): repl.fail shows it as an info line, not a red
// "error:" one.
type infoError struct{ text string }

func (e *infoError) Error() string { return e.text }

// hintedError is err with a hint that follows its text in the user's
// words (where to look next).
type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() + e.hint }
func (e *hintedError) Unwrap() error { return e.err }

// clear runs /clear after asking.
func (r *repl) clear(ctx context.Context) {
	if !r.confirmDestructive(ctx, r.cli.say("清空本对话的全部消息？", "clear all messages of this conversation?")) {
		return
	}
	r.command(ctx, (*client.Conn).Clear)
}

// confirmDestructive asks question with a y/N answer when the REPL asks
// (r.askConfirm: input on a terminal and no --yes) and reports whether
// to go ahead; without asking it goes ahead, as with --yes.
func (r *repl) confirmDestructive(ctx context.Context, question string) bool {
	if !r.askConfirm {
		return true
	}
	if r.confirm(ctx, question+" [y/N] ") {
		return true
	}
	r.info(r.cli.say("已取消", "not done"))
	return false
}

// rename runs /rename [TITLE]: names the current conversation; without
// TITLE its title goes back to its first message.
func (r *repl) rename(ctx context.Context, title string) {
	r.command(ctx, func(c *client.Conn, ctx context.Context) (client.Result, error) {
		res, err := c.Rename(ctx, title)
		if errors.Is(err, client.ErrRenameUnsupported) {
			return res, errors.New(r.cli.say("该服务器不支持重命名对话（版本较旧）", "this server cannot rename conversations (an older version)"))
		}
		return res, err
	})
}

// sessions runs /sessions [--all] [TEXT]: the newest conversations, or
// those whose title or messages contain TEXT, with a line saying how
// many more there are; --all lists every one (fetchSessions).
func (r *repl) sessions(ctx context.Context, arg string) {
	all, q := sessionsArgs(strings.Fields(arg))
	r.do(ctx, func(ctx context.Context, c *client.Conn) error {
		sr, err := fetchSessions(ctx, c, q, all, "")
		if errors.Is(err, client.ErrSearchUnsupported) {
			return errors.New(r.cli.say("该服务器不支持搜索对话（版本较旧）；/sessions 可列出全部对话", "this server cannot search conversations (an older version); /sessions lists them all"))
		}
		if err != nil {
			return err
		}
		r.rememberSessions(sr.list)
		r.printf("%s\n", r.cli.sessionsListText(sr, q, true))
		return nil
	})
}
