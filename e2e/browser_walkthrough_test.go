package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"opsassist/agent"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/transport/web"
)

// languages are the browser languages the page is tested in: its first
// language picks the page's one language.
var languages = []struct{ name, accept string }{{"zh", "zh-CN,zh;q=0.9"}, {"en", "en-US,en;q=0.9"}}

// setLanguage makes the browser's language accept (its Accept-Language
// header and navigator.language(s)), keeping its user agent.
func setLanguage(accept string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		ua, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.userAgent`))
		if err != nil {
			return err
		}
		_, err = cdp.Call(ctx, tg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: accept})
		return err
	})
}

// bilingualJS is a script that lists the page's labels — its visible
// text outside the conversation's own content (what was asked, answered
// and what tools printed) and every title, aria-label and placeholder —
// that show both languages: Chinese characters beside an English word.
// Product and key names (opsassist, builtin, CPU, Enter, Shift, MD,
// JSON, sha256) are no English words.
const bilingualJS = `(() => {
	const names = /\b(opsassist|builtin|CPU|Enter|Shift|MD|JSON|sha256|[KMGTP]i?B)\b/g;
	const both = (s) => { s = String(s || "").replace(names, ""); return /\p{Script=Han}/u.test(s) && /[A-Za-z]{2,}/.test(s); };
	const content = ".msg.user .bubble, .msg.assistant .bubble, .status-lines li > span, .full-output pre, .session .title, .session .meta, .card-body";
	const bad = [];
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const e = n.parentElement;
		if (!e || e.closest(content) || e.closest("script, style")) continue;
		if (both(n.textContent)) bad.push(n.textContent.trim());
	}
	for (const e of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
		if (e.closest(".msg.user .bubble, .msg.assistant .bubble, .card-body, .session")) continue; // named by what was asked
		for (const a of ["title", "aria-label", "placeholder"]) if (e.hasAttribute(a) && both(e.getAttribute(a))) bad.push(a + "=" + e.getAttribute(a));
	}
	if (both(document.title)) bad.push("title " + document.title);
	return bad;
})()`

// tableJS checks the page's string table: every entry has both
// languages, the Chinese one with Chinese characters and the English
// one without; it returns the keys that do not.
const tableJS = `(() => {
	const bad = [];
	for (const [k, v] of Object.entries(OpsI18n.strings)) {
		if (!Array.isArray(v) || v.length !== 2 || !v[0] || !v[1]) { bad.push(k); continue; }
		if (!/\p{Script=Han}/u.test(v[0]) || /\p{Script=Han}/u.test(v[1])) bad.push(k);
	}
	return bad;
})()`

// walkAgent answers each question after two tool calls, one that
// succeeded and one that failed (code denied_by_rule), reported live and
// recorded in the conversation the way the tools record them; its answer
// has a code block (a copy button) and names the question.
type walkAgent struct{}

const walkFailed = `{"success":false,"error":"command failed: denied by rule","code":"denied_by_rule","duration_ms":1}`

func (walkAgent) Respond(_ context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	tr, _ := r.(chat.ToolResulter)
	for _, step := range []func() error{
		func() error { return r.Status(api.StatusToolCall, "sys_monitor {}") },
		func() error { return tr.ToolResult("sys_monitor done (3 ms)", true, "") },
		func() error { return r.Status(api.StatusToolCall, `command_executor {"command":"rm"}`) },
		func() error { return tr.ToolResult("command_executor failed: denied by rule", false, "denied_by_rule") },
		func() error { return r.Delta("answer to " + t.Input + "\n\n```sh\nuptime\n```\n") },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return []history.Message{
		{Role: "assistant", ToolCalls: []history.ToolCall{{ID: "c1", Name: "sys_monitor", Arguments: `{}`}}, Time: t.Now},
		{Role: "tool", ToolCallID: "c1", Name: "sys_monitor", Content: `{"success":true,"output":{"cpu":1},"duration_ms":3}`, Time: t.Now},
		{Role: "assistant", ToolCalls: []history.ToolCall{{ID: "c2", Name: "command_executor", Arguments: `{"command":"rm"}`}}, Time: t.Now},
		{Role: "tool", ToolCallID: "c2", Name: "command_executor", Content: walkFailed, Time: t.Now},
		{Role: "assistant", Content: "answer to " + t.Input + "\n\n```sh\nuptime\n```\n", Time: t.Now},
	}, nil
}

// TestBrowserOneLanguage, in a Chinese and an English browser at
// 1400×900 and 390×844: the page, its cards' strings, the grants panel,
// a reply with tool steps and a copy button, and the login form speak
// the browser's language alone (<html lang> set to match, no label in
// both languages); the string table has both languages for every entry;
// on a phone the composer's placeholder is the short one and fits on its
// line; sizes are IEC with one decimal (one formatter).
func TestBrowserOneLanguage(t *testing.T) {
	t.Parallel()
	for _, lang := range languages {
		for _, vp := range viewports {
			t.Run(lang.name+"-"+vp.name, func(t *testing.T) {
				t.Parallel()
				base := startAgentWeb(t, walkAgent{})
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
				wantLang := map[string]string{"zh": "zh-CN", "en": "en"}[lang.name]
				b.waitFor("the page's language", `document.documentElement.lang === `+jsString(wantLang)+` && OpsI18n.zh === `+map[string]string{"zh": "true", "en": "false"}[lang.name])
				if bad, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](tableJS)); err != nil || len(bad) > 0 {
					b.fail("the string table", errorsOf(err, "entries without both languages: "+strings.Join(bad, ", ")))
				}
				if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("input"), "check the disk\n")); err != nil {
					b.fail("asking", err)
				}
				b.waitFor("the answer with its copy button", `(() => { const m = document.querySelector(".msg.assistant:not(.streaming)");
					return !!m && !!m.querySelector(".copy-btn") && m.querySelectorAll(".status").length === 4 && document.querySelectorAll("#sessions li").length === 1; })()`)
				if vp.name == "desktop" {
					if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("grants-toggle"))); err != nil {
						b.fail("opening the grants", err)
					}
					b.waitFor("the grants panel", `!document.getElementById("grants-panel").hidden`)
				}
				// Every label of the page and its cards, in one language.
				if bad, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](bilingualJS)); err != nil || len(bad) > 0 {
					b.fail("one language", errorsOf(err, "labels in both languages: "+strings.Join(bad, " | ")))
				}
				cardsJS := `(() => { const post = () => Promise.resolve({});
					const p = OpsCards.permission({request_id: "r", tool: "command_executor", risk: "dangerous", reason_zh: "原因", reason_en: "why", args: {command: "rm"}, expires_at: new Date(Date.now() + 60000).toISOString()}, {session: "s", post: post, skew: 0});
					const q = OpsCards.question({request_id: "q", question: "?", kind: "confirm", default: "no", allow_custom: true, expires_at: new Date(Date.now() + 60000).toISOString()}, {session: "s", post: post, skew: 0});
					const box = document.createElement("div"); box.id = "probe-cards"; box.append(p.el, q.el); document.getElementById("messages").append(box);
					return box.innerText; })()`
				if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](cardsJS)); err != nil {
					b.fail("building cards", err)
				}
				if bad, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](strings.Replace(bilingualJS, `, .card-body";`, `";`, 1))); err != nil || len(bad) > 0 {
					b.fail("one language on the cards", errorsOf(err, "labels in both languages: "+strings.Join(bad, " | ")))
				}
				if lang.name == "en" {
					b.waitFor("no Chinese on an English page", `!/\p{Script=Han}/u.test(document.body.innerText + document.title)`)
				} else {
					b.waitFor("Chinese labels", `document.getElementById("send").innerText === "发送" && document.querySelector("#probe-cards .card-permission .card-title").innerText.includes("需要你的许可")`)
				}
				b.shot("web-one-language-" + lang.name + "-" + vp.name + ".png")

				// The placeholder: the short one on a phone, whole on its line.
				b.waitFor("the placeholder fits", `(() => {
					const i = document.getElementById("input");
					const want = OpsI18n.t(innerWidth <= 760 ? "placeholder_short" : "placeholder");
					if (i.placeholder !== want) return false;
					const cs = getComputedStyle(i);
					const c = document.createElement("canvas").getContext("2d");
					c.font = cs.fontStyle + " " + cs.fontWeight + " " + cs.fontSize + " " + cs.fontFamily;
					const room = i.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
					return c.measureText(want).width <= room; })()`)

				// One size format: IEC units, one decimal.
				b.waitFor("IEC sizes", `OpsI18n.fmtBytes(80000000) === "76.3 MiB" && OpsI18n.fmtBytes(1023) === "1023 B" && OpsI18n.fmtBytes(1024) === "1.0 KiB" &&
					OpsI18n.fmtBytes(1048575) === "1.0 MiB" && OpsI18n.fmtBytes(5 * 1024 * 1024 * 1024) === "5.0 GiB"`)

				// The login form, in the same language.
				if err := chromedp.Do(b.ctx, chromedp.Navigate(base+"/login"), chromedp.WaitVisible(chromedp.CSS("input[name=token]"))); err != nil {
					b.fail("opening the login form", err)
				}
				b.waitFor("the login form's language", `document.documentElement.lang === `+jsString(wantLang)+` && document.querySelector("button[type=submit]").innerText.length > 0 &&
					`+map[string]string{"zh": `/\p{Script=Han}/u.test(document.body.innerText)`, "en": `!/\p{Script=Han}/u.test(document.body.innerText + document.title)`}[lang.name])
				if bad, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](bilingualJS)); err != nil || len(bad) > 0 {
					b.fail("one language on the login form", errorsOf(err, "labels in both languages: "+strings.Join(bad, " | ")))
				}
				b.shot("web-login-" + lang.name + "-" + vp.name + ".png")
			})
		}
	}
}

// errorsOf is err, or else an error saying what.
func errorsOf(err error, what string) error {
	if err != nil {
		return err
	}
	return &textError{what}
}

type textError struct{ s string }

func (e *textError) Error() string { return e.s }

// TestBrowserFailedToolReloaded, at 1400×900 and 390×844: a failed tool
// call has the red cross and a successful one the tick, live and after a
// reload alike (one icon rule).
func TestBrowserFailedToolReloaded(t *testing.T) {
	t.Parallel()
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			base := startAgentWeb(t, walkAgent{})
			b := startBrowser(t)
			noScriptErrors(t, b)
			openAndAsk(b, vp.w, vp.h, base, "run it\n")
			icons := `(() => { const r = [...document.querySelectorAll(".msg.assistant .status.tool_result")];
				return r.length === 2 && !r[0].classList.contains("failed") && !!r[0].querySelector("svg.icon-tool_result") && !r[0].querySelector("svg.icon-failed") &&
					r[1].classList.contains("failed") && r[1].dataset.code === "denied_by_rule" && !!r[1].querySelector("svg.icon-failed") && !r[1].querySelector("svg.icon-tool_result") &&
					getComputedStyle(r[1].querySelector("svg.icon-failed")).color !== getComputedStyle(r[0].querySelector("svg.icon-tool_result")).color; })()`
			b.waitFor("live: a tick and a red cross", `!!document.querySelector(".msg.assistant:not(.streaming)") && `+icons)
			b.shot("web-tool-icons-live-" + vp.name + ".png")
			if err := chromedp.Do(b.ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("input"))); err != nil {
				b.fail("reloading", err)
			}
			b.waitFor("reloaded: the same icons", `!!document.querySelector(".msg.assistant .tool-output") && `+icons)
			b.waitFor("sizes in IEC units", `[...document.querySelectorAll(".tool-output summary")].every(s => /\((\d+ B|\d+\.\d [KMG]iB)\)$/.test(s.innerText.trim()))`)
			b.shot("web-tool-icons-reloaded-" + vp.name + ".png")
		})
	}
}

// TestBrowserNothingLost, in a Chinese and an English browser at
// 1400×900 and 390×844: a question sent to a conversation the server no
// longer has is asked again in a new conversation, said so, and the
// sidebar drops the old one; a question the server never got (it went
// away) is back in the composer, with the questions queued behind it,
// under a sentence in the page's language instead of the browser's
// "Failed to fetch".
func TestBrowserNothingLost(t *testing.T) {
	t.Parallel()
	for _, lang := range languages {
		for _, vp := range viewports {
			t.Run(lang.name+"-"+vp.name, func(t *testing.T) {
				t.Parallel()
				base, stopServer := serveWeb(t, agent.Placeholder{}, web.Config{})
				b := startBrowser(t)
				noScriptErrors(t, b)
				if err := chromedp.Do(b.ctx,
					setLanguage(lang.accept),
					chromedp.EmulateViewport(vp.w, vp.h),
					chromedp.Navigate(base+"/"),
					chromedp.WaitVisible(chromedp.ID("input")),
					chromedp.SendKeys(chromedp.ID("input"), "first question\n"),
				); err != nil {
					b.fail("asking", err)
				}
				b.waitFor("the first answer", `!!document.querySelector(".msg.assistant:not(.streaming)") && document.querySelectorAll("#sessions li").length === 1`)
				first, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`localStorage.getItem("opsassist.session")`))
				if err != nil || first == "" {
					b.fail("the conversation id", errorsOf(err, "none"))
				}
				// Deleted elsewhere (another tab, the CLI).
				req, _ := http.NewRequest(http.MethodDelete, base+"/api/sessions/"+first, nil)
				res, err := http.DefaultClient.Do(req)
				if err != nil || res.StatusCode != http.StatusOK {
					t.Fatalf("deleting: %v %v", res, err)
				}
				res.Body.Close()
				if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("input"), "second question\n")); err != nil {
					b.fail("asking again", err)
				}
				b.waitFor("the question asked in a new conversation", `(() => {
					const n = document.querySelector(".notice");
					const a = document.querySelector(".msg.assistant:not(.streaming) .bubble");
					const id = localStorage.getItem("opsassist.session");
					const li = [...document.querySelectorAll("#sessions li")];
					return !!n && n.innerText === OpsI18n.t("session_gone") && !!a && a.innerText.includes("second question") && !document.querySelector(".error-line") &&
						!!id && id !== `+jsString(first)+` && li.length === 1 && li[0].dataset.id === id && document.querySelectorAll(".msg.user").length === 1; })()`)
				b.shot("web-conversation-gone-" + lang.name + "-" + vp.name + ".png")

				// The conversation the page reopens after a reload is gone too.
				second, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`localStorage.getItem("opsassist.session")`))
				if err != nil {
					b.fail("the new conversation's id", err)
				}
				req, _ = http.NewRequest(http.MethodDelete, base+"/api/sessions/"+second, nil)
				if res, err = http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
					t.Fatalf("deleting: %v %v", res, err)
				}
				res.Body.Close()
				if err := chromedp.Do(b.ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("input"))); err != nil {
					b.fail("reloading", err)
				}
				b.waitFor("said so, an empty list", `(() => { const n = document.querySelector(".notice");
					return !!n && n.innerText === OpsI18n.t("session_gone_open") && !localStorage.getItem("opsassist.session") &&
						document.querySelectorAll("#sessions li").length === 0 && !document.getElementById("sessions-empty").hidden; })()`)

				// The server goes away: the question comes back, with the one
				// queued behind it.
				stopServer()
				if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("input"), "third question\n")); err != nil {
					b.fail("asking the gone server", err)
				}
				b.waitFor("the question back in the composer", `(() => {
					const e = [...document.querySelectorAll(".error-line")].pop();
					const i = document.getElementById("input");
					return !!e && e.innerText === OpsI18n.t("conn_lost") && !/Failed to fetch|NetworkError/i.test(document.body.innerText) &&
						i.value === "third question" && document.activeElement === i && !document.getElementById("send").disabled; })()`)
				if lang.name == "zh" {
					b.waitFor("the sentence in Chinese", `/\p{Script=Han}/u.test([...document.querySelectorAll(".error-line")].pop().innerText)`)
				} else {
					b.waitFor("the sentence in English", `!/\p{Script=Han}/u.test(document.body.innerText)`)
				}
				b.shot("web-connection-lost-" + lang.name + "-" + vp.name + ".png")
			})
		}
	}
}

// TestBrowserEnterSends, at 1400×900 and 390×844, with Chromium key
// events: Enter sends and leaves the composer empty (no line break left
// behind), typed text ending in "\n" too; an Enter that ends an IME
// composition picks the candidate and sends nothing.
func TestBrowserEnterSends(t *testing.T) {
	t.Parallel()
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			base := startAgentWeb(t, agent.Placeholder{})
			b := startBrowser(t)
			noScriptErrors(t, b)
			if err := chromedp.Do(b.ctx,
				chromedp.EmulateViewport(vp.w, vp.h),
				chromedp.Navigate(base+"/"),
				chromedp.WaitVisible(chromedp.ID("input")),
				chromedp.SendKeys(chromedp.ID("input"), "hello"),
				chromedp.KeyEvent(kb.Enter),
			); err != nil {
				b.fail("Enter", err)
			}
			b.waitFor("sent, the composer empty", `document.querySelectorAll(".msg.user").length === 1 && !!document.querySelector(".msg.assistant:not(.streaming)") && document.getElementById("input").value === ""`)
			if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("input"), "again\n")); err != nil {
				b.fail("typing with a newline", err)
			}
			b.waitFor("sent again, the composer empty", `document.querySelectorAll(".msg.assistant:not(.streaming)").length === 2 && document.getElementById("input").value === ""`)

			// An IME composition: its Enter commits the candidate, no send.
			// The IME takes the key, so it carries no text of its own.
			enter := func(typ input.DispatchKeyEventType) input.DispatchKeyEventParams {
				return input.DispatchKeyEventParams{Type: typ, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13}
			}
			if err := chromedp.Do(b.ctx,
				chromedp.Focus(chromedp.ID("input")),
				chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					if _, err := cdp.Call(ctx, tg, input.ImeSetComposition, input.ImeSetCompositionParams{Text: "你好", SelectionStart: 2, SelectionEnd: 2}); err != nil {
						return err
					}
					if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, enter(input.DispatchKeyEventTypeKeyDown)); err != nil {
						return err
					}
					if _, err := cdp.Call(ctx, tg, input.InsertText, input.InsertTextParams{Text: "你好"}); err != nil {
						return err
					}
					_, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, enter(input.DispatchKeyEventTypeKeyUp))
					return err
				}),
			); err != nil {
				b.fail("an IME composition's Enter", err)
			}
			b.waitFor("the candidate in the composer, nothing sent", `document.getElementById("input").value === "你好" && document.querySelectorAll(".msg.user").length === 2`)
			b.shot("web-enter-ime-" + vp.name + ".png")
			if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
				b.fail("Enter after the composition", err)
			}
			b.waitFor("the composed text sent", `document.querySelectorAll(".msg.user").length === 3 && document.querySelectorAll(".msg.user")[2].innerText === "你好" && document.getElementById("input").value === ""`)
		})
	}
}

// TestBrowserFavicon: /favicon.ico, which browsers ask for on their own,
// is the page's SVG icon.
func TestBrowserFavicon(t *testing.T) {
	t.Parallel()
	base := startAgentWeb(t, agent.Placeholder{})
	b := startBrowser(t)
	if err := chromedp.Do(b.ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("input"))); err != nil {
		b.fail("opening the page", err)
	}
	b.waitFor("the favicon", `(async () => { const r = await fetch("/favicon.ico");
		return r.ok && r.headers.get("Content-Type") === "image/svg+xml" && (await r.text()).includes("<svg"); })()`)
}

// TestBrowserLoginRefused, in a Chinese and an English browser at
// 1400×900 and 390×844: a wrong token brings the login form back saying
// so, in the page's language, and the form fits the screen.
func TestBrowserLoginRefused(t *testing.T) {
	t.Parallel()
	for _, lang := range languages {
		for _, vp := range viewports {
			t.Run(lang.name+"-"+vp.name, func(t *testing.T) {
				t.Parallel()
				base := startPublicWeb(t, "right-t0ken")
				b := startBrowser(t)
				noScriptErrors(t, b)
				if err := chromedp.Do(b.ctx,
					setLanguage(lang.accept),
					chromedp.EmulateViewport(vp.w, vp.h),
					chromedp.Navigate(base+"/"),
				); err != nil {
					b.fail("opening the page", err)
				}
				b.waitFor("the login form, no complaint yet", `location.pathname === "/login" && !!document.querySelector("input[name=token]") && document.getElementById("login-failed").hidden`)
				if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS("input[name=token]"), "wrong")); err != nil {
					b.fail("typing the token", err)
				}
				if _, err := chromedp.RunResponse(b.ctx, chromedp.Submit(chromedp.CSS("input[name=token]"))); err != nil {
					b.fail("logging in", err)
				}
				b.waitFor("the refusal, in the page's language", `(() => { const f = document.getElementById("login-failed");
					const r = document.querySelector("form.login").getBoundingClientRect();
					return location.search === "?failed=1" && !f.hidden && f.offsetHeight > 0 && f.innerText === OpsI18n.t("wrong_token") &&
						document.documentElement.lang === `+jsString(map[string]string{"zh": "zh-CN", "en": "en"}[lang.name])+` && r.left >= 0 && r.right <= innerWidth; })()`)
				b.shot("web-login-refused-" + lang.name + "-" + vp.name + ".png")
			})
		}
	}
}
