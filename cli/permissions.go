package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/runecut"
)

// Permission requests in the CLI: the REPL asks y (once) / a (this
// session) / n; "opsassist ask" asks on a terminal, allows once with
// --yes and otherwise denies; /permissions lists and revokes grants.

// PermissionPrompt renders a permission request for people, in Chinese
// when zh (the CLI's locale, CLI.chinese) and in English otherwise: the
// tool, its arguments, risk, the reason in that language and the time
// left. The choices follow (permissionChoices).
func PermissionPrompt(p api.PermissionRequest, now time.Time, zh bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "⚠ %s%s %s\n", pick(zh, "需要确认：", "permission needed: "), p.Tool, shortArgs(p.Args))
	fmt.Fprintf(&b, "  %s%s", pick(zh, "风险：", "risk: "), riskLabel(p.Risk, zh))
	if why := permissionReason(p, zh); why != "" {
		fmt.Fprintf(&b, " · %s%s", pick(zh, "原因：", "reason: "), why)
	}
	if exp, err := time.Parse(time.RFC3339, p.ExpiresAt); err == nil {
		fmt.Fprintf(&b, " · %s%s", pick(zh, "剩余：", "time left: "), max(exp.Sub(now), 0).Truncate(time.Second))
	}
	b.WriteString("\n")
	return b.String()
}

// permissionReason is the request's reason in the user's language: its
// reason_zh or reason_en, or, from a server that sends neither, the
// combined reason.
func permissionReason(p api.PermissionRequest, zh bool) string {
	if why := (api.Text{Zh: p.ReasonZh, En: p.ReasonEn}).In(zh); why != "" {
		return why
	}
	return p.Reason
}

// riskLabel is a risk level for people: in Chinese when zh, the level's
// own name otherwise and for a level this CLI does not know.
func riskLabel(risk string, zh bool) string {
	if !zh {
		return risk
	}
	switch risk {
	case "read_only":
		return "只读"
	case "sensitive":
		return "敏感"
	case "dangerous":
		return "危险"
	}
	return risk
}

// permissionChoices is the question after a PermissionPrompt.
func permissionChoices(zh bool) string {
	return pick(zh, "  [y] 允许一次 · [a] 本对话允许 · [n] 拒绝 > ",
		"  [y] allow once · [a] allow for this conversation · [n] deny > ")
}

// decisionOf maps an answer to a decision: y/yes/是 allow once, a/always
// allow for the conversation, anything else (n, no answer) deny.
func decisionOf(answer string) string {
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes", "是", "1":
		return api.DecisionAllowOnce
	case "a", "always", "session", "总是", "2":
		return api.DecisionAllowSession
	}
	return api.DecisionDeny
}

// decisionLine says what was answered.
func decisionLine(d string, zh bool) string {
	switch d {
	case api.DecisionAllowOnce:
		return pick(zh, "→ 已允许一次", "→ allowed once")
	case api.DecisionAllowSession:
		return pick(zh, "→ 本对话已允许", "→ allowed for this conversation")
	}
	return pick(zh, "→ 已拒绝", "→ denied")
}

// oneLine flattens s to one line of at most n bytes.
// maxArg is the longest argument string a permission prompt shows
// whole; a longer one keeps its head and tail around "…".
const maxArg = 120

// shortArgs renders a call's JSON arguments on one line with every
// string value longer than maxArg cut to its head and tail, so each
// argument, the second path after a 60 KB first one included, stays
// visible. Arguments that are not JSON are cut at 300 bytes.
func shortArgs(raw []byte) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return oneLine(string(raw), 300)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(shortValues(v)); err != nil {
		return oneLine(string(raw), 300)
	}
	return oneLine(b.String(), b.Len())
}

// shortValues cuts every long string inside v (see shortArgs).
func shortValues(v any) any {
	switch x := v.(type) {
	case string:
		if len(x) > maxArg {
			return runecut.Head(x, maxArg*2/3) + "…" + runecut.Tail(x, maxArg/3)
		}
	case []any:
		for i := range x {
			x[i] = shortValues(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = shortValues(x[k])
		}
	}
	return v
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = runecut.Head(s, n) + "…" // never half a character
	}
	return s
}

// askPermission answers a permission request in the REPL, on its input.
func (r *repl) askPermission(ctx context.Context, c *client.Conn, tr *textRenderer, p api.PermissionRequest) {
	tr.endLine()
	zh := r.cli.chinese()
	r.printf("%s", PermissionPrompt(p, r.cli.now()(), zh))
	d := api.DecisionDeny
	if r.lines != nil {
		choices := permissionChoices(zh)
		if !r.outTTY {
			r.printf("%s\n", strings.TrimSpace(choices))
		}
		if answer, err := r.lines.readLine(ctx, choices); err == nil {
			d = decisionOf(answer)
		}
	}
	r.info(decisionLine(d, zh))
	if err := c.AnswerPermission(p.RequestID, d); err != nil {
		r.errorf("%s: %s", r.cli.say("回答权限请求失败", "answering the permission request"), r.cli.friendly(err, r.cfg.server, r.cfg.debug))
	}
}

// permissions runs /permissions [revoke ID].
func (r *repl) permissions(ctx context.Context, arg string) {
	sub, id, _ := strings.Cut(arg, " ")
	id = strings.TrimSpace(id)
	switch {
	case sub == "" || sub == "list":
	case sub == "revoke" && id != "":
	default:
		r.errorf("usage: /permissions [revoke ID]")
		return
	}
	r.do(ctx, func(ctx context.Context, c *client.Conn) error {
		var gs []client.Grant
		var err error
		if sub == "revoke" {
			gs, err = c.RevokeGrant(ctx, id)
		} else {
			gs, err = c.Grants(ctx)
		}
		if err != nil {
			return err
		}
		zh := r.cli.chinese()
		if sub == "revoke" {
			r.info(pick(zh, "已撤销 ", "revoked ") + id)
		}
		r.printf("%s", GrantsText(gs, zh))
		return nil
	})
}

// GrantsText lists grants, one per line, or says there are none, in
// Chinese when zh.
func GrantsText(gs []client.Grant, zh bool) string {
	if len(gs) == 0 {
		return pick(zh, "本对话没有授权\n", "no permissions granted in this conversation\n")
	}
	var b strings.Builder
	for _, g := range gs {
		fmt.Fprintf(&b, "%s  %s  (%s)\n", g.ID, g.Scope, g.GrantedAt.Local().Format(time.DateTime))
	}
	b.WriteString(pick(zh, "/permissions revoke ID 撤销一项\n", "/permissions revoke ID revokes one\n"))
	return b.String()
}

// askAnswerer answers permission requests for "opsassist ask": --yes
// allows once; on a terminal the user is asked on stderr; otherwise the
// call is denied.
type askAnswerer struct {
	conn *client.Conn
	yes  bool
	tty  bool
	zh   bool // the CLI's locale is Chinese (CLI.chinese)
	// friendly words an error for people (CLI.friendly); nil: its text.
	friendly func(error) string
	in       *bufio.Reader
	errw     io.Writer
	now      func() time.Time
	ctx      context.Context
	lines    chan string
}

func (c *CLI) newAskAnswerer(ctx context.Context, conn *client.Conn, yes bool) *askAnswerer {
	return &askAnswerer{conn: conn, yes: yes, tty: isTerminal(c.Stdin), zh: c.chinese(), in: bufio.NewReader(c.stdin()), errw: c.stderr(), now: c.now(), ctx: ctx}
}

// handle answers ev if it is a permission request.
func (a *askAnswerer) handle(ev client.Event) {
	if ev.Type != client.EventPermission {
		return
	}
	p := ev.Permission
	fmt.Fprint(a.errw, PermissionPrompt(p, a.now(), a.zh))
	d := api.DecisionDeny
	switch {
	case a.yes:
		d = api.DecisionAllowOnce
		fmt.Fprintln(a.errw, pick(a.zh, "  --yes：已允许一次", "  --yes: allowed once"))
	case a.tty:
		fmt.Fprint(a.errw, permissionChoices(a.zh))
		d = decisionOf(a.readLine())
	default:
		fmt.Fprintln(a.errw, pick(a.zh, "  标准输入不是终端，已拒绝；用 --yes 允许", "  stdin is not a terminal: denied (use --yes to allow)"))
	}
	if a.tty && !a.yes {
		fmt.Fprintln(a.errw, decisionLine(d, a.zh))
	}
	answer := a.conn.AnswerPermission
	if !a.yes && !a.tty {
		// Nobody was asked: the answer says so, not "the user said no".
		answer = func(id, _ string) error { return a.conn.DenyUnasked(id) }
	}
	if err := answer(p.RequestID, d); err != nil {
		fmt.Fprintf(a.errw, "opsassist: %s: %s\n", pick(a.zh, "回答权限请求失败", "answering the permission request"), a.errText(err))
	}
}

// readLine reads one line of stdin, or "" once ctx ends (Ctrl-C).
func (a *askAnswerer) readLine() string {
	if a.lines == nil {
		a.lines = make(chan string, 1)
	}
	go func() {
		s, _ := a.in.ReadString('\n')
		a.lines <- s
	}()
	select {
	case s := <-a.lines:
		return s
	case <-a.ctx.Done():
		return ""
	}
}

// errText is err for people: through friendly, when set.
func (a *askAnswerer) errText(err error) string {
	if a.friendly == nil {
		return err.Error()
	}
	return a.friendly(err)
}
