package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"opsassist/client"
)

// Conversation lists (/sessions, opsassist sessions).
const (
	// sessionsShown is how many conversations a list shows without
	// --all: the newest.
	sessionsShown = 20
	// sessionsPageMax is the page size --all and the count of the rest
	// ask for (SESSION_LIST's largest limit).
	sessionsPageMax = 500
)

// sessionsArgs splits /sessions' arguments into --all and the search
// text; after "--" every argument is text, as the subcommands' flag
// parsing (parseArgs) has it: "/sessions -- --all" searches for "--all".
func sessionsArgs(args []string) (all bool, q string) {
	var words []string
	for i, a := range args {
		switch a {
		case "--all", "-all":
			all = true
			continue
		case "--":
			words = append(words, args[i+1:]...)
			return all, strings.Join(words, " ")
		}
		words = append(words, a)
	}
	return all, strings.Join(words, " ")
}

// sessionsResult is a conversation list as shown: the conversations,
// and how many more there are (more; plus: at least that many).
type sessionsResult struct {
	list client.SessionList
	more int
	plus bool
}

// fetchSessions lists the conversations, those whose title or messages
// contain q if q is not empty: the newest sessionsShown, with the count
// of the others, or all of them with all. It pages with SESSION_LIST's
// limit and before where the server can, else cuts the whole list.
// skip, if not "", is a conversation left out (and not counted) while
// it is empty: the one-shot command's own fresh conversation.
func fetchSessions(ctx context.Context, c *client.Conn, q string, all bool, skip string) (sessionsResult, error) {
	limit := sessionsShown
	if all {
		limit = sessionsPageMax
	} else if skip != "" {
		limit++ // room for the one left out
	}
	first, err := sessionsPage(ctx, c, q, limit, "")
	if errors.Is(err, client.ErrPagingUnsupported) {
		return wholeSessions(ctx, c, q, all, skip)
	}
	if err != nil {
		return sessionsResult{}, err
	}
	first.Sessions = withoutEmpty(first.Sessions, skip)
	sr := sessionsResult{list: first}
	if n := len(first.Sessions); !all && n > sessionsShown {
		sr.list.Sessions, sr.more = first.Sessions[:sessionsShown], n-sessionsShown
	}
	seen := map[string]bool{first.Next: true}
	for next := first.Next; next != ""; {
		page, err := sessionsPage(ctx, c, q, sessionsPageMax, next)
		if err != nil {
			return sessionsResult{}, err
		}
		page.Sessions = withoutEmpty(page.Sessions, skip)
		if !all {
			// Only counted: one page of the rest.
			sr.more, sr.plus = sr.more+len(page.Sessions), page.Next != ""
			break
		}
		sr.list.Sessions = append(sr.list.Sessions, page.Sessions...)
		if next = page.Next; seen[next] {
			break // a server repeating its cursor: stop
		}
		seen[next] = true
	}
	sr.list.Next = ""
	return sr, nil
}

// sessionsPage is one page of the list, decoded.
func sessionsPage(ctx context.Context, c *client.Conn, q string, limit int, before string) (client.SessionList, error) {
	res, err := c.SessionsPage(ctx, q, limit, before)
	if err != nil {
		return client.SessionList{}, err
	}
	var l client.SessionList
	if err := res.Decode(&l); err != nil {
		return client.SessionList{}, fmt.Errorf("%w: conversation list: %w", client.ErrProtocol, err)
	}
	return l, nil
}

// wholeSessions is fetchSessions for a server that cannot page (an
// older version): the whole list, cut to the newest sessionsShown
// without all.
func wholeSessions(ctx context.Context, c *client.Conn, q string, all bool, skip string) (sessionsResult, error) {
	var (
		res client.Result
		err error
	)
	if q == "" {
		res, err = c.Sessions(ctx)
	} else {
		res, err = c.SearchSessions(ctx, q)
	}
	if err != nil {
		return sessionsResult{}, err
	}
	var sr sessionsResult
	if err := res.Decode(&sr.list); err != nil {
		return sessionsResult{}, fmt.Errorf("%w: conversation list: %w", client.ErrProtocol, err)
	}
	sr.list.Sessions = withoutEmpty(sr.list.Sessions, skip)
	if n := len(sr.list.Sessions); !all && n > sessionsShown {
		sr.list.Sessions, sr.more = sr.list.Sessions[:sessionsShown], n-sessionsShown
	}
	return sr, nil
}

// withoutEmpty is list without the conversation id while it has no
// message and no upload (id "": list as it is).
func withoutEmpty(list []client.SessionInfo, id string) []client.SessionInfo {
	if id == "" {
		return list
	}
	return slices.DeleteFunc(list, func(s client.SessionInfo) bool {
		return s.SessionID == id && s.Messages == 0 && s.Uploads == 0
	})
}

// moreSessions is the line under a cut list: how many more there are
// and how to see them, in the REPL (/sessions) or one-shot (opsassist
// sessions); "" when none are left out.
func (c *CLI) moreSessions(sr sessionsResult, q string, repl bool) string {
	if sr.more == 0 {
		return ""
	}
	cmd := pick(repl, "/sessions", "opsassist sessions")
	n := fmt.Sprint(sr.more)
	if sr.plus {
		n += "+"
	}
	if q != "" {
		return fmt.Sprintf(c.say("还有 %s 个匹配的对话：%s --all %s 列出全部", "%s more: %s --all %s lists them all"), n, cmd, q)
	}
	return fmt.Sprintf(c.say("还有 %s 个对话：%s --all 列出全部，%s TEXT 按内容查找", "%s more: %s --all or %s TEXT"), n, cmd, cmd)
}

// sessionsListText is a fetched list as shown, with the line about the
// rest.
func (c *CLI) sessionsListText(sr sessionsResult, q string, repl bool) string {
	t := c.sessionsText(sr.list, q)
	if m := c.moreSessions(sr, q, repl); m != "" {
		t += "\n" + m
	}
	return t
}

// runSessions runs "opsassist sessions [--all] [--json] [TEXT]": the
// conversations as /sessions lists them.
func (c *CLI) runSessions(ctx context.Context, cfg cliConfig, args []string) int {
	fs := c.flagSet("sessions", &cfg)
	fs.BoolVar(&cfg.json, "json", cfg.json, "")
	all := fs.Bool("all", false, "")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(fs, err)
	}
	// parseArgs took the flags, --all among them wherever it stood, and
	// left what follows "--" as text: rest is the search text.
	q := strings.Join(rest, " ")
	// A script reading --json gets every conversation: a list cut to
	// the newest 20 would look whole.
	*all = *all || cfg.json
	ctx, stop := c.interruptible(ctx)
	defer stop()
	// The list needs no conversation: a --session that is gone must not
	// fail it, and the unsaved new one leaves nothing behind.
	dc := cfg
	dc.session = ""
	conn, err := client.Dial(ctx, cfg.server, c.options(dc))
	if err != nil {
		c.dialError(dc, err)
		return ExitError
	}
	defer c.closeConn(conn)
	// This connection's own fresh conversation is no conversation of
	// the user's: left out while it is empty.
	sr, err := fetchSessions(ctx, conn, q, *all, conn.SessionID())
	if errors.Is(err, client.ErrSearchUnsupported) {
		err = errors.New(c.say("该服务器不支持搜索对话（版本较旧）；opsassist sessions 可列出全部对话",
			"this server cannot search conversations (an older version); opsassist sessions lists them all"))
	}
	if err != nil {
		c.printf(c.stderr(), "opsassist: sessions: %s\n", c.friendly(err, cfg.server, cfg.debug))
		return ExitError
	}
	if cfg.json {
		jl := newJSONLines(c.stdout())
		sr.list.Current = "" // this command's own, unsaved conversation
		jl.encode(sr.list)
		err = jl.error()
	} else {
		sr.list.Current = ""
		_, err = fmt.Fprintf(c.stdout(), "%s\n", c.sessionsListText(sr, q, false))
	}
	if err != nil {
		c.printf(c.stderr(), "opsassist: writing output: %v\n", err)
		return ExitError
	}
	return ExitOK
}
