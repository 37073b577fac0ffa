package e2e

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
	"opsassist/transport/web"
)

// savedConversations opens a history store in a new directory with n
// conversations whose question is prefix and its number, the later
// ones updated later.
func savedConversations(t *testing.T, hist *history.Store, prefix string, n int, from time.Time) {
	t.Helper()
	for i := range n {
		at := from.Add(time.Duration(i) * time.Minute)
		c := hist.New(at)
		if err := c.Append(history.Message{Role: "user", Content: fmt.Sprintf("%s question %02d", prefix, i), Time: at},
			history.Message{Role: "assistant", Content: "answered", Time: at}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowserSessionPages, at 1400×900 and 390×844 (through the menu on
// the phone): with 64 saved conversations the sidebar lists the newest
// 50 and a "Load more" button, which adds the other 14 (none twice) and
// goes away; a new conversation reloads the list as long as it was; a
// search is paged the same way (61 matches: 50, then 11);
// a search with few matches has no button; clearing the search lists
// the first page again.
func TestBrowserSessionPages(t *testing.T) {
	t.Parallel()
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			hist, err := history.Open(filepath.Join(t.TempDir(), "history"), nil)
			if err != nil {
				t.Fatal(err)
			}
			from := time.Now().Add(-3 * time.Hour)
			savedConversations(t, hist, "alpha", 61, from)
			savedConversations(t, hist, "beta", 3, from.Add(2*time.Hour))
			base, _ := serveWeb(t, testkit.Scripted{Parts: []string{"scripted answer"}}, web.Config{}, func(c *chat.Config) { c.History = hist })
			b := startBrowser(t)
			noScriptErrors(t, b)
			if err := chromedp.Do(b.ctx,
				chromedp.EmulateViewport(vp.w, vp.h),
				chromedp.Navigate(base+"/"),
				chromedp.WaitVisible(chromedp.ID("input")),
			); err != nil {
				b.fail("opening the page", err)
			}
			if vp.name == "phone" {
				if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("menu"))); err != nil {
					b.fail("opening the menu", err)
				}
				b.waitFor("the menu", `document.getElementById("sidebar").getBoundingClientRect().width > 0`)
			}
			// listed is the number of rows, all different, the first
			// being first; more is whether "Load more" shows.
			listed := func(n int, first string, more bool) string {
				return fmt.Sprintf(`(() => { const li = [...document.querySelectorAll("#sessions li")];
					const ids = new Set(li.map((e) => e.dataset.id));
					const m = document.getElementById("sessions-more");
					return li.length === %d && ids.size === %d && li[0].innerText.includes(%s) && (m.getClientRects().length > 0) === %v; })()`,
					n, n, jsString(first), more)
			}
			loadMore := func(step string) {
				t.Helper()
				if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("sessions-more"))); err != nil {
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
			b.waitFor("the first page", listed(50, "beta question 02", true))
			b.waitFor("Load more, titled in the page's language", `(() => { const m = document.getElementById("sessions-more");
				return m.innerText.trim() === "Load more" && m.title === "Show older conversations (50 of 64 shown)"; })()`)
			b.shot("web-sessions-page1-" + vp.name + ".png")
			loadMore("loading more")
			b.waitFor("every conversation, once", listed(64, "beta question 02", false)+` &&
				[...document.querySelectorAll("#sessions li")].pop().innerText.includes("alpha question 00")`)
			b.waitFor("no emoji", noEmojiJS)
			b.shot("web-sessions-all-" + vp.name + ".png")

			// A new conversation reloads the list: as long as it was, the
			// new one first, and the one pushed out is a page away.
			if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("input"), "gamma question\n")); err != nil {
				b.fail("asking", err)
			}
			if vp.name == "phone" {
				if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("menu"))); err != nil {
					b.fail("opening the menu", err)
				}
			}
			b.waitFor("the list after a new conversation", listed(64, "gamma question", true))
			loadMore("loading the last one")
			b.waitFor("65 listed", listed(65, "gamma question", false))

			// A search is paged too.
			setSearch("alpha")
			b.waitFor("the first page of matches", listed(50, "alpha question 60", true))
			loadMore("loading more matches")
			b.waitFor("every match, once", listed(61, "alpha question 60", false)+` &&
				[...document.querySelectorAll("#sessions li")].every((li) => li.innerText.includes("alpha question"))`)
			setSearch("beta")
			b.waitFor("a few matches, no button", listed(3, "beta question 02", false))
			setSearch("")
			b.waitFor("the first page again", listed(50, "gamma question", true))
		})
	}
}

// TestBrowserSessionPagesRefused: "Load more" whose cursor the server
// refuses (400 or 404: the list changed under it) reloads the list from
// its start instead of showing nothing or an error; a page that arrives
// after the search changed is dropped, not added to the new list; a
// failed page leaves the button to try again.
func TestBrowserSessionPagesRefused(t *testing.T) {
	t.Parallel()
	hist, err := history.Open(filepath.Join(t.TempDir(), "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	savedConversations(t, hist, "alpha", 55, time.Now().Add(-2*time.Hour))
	savedConversations(t, hist, "beta", 2, time.Now().Add(-time.Hour))
	base, _ := serveWeb(t, testkit.Scripted{Parts: []string{"scripted answer"}}, web.Config{}, func(c *chat.Config) { c.History = hist })
	b := startBrowser(t)
	noScriptErrors(t, b)
	if err := chromedp.Do(b.ctx,
		chromedp.EmulateViewport(1400, 900),
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.ID("input")),
	); err != nil {
		b.fail("opening the page", err)
	}
	b.waitFor("the first page", `document.querySelectorAll("#sessions li").length === 50 && !document.getElementById("sessions-more").hidden`)
	run := func(step, js string) {
		t.Helper()
		if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js)); err != nil {
			b.fail(step, err)
		}
	}
	// The server refuses the cursor: the list reloads (counted).
	run("refusing the cursor", `(() => { const real = window.fetch; window.pages = 0;
		window.fetch = (u, o) => { if (String(u).startsWith("/api/sessions?")) window.pages++;
			if (String(u).includes("before=")) return Promise.resolve(new Response(JSON.stringify({code: "bad_request", message: "bad cursor"}), {status: 400}));
			return real(u, o); };
		document.getElementById("sessions-more").click(); return true; })()`)
	b.waitFor("the list reloaded", `window.pages === 2 && document.querySelectorAll("#sessions li").length === 50 &&
		!document.getElementById("sessions-more").hidden && !document.getElementById("sessions-more").disabled`)
	// No answer at all: the button is there to try again.
	run("failing the page", `(() => { const real = window.fetch;
		window.fetch = (u, o) => String(u).includes("before=") ? Promise.reject(new TypeError("Failed to fetch")) : real(u, o);
		document.getElementById("sessions-more").click(); return true; })()`)
	b.waitFor("the button back", `document.querySelectorAll("#sessions li").length === 50 && !document.getElementById("sessions-more").hidden && !document.getElementById("sessions-more").disabled`)
	// A slow page: the search changes before it comes; it is dropped.
	run("holding the page", `(() => { const real = window.fetch; let release;
		window.held = new Promise((r) => { release = r; }); window.release = release;
		const late = {sessions: [{session_id: "late-page", title: "late page", messages: 1}], total: 99, next: "c"};
		window.fetch = (u, o) => String(u).includes("before=") ? window.held.then(() => new Response(JSON.stringify(late), {status: 200})) : real(u, o);
		document.getElementById("sessions-more").click();
		const i = document.getElementById("session-search"); i.value = "beta"; i.dispatchEvent(new Event("input")); return true; })()`)
	b.waitFor("the search's list", `document.querySelectorAll("#sessions li").length === 2`)
	run("releasing the page", `(window.release(), true)`)
	// The button is enabled again once the late page was handled.
	b.waitFor("the late page dropped", `(() => { const m = document.getElementById("sessions-more");
		const li = [...document.querySelectorAll("#sessions li")];
		return !m.disabled && li.length === 2 && li.every((e) => e.innerText.includes("beta")) && m.hidden; })()`)
}
