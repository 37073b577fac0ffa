package e2e

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/storage/tokens"
	"opsassist/storage/uploads"
	"opsassist/transport/web"
)

// toolStatusAgent reports one tool call that succeeded and one that
// failed (code denied), then answers.
type toolStatusAgent struct{}

func (toolStatusAgent) Respond(_ context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	tr, ok := r.(chat.ToolResulter)
	if !ok {
		return nil, errors.New("the web responder does not report tool results")
	}
	for _, step := range []func() error{
		func() error { return r.Status(api.StatusToolCall, "sysmon {}") },
		func() error { return tr.ToolResult("sysmon done (3 ms)", true, "") },
		func() error { return r.Status(api.StatusToolCall, "command {\"cmd\":\"rm\"}") },
		func() error { return tr.ToolResult("command failed: <b>denied</b> by rule", false, "denied_by_rule") },
		func() error { return r.Delta("answer after the calls") },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return []history.Message{{Role: "assistant", Content: "answer after the calls", Time: t.Now}}, nil
}

// startAgentWeb serves the web client over a chat service with agent a.
func startAgentWeb(t *testing.T, a chat.Agent) string {
	base, _ := startAgentWebStop(t, a)
	return base
}

// startAgentWebStop is startAgentWeb that also returns a func that shuts
// the server down (the page then finds it offline).
func startAgentWebStop(t *testing.T, a chat.Agent) (string, func()) {
	t.Helper()
	return serveWeb(t, a, web.Config{})
}

// serveWeb serves the web client over a chat service with agent a and
// cfg (its Chat and Tokens filled in) on 127.0.0.1:0, and returns its
// base URL and a func that shuts it down (also run at cleanup). chatOpts
// adjust the chat core's Config.
func serveWeb(t *testing.T, a chat.Agent, cfg web.Config, chatOpts ...func(*chat.Config)) (string, func()) {
	t.Helper()
	dir := t.TempDir()
	hist, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ups, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	cc := chat.Config{History: hist, Uploads: ups, Agent: a}
	for _, o := range chatOpts {
		o(&cc)
	}
	svc, err := chat.New(cc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(context.Background()) })
	cfg.Chat, cfg.Tokens = svc, tokens.NewStore(0)
	srv, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	stop := func() { srv.Shutdown(context.Background()) }
	t.Cleanup(stop)
	return "http://" + ln.Addr().String(), stop
}

// TestBrowserToolStatus: a failed tool call shows the failed (red cross)
// SVG icon and its code, a successful one the tick; the tool's text is
// shown as text, not HTML. At 1400×900 and 390×844, with screenshots.
func TestBrowserToolStatus(t *testing.T) {
	t.Parallel()
	base := startAgentWeb(t, toolStatusAgent{})
	b := startBrowser(t)
	noScriptErrors(t, b)
	for _, vp := range []struct {
		name string
		w, h int64
	}{{"desktop", 1400, 900}, {"phone", 390, 844}} {
		if err := chromedp.Do(b.ctx,
			chromedp.EmulateViewport(vp.w, vp.h),
			chromedp.Navigate(base+"/"),
			chromedp.WaitVisible(chromedp.ID("input")),
			chromedp.SendKeys(chromedp.ID("input"), "check the server"),
			chromedp.Click(chromedp.ID("send")),
		); err != nil {
			b.fail(vp.name+": asking", err)
		}
		b.waitFor(vp.name+": the failed and the successful call", `(() => {
			const m = [...document.querySelectorAll(".msg.assistant:not(.streaming)")].pop();
			if (!m || !m.innerText.includes("answer after the calls")) return false;
			const ok = m.querySelectorAll(".status.tool_result:not(.failed) svg.icon-tool_result");
			const bad = m.querySelectorAll(".status.tool_result.failed svg.icon-failed");
			return ok.length === 1 && bad.length === 1 && bad[0].parentElement.dataset.code === "denied_by_rule" &&
				bad[0].parentElement.innerText.includes("<b>denied</b>") && !bad[0].parentElement.querySelector("b") &&
				getComputedStyle(bad[0]).color !== getComputedStyle(ok[0]).color;
		})()`)
		b.shot("web-tool-status-" + vp.name + ".png")
	}
}
