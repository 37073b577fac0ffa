package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"opsassist/internal/asktest"
)

// TestBrowserPermissionReasonChinese: in a browser whose first language
// is Chinese the permission card shows the reason's Chinese text
// (reason_zh) alone; TestBrowserPermissionCards checks the English one
// in a browser that prefers English.
func TestBrowserPermissionReasonChinese(t *testing.T) {
	t.Parallel()
	b := startBrowser(t)
	noScriptErrors(t, b)
	base, _ := startProbeWeb(t, time.Minute)
	zhFirst := `Object.defineProperty(navigator, "languages", {get: () => ["zh-CN", "en-US"]});
		Object.defineProperty(navigator, "language", {get: () => "zh-CN"});`
	if err := chromedp.Do(b.ctx,
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: zhFirst})
			return err
		}),
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.ID("input")),
		chromedp.SendKeys(chromedp.ID("input"), "probe zh"),
		chromedp.Click(chromedp.ID("send")),
	); err != nil {
		b.fail("asking in a Chinese browser", err)
	}
	b.waitFor("the reason in Chinese alone", `(() => { const c = `+cardJS("zh")+`; if (!c) return false; const t = c.innerText;
		return t.includes(`+jsString(asktest.ReasonZh)+`) && !t.includes(`+jsString(asktest.ReasonEn)+`); })()`)
	b.shot("browser-permission-zh.png")
}
