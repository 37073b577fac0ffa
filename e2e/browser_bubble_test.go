package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/tools"
	"opsassist/transport/web"
)

// fixedSystem is a sys_monitor for GET /api/system that reports the
// same figures every time.
type fixedSystem struct{}

func (fixedSystem) Spec() tools.Spec {
	return tools.Spec{Name: "sys_monitor", Risk: tools.RiskReadOnly}
}

func (fixedSystem) Run(context.Context, *tools.Call, json.RawMessage) (any, error) {
	return map[string]any{"cpu": map[string]any{"usage_percent": 12.5}}, nil
}

// outsideAgent offers a download that expires at 20:05:08 today (a time
// a 12-hour clock would write "8:05:08 PM"), then asks to run `ls ..`
// as the policy asks about a path outside the allowed directories, and
// answers with the outcome.
type outsideAgent struct{ expires time.Time }

// outsideReason is the policy's reason for `ls ..` in each language
// (tools/policy byDefault).
var outsideReason = api.Text{
	Zh: ".. 在允许的目录之外，读取前需要确认。",
	En: "..: outside the allowed directories; reading needs your confirmation.",
}

func (a outsideAgent) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	if err := r.Offer(api.Offer{TransportMode: api.TransportHTTP, DownloadToken: "tok", DownloadURL: "/api/files/download/tok",
		Filename: "report.txt", FileSize: 2048, ExpiresAt: a.expires.Format(time.RFC3339)}); err != nil {
		return nil, err
	}
	if err := r.Status(api.StatusToolCall, "command_executor ls .."); err != nil {
		return nil, err
	}
	c, err := r.Confirm(ctx, chat.Confirmation{ToolCallID: "call-ls", Tool: "command_executor",
		Args: json.RawMessage(`{"command":"ls","args":[".."]}`), Risk: "read_only",
		Reason: outsideReason.Both(), ReasonText: outsideReason})
	if err != nil {
		return nil, err
	}
	text := fmt.Sprintf("ls allowed=%v", c.Allowed)
	if err := r.Delta(text); err != nil {
		return nil, err
	}
	return []history.Message{{Role: "assistant", Content: text, Time: t.Now}}, nil
}

// emptyBubbleJS is true when no answer bubble shows without text.
const emptyBubbleJS = `![...document.querySelectorAll(".msg.assistant .bubble")].some((b) => b.getClientRects().length > 0 && !b.innerText.trim())`

// TestBrowserSecondWalk, in Chinese and English at 1400×900 and
// 390×844: while a permission card waits there is no empty answer
// bubble under it, nor after it is answered until the answer's text
// comes; times are 24-hour HH:MM:SS in both languages (the offer's
// expiry, the system panel's clock, a session grant's time,
// OpsI18n.fmtTime); the card's reason
// shows the path `..` it starts with in a code span; the sidebar's
// scrollbars are dark, and the empty one-line composer has none.
func TestBrowserSecondWalk(t *testing.T) {
	t.Parallel()
	now := time.Now()
	expires := time.Date(now.Year(), now.Month(), now.Day(), 20, 5, 8, 0, time.Local).Add(24 * time.Hour)
	for _, lang := range languages {
		for _, vp := range viewports {
			t.Run(lang.name+"-"+vp.name, func(t *testing.T) {
				t.Parallel()
				base, _ := serveWeb(t, outsideAgent{expires: expires}, web.Config{System: fixedSystem{}})
				b := startBrowser(t)
				noScriptErrors(t, b)
				if err := chromedp.Do(b.ctx,
					setLanguage(lang.accept),
					chromedp.EmulateViewport(vp.w, vp.h),
					chromedp.Navigate(base+"/"),
					chromedp.WaitVisible(chromedp.ID("input")),
				); err != nil {
					b.fail("opening the page", err)
				}
				// The empty composer, one line high, has no scrollbar; the
				// sidebar's scrollbars are dark, not the default white.
				b.waitFor("the composer and sidebar scrollbars", `(() => {
					const i = document.getElementById("input"), s = getComputedStyle(document.getElementById("sidebar"));
					return getComputedStyle(i).overflowY === "hidden" && i.scrollHeight <= i.clientHeight + 1 &&
						/75, 85, 99/.test(s.scrollbarColor) && getComputedStyle(document.getElementById("sessions")).scrollbarColor === s.scrollbarColor; })()`)
				// One time format, in both languages.
				b.waitFor("fmtTime", `OpsI18n.fmtTime(new Date(2026, 0, 2, 20, 5, 8)) === "20:05:08" &&
					OpsI18n.fmtTime(new Date(2026, 0, 2, 8, 5, 8), true) === "2026-01-02 08:05:08" && OpsI18n.fmtTime("not a time") === ""`)
				b.waitFor("the system panel's clock", `/^\d\d:\d\d:\d\d$/.test(document.getElementById("sys-time").innerText.trim())`)
				if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("input"), "ls ..\n")); err != nil {
					b.fail("asking", err)
				}
				// The card waits: no empty bubble beneath it.
				b.waitFor("the pending card, without an empty bubble", `(() => {
					const c = document.querySelector('.card-permission.pending[data-tool-call-id="call-ls"]');
					return !!c && document.querySelector(".msg.assistant").classList.contains("streaming") && `+emptyBubbleJS+`; })()`)
				// The offer's expiry: 20:05:08, not 8:05:08 PM.
				b.waitFor("the offer's expiry in 24-hour time", `(() => {
					const e = document.querySelector(".offer .muted.small");
					return !!e && /20:05:08$/.test(e.innerText.trim()) && !/AM|PM|上午|下午/.test(e.innerText); })()`)
				// The reason names the path in a code span, first.
				want := outsideReason.En
				if lang.name == "zh" {
					want = outsideReason.Zh
				}
				b.waitFor("the path in a code span", `(() => {
					const v = document.querySelector('.card-permission[data-tool-call-id="call-ls"] .card-reason');
					if (!v) return false;
					const first = v.firstChild;
					return v.textContent === `+jsString(want)+` && first.nodeName === "CODE" && first.classList.contains("card-path") &&
						first.textContent === ".." && v.querySelectorAll("code").length === 1; })()`)
				b.waitFor("no emoji", noEmojiJS)
				b.shot("web-secondwalk-pending-" + lang.name + "-" + vp.name + ".png")
				if err := chromedp.Do(b.ctx, chromedp.Click(`.card-permission.pending button[data-decision="allow_session"]`)); err != nil {
					b.fail("allowing", err)
				}
				// Answered: still no empty bubble, and the answer's text shows.
				b.waitFor("the answered card and the answer", `(() => {
					const c = document.querySelector('.card-permission.answered[data-tool-call-id="call-ls"]');
					const m = document.querySelector(".msg.assistant:not(.streaming) .bubble");
					return !!c && !!m && m.innerText.includes("ls allowed=true") && `+emptyBubbleJS+`; })()`)
				b.waitFor("one language", `(() => { const bad = `+bilingualJS+`; return bad.length === 0; })()`)
				// The grant's time: date and 24-hour time.
				if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("grants-toggle"))); err != nil {
					b.fail("opening the grants", err)
				}
				b.waitFor("the grant's time", `(() => { const g = document.querySelector("#grants .grant-scope");
					return !!g && /^command_executor · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(g.title); })()`)
				b.shot("web-secondwalk-answered-" + lang.name + "-" + vp.name + ".png")
			})
		}
	}
}

// TestBrowserReasonPaths: the card's reason puts each path of the call
// that it names as a word of its own in a code span, and nothing else:
// not a path inside a longer word, not a full stop after it.
func TestBrowserReasonPaths(t *testing.T) {
	t.Parallel()
	base, _ := serveWeb(t, outsideAgent{expires: time.Now().Add(time.Hour)}, web.Config{})
	b := startBrowser(t)
	noScriptErrors(t, b)
	if err := chromedp.Do(b.ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("input"))); err != nil {
		b.fail("opening the page", err)
	}
	cases := []struct{ reason, paths, want string }{
		{"..: outside.", `[".."]`, "[..]: outside."},
		{"/etc, /var/log: outside; /etc/x stays.", `["/etc", "/var/log"]`, "[/etc], [/var/log]: outside; /etc/x stays."},
		{"a/etc and /etc.", `["/etc"]`, "a/etc and [/etc]."},
		{"<b>/x</b>", `["/x"]`, "<b>/x</b>"},
		{"no paths here", `[]`, "no paths here"},
	}
	for _, c := range cases {
		got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`OpsCards.withPaths(`+jsString(c.reason)+`, `+c.paths+`).map((n) =>
			n.nodeName === "CODE" ? "[" + n.textContent + "]" : n.textContent).join("")`))
		if err != nil {
			b.fail("withPaths "+c.reason, err)
		}
		if got != c.want {
			t.Errorf("withPaths(%q, %s) = %q, want %q", c.reason, c.paths, got, c.want)
		}
	}
}
