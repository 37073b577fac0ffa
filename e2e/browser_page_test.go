package e2e

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
)

// failingAgent fails its turn: the page shows the error line alone.
type failingAgent struct{}

func (failingAgent) Respond(context.Context, *chat.Turn, chat.Responder) ([]history.Message, error) {
	return nil, errors.New("the model is down")
}

// viewports are the sizes the page is tested at.
var viewports = []struct {
	name string
	w, h int64
}{{"desktop", 1400, 900}, {"phone", 390, 844}}

// TestBrowserKeysErrorOffline, at 1400×900 and 390×844: Shift+Enter
// types a newline and Enter sends; Esc stops a streaming answer; a failed
// turn shows its error with no empty bubble above it; the upload button
// is an SVG icon with a label and a title, the page has a favicon and no
// emoji icons; and when the server goes away the page shows an offline
// banner and greys the gauges.
func TestBrowserKeysErrorOffline(t *testing.T) {
	t.Parallel()
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			blocking := testkit.NewBlocking()
			blocking.Before = "部分回答 partial answer"
			sw := testkit.NewSwitchable(blocking)
			base, stopServer := startAgentWebStop(t, sw)
			b := startBrowser(t)
			noScriptErrors(t, b)
			if err := chromedp.Do(b.ctx,
				chromedp.EmulateViewport(vp.w, vp.h),
				chromedp.Navigate(base+"/"),
				chromedp.WaitVisible(chromedp.ID("input")),
				chromedp.SendKeys(chromedp.ID("input"), "line one"),
				chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierShift)),
				chromedp.SendKeys(chromedp.ID("input"), "line two"),
			); err != nil {
				b.fail("typing", err)
			}
			b.waitFor("Shift+Enter's newline, nothing sent", `document.getElementById("input").value === "line one\nline two" && !document.querySelector(".msg.user")`)
			if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
				b.fail("pressing Enter", err)
			}
			<-blocking.Started
			b.waitFor("the streaming answer", `(() => {
				const s = document.getElementById("stop");
				return !!document.querySelector(".msg.assistant.streaming") && !s.hidden && !s.disabled &&
					document.querySelector(".msg.user").innerText.includes("line two");
			})()`)
			if err := chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
				b.fail("pressing Esc", err)
			}
			select {
			case <-blocking.Cancelled:
			case <-b.ctx.Done():
				b.fail("the turn's cancel after Esc", b.ctx.Err())
			}
			b.waitFor("the stopped answer", `(() => {
				const m = document.querySelector(".msg.assistant");
				return !!m && !m.classList.contains("streaming") && !!m.querySelector(".cancelled-line") && document.getElementById("stop").hidden;
			})()`)

			// A failed turn: its error, no empty bubble above it.
			sw.Set(failingAgent{})
			if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("input"), "fail please\n")); err != nil {
				b.fail("asking again", err)
			}
			b.waitFor("the error without an empty bubble", `(() => {
				const m = [...document.querySelectorAll(".msg.assistant")].pop();
				if (!m || m.classList.contains("streaming") || !m.querySelector(".error-line svg.icon-warn")) return false;
				const bubble = m.querySelector(".bubble");
				return bubble.hidden && bubble.offsetHeight === 0;
			})()`)

			// Icons are SVG; the page has a favicon that loads.
			b.waitFor("the SVG icons and the favicon", `(async () => {
				const attach = document.querySelector("label.attach");
				if (!attach.querySelector("svg") || !attach.title || !attach.innerText.includes("Upload")) return false;
				if (/\p{Extended_Pictographic}/u.test(document.body.innerText)) return false;
				const link = document.querySelector('link[rel="icon"]');
				const r = await fetch(link.href);
				return r.ok && r.headers.get("Content-Type").startsWith("image/svg+xml");
			})()`)
			b.shot("web-keys-error-" + vp.name + ".png")

			// The server goes away: the banner, greyed gauges, and the model
			// picker no longer says the model is reachable.
			stopServer()
			b.waitFor("the offline banner", `(() => {
				const ban = document.getElementById("offline-banner");
				const info = document.getElementById("model-info");
				return !ban.hidden && ban.offsetHeight > 0 && document.getElementById("system").classList.contains("offline") &&
					info.classList.contains("model-offline") && !info.querySelector(".icon-check");
			})()`)
			b.shot("web-offline-" + vp.name + ".png")
		})
	}
}

// TestBrowserPhoneMenu: at 390×844 the sidebar is hidden behind a menu
// button; the button opens it as an overlay where the sessions, new chat
// and the model are reachable; choosing a session closes it. At
// 1400×900 there is no menu button and the sidebar shows.
func TestBrowserPhoneMenu(t *testing.T) {
	t.Parallel()
	base := startAgentWeb(t, agent.Placeholder{})
	b := startBrowser(t)
	noScriptErrors(t, b)
	if err := chromedp.Do(b.ctx,
		chromedp.EmulateViewport(1400, 900),
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.ID("input")),
		chromedp.SendKeys(chromedp.ID("input"), "first question\n"),
	); err != nil {
		b.fail("asking", err)
	}
	b.waitFor("the answer and its session", `!!document.querySelector(".msg.assistant:not(.streaming)") && document.querySelectorAll("#sessions li").length === 1`)
	b.waitFor("desktop: sidebar shown, no menu button", `document.getElementById("sidebar").offsetWidth > 0 && document.getElementById("menu").offsetWidth === 0`)
	b.shot("web-menu-desktop.png")

	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		b.fail("phone viewport", err)
	}
	b.waitFor("phone: sidebar hidden behind the menu button", `document.getElementById("sidebar").offsetWidth === 0 && document.getElementById("menu").offsetWidth > 0`)
	b.shot("web-menu-phone-closed.png")
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("menu"))); err != nil {
		b.fail("opening the menu", err)
	}
	b.waitFor("the sidebar overlay with sessions, new chat and model", `(() => {
		const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.right <= innerWidth && r.bottom <= innerHeight; };
		return visible(document.getElementById("sidebar")) && visible(document.getElementById("new-session")) &&
			visible(document.querySelector("#sessions li")) && visible(document.getElementById("model")) &&
			document.getElementById("menu").getAttribute("aria-expanded") === "true";
	})()`)
	b.shot("web-menu-phone-open.png")
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("new-session"))); err != nil {
		b.fail("new chat from the menu", err)
	}
	b.waitFor("new chat: menu closed, empty conversation", `document.getElementById("sidebar").offsetWidth === 0 && !document.querySelector(".msg")`)
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("menu"))); err != nil {
		b.fail("reopening the menu", err)
	}
	b.waitFor("the first session in the menu", `[...document.querySelectorAll("#sessions li")].some(li => li.innerText.includes("first question") && li.getBoundingClientRect().width > 0)`)
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.JSPath(`[...document.querySelectorAll("#sessions li")].find(li => li.innerText.includes("first question"))`))); err != nil {
		b.fail("choosing the session from the menu", err)
	}
	b.waitFor("the old session, menu closed", `document.getElementById("sidebar").offsetWidth === 0 && !!document.querySelector(".msg.user") && document.querySelector(".msg.user").innerText.includes("first question")`)
}

// TestBrowserLogout: logged in with the cookie, the page shows a logout
// button; it revokes the login and goes to the login form, and the page
// then asks for the token again. Without a login cookie (a loopback
// server) there is no logout button.
func TestBrowserLogout(t *testing.T) {
	t.Parallel()
	b := startBrowser(t)
	base := startPublicWeb(t, "logout-t0ken")

	if err := chromedp.Do(b.ctx,
		chromedp.EmulateViewport(1400, 900),
		chromedp.Navigate(base+"/"),
	); err != nil {
		b.fail("opening the page", err)
	}
	b.waitFor("the login form", `location.pathname === "/login" && !!document.querySelector("input[name=token]")`)
	if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS("input[name=token]"), "logout-t0ken")); err != nil {
		b.fail("typing the token", err)
	}
	if _, err := chromedp.RunResponse(b.ctx, chromedp.Submit(chromedp.CSS("input[name=token]"))); err != nil {
		b.fail("logging in", err)
	}
	b.waitFor("the logout button", `location.pathname === "/" && document.getElementById("logout").offsetHeight > 0`)
	b.shot("web-logout-button.png")
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("logout"))); err != nil {
		b.fail("logging out", err)
	}
	if err := chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS("input[name=token]"))); err != nil {
		b.fail("the login form again", err)
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("input[name=token]"))); err != nil {
		b.fail("reopening the page: still logged out", err)
	}
	b.waitFor("still logged out", `location.pathname === "/login"`)

	// A loopback server without login: no logout button.
	plain := startAgentWeb(t, agent.Placeholder{})
	res, err := http.Get(plain + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(plain+"/"), chromedp.WaitVisible(chromedp.ID("input"))); err != nil {
		b.fail("opening the loopback page", err)
	}
	b.waitFor("no logout button", `document.getElementById("logout").hidden`)
}
