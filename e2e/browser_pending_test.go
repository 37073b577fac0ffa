package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/transport/web"
)

// askBothAgent asks to allow a probe call, then asks which file, and
// answers with both outcomes.
type askBothAgent struct{}

func (askBothAgent) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	if err := r.Status(api.StatusToolCall, "probe {}"); err != nil {
		return nil, err
	}
	c, err := r.Confirm(ctx, chat.Confirmation{ToolCallID: "call-p", Tool: "probe", Args: json.RawMessage(`{"unit":"p"}`),
		Risk: "sensitive", Reason: "probing needs your approval"})
	if err != nil {
		return nil, err
	}
	q, err := r.AskUser(ctx, chat.Question{Question: "Which file?", Kind: api.QuestionChoice, Options: []api.QuestionOption{
		{ID: "a", Label: "a.yaml", Recommended: true}, {ID: "b", Label: "b.yaml"}}})
	if err != nil {
		return nil, err
	}
	text := fmt.Sprintf("permission allowed=%v by %s; question=%s by %s", c.Allowed, c.By, q.Answer, q.By)
	if err := r.Delta(text); err != nil {
		return nil, err
	}
	return []history.Message{{Role: "assistant", Content: text, Time: t.Now}}, nil
}

// TestBrowserPendingAfterReload, at 1400×900 and 390×844: a permission
// card still waiting when the page reloads comes back with its remaining
// time; allowing it reaches the waiting turn, whose next question then
// shows as a card too; answering it lets the turn finish, and its answer
// appears in the conversation without another reload. The page's icons
// are SVG, with no emoji code points in buttons, steps and cards.
func TestBrowserPendingAfterReload(t *testing.T) {
	t.Parallel()
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			base, _ := serveWeb(t, askBothAgent{}, web.Config{})
			b := startBrowser(t)
			noScriptErrors(t, b)
			openAndAsk(b, vp.w, vp.h, base, "probe it\n")
			b.waitFor("the permission card", `!!document.querySelector(".card-permission.pending") && !!localStorage.getItem("opsassist.session")`)
			b.waitFor("no emoji in the live page", noEmojiJS)
			if err := chromedp.Do(b.ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("input"))); err != nil {
				b.fail("reloading", err)
			}
			b.waitFor("the restored permission card", `(() => {
				const c = document.querySelector('.card-permission.pending[data-tool-call-id="call-p"]');
				return !!c && /^[01]:\d\d$/.test(c.querySelector(".card-countdown").innerText.trim()) &&
					!!c.querySelector(".card-countdown svg.icon-clock") && !!c.querySelector(".card-title svg.icon-lock") &&
					c.innerText.includes("probing needs your approval") && !!document.querySelector(".resumed-line") &&
					c.querySelectorAll("button:not([disabled])").length === 3; })()`)
			b.waitFor("no emoji in the restored card", noEmojiJS)
			b.shot("web-pending-restored-" + vp.name + ".png")
			if err := chromedp.Do(b.ctx, chromedp.Click(`.card-permission.pending button[data-decision="allow_once"]`)); err != nil {
				b.fail("allowing", err)
			}
			b.waitFor("the next question's card", `(() => {
				const p = document.querySelector(".card-permission");
				const q = document.querySelector(".card-question.pending");
				return !!p && p.querySelector(".card-status").innerText.includes("Allowed once") && !!p.querySelector(".card-status svg.icon-check") &&
					!!q && q.querySelectorAll("button[data-answer]").length === 2 && !!q.querySelector(".option-rec svg.icon-star"); })()`)
			b.waitFor("no emoji in the question card", noEmojiJS)
			if err := chromedp.Do(b.ctx, chromedp.Click(`.card-question.pending button[data-answer="b"]`)); err != nil {
				b.fail("answering", err)
			}
			b.waitFor("the finished turn's answer", `(() => {
				const m = [...document.querySelectorAll(".msg.assistant .bubble")].pop();
				return !!m && m.innerText.includes("permission allowed=true by user; question=b by user") &&
					document.querySelector(".msg.user").innerText.includes("probe it"); })()`)
			b.shot("web-pending-answered-" + vp.name + ".png")
		})
	}
}

// noEmojiJS is true when no button, status step, card or notice of the
// page has a character of the emoji blocks (U+2600–U+27BF, U+2B00–U+2BFF,
// U+1F300–U+1FAFF, and ⏳ ⌛): the icons are inline SVG.
const noEmojiJS = `(() => {
	const re = /[\u2600-\u27BF\u2B00-\u2BFF\u231A\u231B\u23E9-\u23FA\u25A0\u{1F300}-\u{1FAFF}]/u;
	const els = document.querySelectorAll("button, a.btn, .status-lines li, .card, .notice, .offer, .error-line, label.btn, .session");
	for (const e of els) if (re.test(e.innerText || "")) return false;
	return els.length > 0;
})()`
