package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"opsassist/chat"
	"opsassist/storage/history"
)

// fullOutput is a tool's complete result; the model was given a short
// version.
var fullOutput = "line 1 <b>not html</b>\n" + strings.Repeat("a long log line\n", 200) + "THE LAST LINE"

// toolStepAgent records one tool call whose result was shortened for
// the model (Full keeps it all), then an answer.
type toolStepAgent struct{}

func (toolStepAgent) Respond(_ context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	if err := r.Delta("the log is long"); err != nil {
		return nil, err
	}
	return []history.Message{
		{Role: "assistant", ToolCalls: []history.ToolCall{{ID: "c1", Name: "command_executor", Arguments: `{"cmd":"journalctl"}`}}, Time: t.Now},
		{Role: "tool", ToolCallID: "c1", Name: "command_executor", Content: "line 1 … (shortened)", Full: fullOutput, Time: t.Now},
		{Role: "assistant", Content: "the log is long", Time: t.Now},
	}, nil
}

// TestBrowserHistoryFullOutput: after a reload the conversation's tool
// steps come back with the answer, and a tool call's full output saved
// in the session is reachable behind an expander (as text). At
// 1400×900 and 390×844.
func TestBrowserHistoryFullOutput(t *testing.T) {
	t.Parallel()
	base := startAgentWeb(t, toolStepAgent{})
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			b := startBrowser(t)
			noScriptErrors(t, b)
			openAndAsk(b, vp.w, vp.h, base, "show the log\n")
			b.waitFor("the answer", `!!document.querySelector(".msg.assistant:not(.streaming)") && !!localStorage.getItem("opsassist.session")`)
			if err := chromedp.Do(b.ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("input"))); err != nil {
				b.fail("reloading", err)
			}
			b.waitFor("the restored tool step and answer", `(() => {
				const m = document.querySelector(".msg.assistant");
				return !!m && m.innerText.includes("the log is long") && !!m.querySelector(".status.tool_call") &&
					!!m.querySelector(".tool-output details summary");
			})()`)
			if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(".tool-output summary"))); err != nil {
				b.fail("opening the full output", err)
			}
			b.waitFor("the full output", `(() => {
				const pre = document.querySelector(".tool-output details[open] pre");
				return !!pre && pre.offsetHeight > 0 && pre.textContent === `+jsString(fullOutput)+` && !pre.querySelector("b");
			})()`)
			b.shot("web-history-full-output-" + vp.name + ".png")
		})
	}
}
