package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// modelsGate holds GET /api/models until release is closed; every
// other request goes straight to next.
type modelsGate struct {
	next    http.Handler
	release chan struct{}
}

func (g modelsGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == "/api/models" {
		select {
		case <-g.release:
		case <-r.Context().Done():
			return
		}
	}
	g.next.ServeHTTP(w, r)
}

// TestBrowserSendBeforeModels: a question sent before the page's model
// list arrived (a slow server, a busy machine) keeps its reply: when the
// list comes in, the page does not load the conversation the question
// created over the reply still streaming, so its permission card stays,
// answerable, and the answer shows in the same reply. The page used to
// switch to that conversation and clear the screen, card and all
// (TestBrowserPermissionCards failed so, now and then, on a loaded
// machine: it asks right after opening the page).
func TestBrowserSendBeforeModels(t *testing.T) {
	t.Parallel()
	srv, probe := newProbeWeb(t, time.Minute)
	gate := modelsGate{next: srv.Handler(), release: make(chan struct{})}
	hs := httptest.NewServer(gate)
	t.Cleanup(hs.Close)
	released := false
	t.Cleanup(func() {
		if !released {
			close(gate.release)
		}
	})
	b := startBrowser(t) // closed first: its reply stream no longer holds hs.Close
	noScriptErrors(t, b)

	if err := chromedp.Do(b.ctx,
		chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("input")),
		chromedp.SendKeys(chromedp.ID("input"), "probe a"),
		chromedp.Click(chromedp.ID("send")),
	); err != nil {
		b.fail("asking", err)
	}
	b.waitFor("the permission card, the model list still on its way", cardJS("a")+` !== null && `+cardJS("a")+`.classList.contains("pending") &&
		!!localStorage.getItem("opsassist.session") && document.getElementById("model").options.length === 0`)
	close(gate.release)
	released = true
	// Once the options are in, loadModels' continuation has run (it is a
	// microtask of the same task): a switch would have cleared the
	// messages by now.
	b.waitFor("the model list", `document.getElementById("model").options.length > 0`)
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](cardJS("a")+` !== null && `+cardJS("a")+`.classList.contains("pending") && document.querySelectorAll(".msg.user").length === 1`))
	if err != nil || !ok {
		b.fail("the reply after the model list came", fmt.Errorf("card a still pending, one question shown: %v (%v)", ok, err))
	}
	if err := chromedp.Do(b.ctx, chromedp.Click(`.card-permission[data-tool-call-id="call-a"] button[data-decision="allow_once"]`)); err != nil {
		b.fail("allowing once", err)
	}
	b.waitFor("the tool's result in the same reply", `(() => { const m = [...document.querySelectorAll(".msg.assistant")].pop();
		return !!m && !m.classList.contains("streaming") && m.contains(`+cardJS("a")+`) && m.querySelector(".bubble").innerText.includes('call-a {"success":true'); })()`)
	if runs := probe.Runs(); !slices.Equal(runs, []string{"a"}) {
		t.Fatalf("runs: %v", runs)
	}
}
