package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"opsassist/chat"
	"opsassist/storage/history"
)

// markdownAnswer is an answer with a code block, a blockquote, bare
// URLs and hostile text.
const markdownAnswer = "Run this:\n\n```sh\ndf -h /var && echo \"<done>\"\n```\n\n" +
	"> quoted **advice**\n> second line\n\n" +
	"See https://example.com/docs?a=1&b=2, or http://127.0.0.1:9/x.\n" +
	"Hostile: <img src=x onerror=alert(1)> javascript:alert(2) https://\"onmouseover=alert(3) [x](javascript:alert(4))"

// fixedAgent answers with its text.
type fixedAgent string

func (a fixedAgent) Respond(_ context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	if err := r.Delta(string(a)); err != nil {
		return nil, err
	}
	return []history.Message{{Role: "assistant", Content: string(a), Time: t.Now}}, nil
}

// TestBrowserMarkdownExtras: code blocks get a copy button that copies
// the code; blockquotes are rendered; bare http(s) URLs become links
// (rel=noopener, new tab) and hostile text stays text. At 1400×900 and
// 390×844.
func TestBrowserMarkdownExtras(t *testing.T) {
	t.Parallel()
	base := startAgentWeb(t, fixedAgent(markdownAnswer))
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			b := startBrowser(t)
			noScriptErrors(t, b)
			if err := chromedp.Do(b.ctx,
				chromedp.EmulateViewport(vp.w, vp.h),
				chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
					for _, name := range []string{"clipboard-read", "clipboard-write"} {
						if _, err := chromedp.Call(ctx, browser.SetPermission, browser.SetPermissionParams{
							Permission: &browser.PermissionDescriptor{Name: name},
							Setting:    browser.PermissionSettingGranted,
							Origin:     base,
						}); err != nil {
							return err
						}
					}
					return nil
				}),
				chromedp.Navigate(base+"/"),
				chromedp.WaitVisible(chromedp.ID("input")),
				chromedp.SendKeys(chromedp.ID("input"), "show me markdown\n"),
			); err != nil {
				b.fail("asking", err)
			}
			b.waitFor("the rendered answer", `(() => {
				const m = document.querySelector(".msg.assistant:not(.streaming) .bubble");
				if (!m) return false;
				const links = [...m.querySelectorAll("a")];
				const bq = m.querySelector("blockquote");
				return !!m.querySelector("pre .copy-btn svg") && !!bq && bq.innerText.includes("second line") && !!bq.querySelector("strong") &&
					links.length === 2 &&
					links[0].getAttribute("href") === "https://example.com/docs?a=1&b=2" &&
					links[1].getAttribute("href") === "http://127.0.0.1:9/x" &&
					links.every(a => a.rel.includes("noopener") && a.target === "_blank") &&
					!m.querySelector("img") && !m.querySelector("[onerror],[onmouseover]") &&
					m.innerText.includes("<img src=x onerror=alert(1)>");
			})()`)
			if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(".copy-btn"))); err != nil {
				b.fail("clicking copy", err)
			}
			b.waitFor("the copied code", `(async () => {
				const btn = document.querySelector(".copy-btn");
				if (!btn.classList.contains("copied")) return false;
				return (await navigator.clipboard.readText()) === 'df -h /var && echo "<done>"';
			})()`)
			b.shot("web-markdown-" + vp.name + ".png")
		})
	}
}
