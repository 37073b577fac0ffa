package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/transport/web"
)

// TestBrowserConversations, at 1400×900 and 390×844 (every action
// through the menu on the phone): New chat creates nothing until its
// first message; the list is searched by text; a conversation is
// renamed in place; its Markdown and JSON exports download; select mode
// deletes the chosen conversations after a confirmation.
func TestBrowserConversations(t *testing.T) {
	t.Parallel()
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			base, _ := serveWeb(t, testkit.Scripted{Parts: []string{"scripted answer"}}, web.Config{}, func(c *chat.Config) {
				c.Models = []string{"builtin", "deepseek"}
			})
			b := startBrowser(t)
			noScriptErrors(t, b)
			phone := vp.name == "phone"
			menu := func(step string) {
				t.Helper()
				if !phone {
					return
				}
				if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("menu"))); err != nil {
					b.fail(step+": opening the menu", err)
				}
				b.waitFor(step+": the menu", `document.getElementById("sidebar").getBoundingClientRect().width > 0`)
			}
			click := func(step, sel string) {
				t.Helper()
				if err := chromedp.Do(b.ctx, chromedp.Click(sel)); err != nil {
					b.fail(step, err)
				}
			}
			setSearch := func(v string) {
				t.Helper()
				if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => { const i = document.getElementById("session-search");
					i.value = `+jsString(v)+`; return i.dispatchEvent(new Event("input")); })()`)); err != nil {
					b.fail("searching "+v, err)
				}
			}
			serverCount := func(n string) string {
				return `(async () => (await (await fetch("/api/sessions")).json()).sessions.length === ` + n + `)()`
			}
			if err := chromedp.Do(b.ctx,
				chromedp.EmulateViewport(vp.w, vp.h),
				chromedp.Navigate(base+"/"),
				chromedp.WaitVisible(chromedp.ID("input")),
			); err != nil {
				b.fail("opening the page", err)
			}
			ask := func(q string) {
				t.Helper()
				if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("input"), q+"\n")); err != nil {
					b.fail("asking "+q, err)
				}
				b.waitFor("the answer to "+q, `(() => { const m = [...document.querySelectorAll(".msg.assistant")].pop();
					return !!m && !m.classList.contains("streaming") && document.getElementById("stop").hidden; })()`)
			}
			// New chat twice: nothing is created.
			for range 2 {
				menu("new chat")
				click("new chat", "#new-session")
			}
			b.waitFor("no conversation on the server after New chat", serverCount("0"))
			ask("alpha question")
			menu("new chat")
			click("new chat", "#new-session")
			b.waitFor("still one conversation after New chat", serverCount("1"))
			// A model chosen for the new chat creates nothing either; the
			// first message creates the conversation with it.
			if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => { const m = document.getElementById("model");
				m.value = "deepseek"; return m.dispatchEvent(new Event("change")); })()`)); err != nil {
				b.fail("choosing deepseek", err)
			}
			b.waitFor("still one conversation after choosing a model", serverCount("1"))
			ask("beta question")
			b.waitFor("two conversations, the new one on deepseek", `(async () => {
				const l = (await (await fetch("/api/sessions")).json()).sessions;
				if (l.length !== 2) return false;
				const s = await (await fetch("/api/sessions/" + localStorage.getItem("opsassist.session"))).json();
				return s.model === "deepseek"; })()`)

			// Search by text.
			menu("search")
			if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("session-search"), "beta")); err != nil {
				b.fail("searching", err)
			}
			b.waitFor("the search result", `(() => { const li = document.querySelectorAll("#sessions li");
				return li.length === 1 && li[0].innerText.includes("beta question") && li[0].getBoundingClientRect().right <= innerWidth; })()`)
			setSearch("zzz-nothing")
			b.waitFor("no match", `document.querySelectorAll("#sessions li").length === 0 && document.getElementById("sessions-empty").innerText.includes("No conversation matches")`)
			setSearch("")
			b.waitFor("both listed", `document.querySelectorAll("#sessions li").length === 2`)

			// Rename the beta conversation in place.
			beta := `[...document.querySelectorAll("#sessions li")].find(li => li.innerText.includes("beta question"))`
			if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.JSPath(beta+`.querySelector("button.rename")`))); err != nil {
				b.fail("rename", err)
			}
			b.waitFor("the rename field", `document.activeElement && document.activeElement.classList.contains("rename-input")`)
			if err := chromedp.Do(b.ctx, chromedp.SendKeys(".rename-input", "Renamed <b>chat</b>\n")); err != nil {
				b.fail("typing the title", err)
			}
			renamed := `[...document.querySelectorAll("#sessions li")].find(li => li.innerText.includes("Renamed <b>chat</b>"))`
			b.waitFor("the new title, on the server too", `(async () => { const li = `+renamed+`;
				if (!li || li.querySelector("b")) return false;
				const s = (await (await fetch("/api/sessions/" + li.dataset.id)).json());
				return s.title === "Renamed <b>chat</b>"; })()`)
			b.shot("web-conversations-" + vp.name + ".png")

			// Export: the links download the transcript as Markdown and JSON.
			b.waitFor("the exports", `(async () => { const li = `+renamed+`;
				const md = li.querySelector("a.export-md"), js = li.querySelector("a.export-json");
				if (!md || !js || !md.hasAttribute("download") || !md.getAttribute("aria-label")) return false;
				const m = await fetch(md.href), j = await fetch(js.href);
				const text = await m.text(), data = await j.json();
				return m.ok && /attachment/.test(m.headers.get("Content-Disposition")) && text.includes("beta question") &&
					j.ok && data.messages.some(x => x.role === "user" && x.content.includes("beta question")); })()`)

			// A conversation opens from the keyboard: focus, Enter.
			if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => { const li = [...document.querySelectorAll("#sessions li")].find(li => li.innerText.includes("alpha question"));
				li.focus(); return document.activeElement === li; })()`)); err != nil {
				b.fail("focusing alpha", err)
			}
			if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
				b.fail("pressing Enter", err)
			}
			b.waitFor("alpha opened", `(() => { const u = document.querySelector(".msg.user");
				return !!u && u.innerText.includes("alpha question") && document.querySelector("#sessions li.active").innerText.includes("alpha question"); })()`)
			menu("select")

			// Select both and delete them, confirmed.
			if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(window.confirm = () => true, true)`)); err != nil {
				b.fail("accepting confirmations", err)
			}
			click("select mode", "#select-sessions")
			b.waitFor("checkboxes", `document.querySelectorAll("#sessions li .pick").length === 2 && !document.getElementById("bulk-bar").hidden && document.getElementById("bulk-delete").disabled`)
			click("pick one", "#sessions li:nth-child(1) .pick")
			click("pick two", "#sessions li:nth-child(2) .pick")
			b.waitFor("two picked", `document.getElementById("bulk-count").innerText === "2" && !document.getElementById("bulk-delete").disabled`)
			b.waitFor("no emoji", noEmojiJS)
			b.shot("web-conversations-select-" + vp.name + ".png")
			click("bulk delete", "#bulk-delete")
			b.waitFor("all deleted", `(async () => document.querySelectorAll("#sessions li").length === 0 && document.getElementById("bulk-bar").hidden &&
				(await (await fetch("/api/sessions")).json()).sessions.length === 0)()`)
		})
	}
}
