package e2e

import (
	"context"
	"errors"
	"testing"

	"github.com/chromedp/chromedp"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/transport/web"
)

// liveFullAgent reports a tool call whose output the model got
// shortened, with its complete result, then waits for release (the
// answer still streaming) before it answers.
type liveFullAgent struct{ release chan struct{} }

func (a liveFullAgent) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	fr, ok := r.(chat.FullResulter)
	if !ok {
		return nil, errors.New("the web responder does not pass complete results on")
	}
	if err := r.Status(api.StatusToolCall, `command_executor {"cmd":"journalctl"}`); err != nil {
		return nil, err
	}
	if err := fr.ToolResultFull("command_executor done (3 ms)", true, "", fullOutput); err != nil {
		return nil, err
	}
	select {
	case <-a.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if err := r.Delta("the log is long"); err != nil {
		return nil, err
	}
	return []history.Message{{Role: "assistant", Content: "the log is long", Time: t.Now}}, nil
}

// TestBrowserLiveFullOutput, at 1400×900 and 390×844: a tool result the
// model got shortened opens its full output (as text) from the live
// step, while the answer is still streaming — no reload needed.
func TestBrowserLiveFullOutput(t *testing.T) {
	t.Parallel()
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			base, _ := serveWeb(t, liveFullAgent{release: release}, web.Config{})
			b := startBrowser(t)
			noScriptErrors(t, b)
			openAndAsk(b, vp.w, vp.h, base, "show the log\n")
			b.waitFor("the live step with its full output", `(() => {
				const m = document.querySelector(".msg.assistant.streaming");
				return !!m && !!m.querySelector(".status.tool_result details.full-output summary svg.icon-file"); })()`)
			if err := chromedp.Do(b.ctx, chromedp.Click(".msg.assistant.streaming .full-output summary")); err != nil {
				b.fail("opening the full output", err)
			}
			b.waitFor("the full output, while streaming", `(() => {
				const m = document.querySelector(".msg.assistant.streaming");
				const pre = m && m.querySelector(".full-output[open] pre");
				return !!pre && pre.offsetHeight > 0 && pre.textContent === `+jsString(fullOutput)+` && !pre.querySelector("b") &&
					pre.getBoundingClientRect().right <= innerWidth; })()`)
			b.waitFor("no emoji", noEmojiJS)
			b.shot("web-live-full-output-" + vp.name + ".png")
			close(release)
			b.waitFor("the answer", `(() => { const m = document.querySelector(".msg.assistant");
				return !!m && !m.classList.contains("streaming") && m.innerText.includes("the log is long") && !!m.querySelector(".full-output"); })()`)
		})
	}
}
