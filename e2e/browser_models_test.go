package e2e

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/transport/web"
)

// TestBrowserModelReachability, at 1400×900 and 390×844 (through the
// menu): the model picker lists each model with its provider and model
// id; the one the probe found unreachable is marked; choosing it shows
// its provider, model id and base URL and says why it is unreachable;
// a newer probe result shows when the picker is clicked. The two sizes
// run one after the other (they share the fake probe).
func TestBrowserModelReachability(t *testing.T) {
	t.Parallel()
	checked := time.Now()
	var deepseekDown atomic.Bool
	info := func(name string) chat.ModelInfo {
		switch name {
		case "deepseek":
			if deepseekDown.Load() {
				return chat.ModelInfo{Provider: "deepseek", Model: "deepseek-chat", BaseURL: "https://api.deepseek.com/v1", Reason: "401 Unauthorized", CheckedAt: checked}
			}
			return chat.ModelInfo{Provider: "deepseek", Model: "deepseek-chat", BaseURL: "https://api.deepseek.com/v1", Reachable: true, CheckedAt: checked}
		case "ollama":
			return chat.ModelInfo{Provider: "ollama", Model: "qwen2.5:7b", BaseURL: "http://127.0.0.1:11434/v1", Reason: "connection refused", CheckedAt: checked}
		}
		return chat.ModelInfo{}
	}
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			base, _ := serveWeb(t, testkit.NewBlocking(), web.Config{}, func(c *chat.Config) {
				c.Models, c.ModelInfo = []string{"builtin", "deepseek", "ollama"}, info
			})
			b := startBrowser(t)
			noScriptErrors(t, b)
			if err := chromedp.Do(b.ctx,
				chromedp.EmulateViewport(vp.w, vp.h),
				chromedp.Navigate(base+"/"),
				chromedp.WaitVisible(chromedp.ID("input")),
			); err != nil {
				b.fail("opening the page", err)
			}
			b.waitFor("the labelled options", `(() => {
				const o = [...document.querySelectorAll("#model option")];
				return o.length === 3 && o[1].innerText.includes("deepseek / deepseek-chat") && o[1].dataset.state === "ok" &&
					!o[1].innerText.includes("unreachable") && o[2].innerText.includes("ollama / qwen2.5:7b") &&
					o[2].innerText.includes("unreachable") && o[2].dataset.state === "down" && o[2].title === "connection refused"; })()`)
			if vp.name == "phone" {
				if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("menu"))); err != nil {
					b.fail("opening the menu", err)
				}
				b.waitFor("the picker in the menu", `document.getElementById("model").getBoundingClientRect().width > 0`)
			}
			if err := chromedp.Do(b.ctx, chromedp.SetValue(chromedp.ID("model"), "ollama")); err != nil {
				b.fail("choosing ollama", err)
			}
			if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.getElementById("model").dispatchEvent(new Event("change"))`)); err != nil {
				b.fail("choosing ollama", err)
			}
			b.waitFor("why it is unreachable", `(() => {
				const i = document.getElementById("model-info");
				const n = [...document.querySelectorAll(".notice.bad")].pop();
				return i.classList.contains("model-down") && !!i.querySelector("svg.icon-warn") && i.innerText.includes("ollama / qwen2.5:7b") &&
					i.innerText.includes("http://127.0.0.1:11434/v1") && i.innerText.includes("connection refused") &&
					!!n && n.innerText.includes("unreachable: connection refused"); })()`)
			b.waitFor("no emoji", noEmojiJS)
			b.shot("web-models-" + vp.name + ".png")
			if err := chromedp.Do(b.ctx, chromedp.SetValue(chromedp.ID("model"), "deepseek")); err != nil {
				b.fail("choosing deepseek", err)
			}
			if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.getElementById("model").dispatchEvent(new Event("change"))`)); err != nil {
				b.fail("choosing deepseek", err)
			}
			b.waitFor("deepseek reachable", `(() => { const i = document.getElementById("model-info");
				return i.classList.contains("model-ok") && /^reachable/m.test(i.innerText) && i.innerText.includes("https://api.deepseek.com/v1"); })()`)
			// A probe result that came in since shows when the picker is
			// clicked; the choice stays.
			deepseekDown.Store(true)
			t.Cleanup(func() { deepseekDown.Store(false) })
			if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("model"))); err != nil {
				b.fail("clicking the picker", err)
			}
			b.waitFor("deepseek relabelled, still chosen", `(() => { const m = document.getElementById("model");
				const o = [...m.options].find(o => o.value === "deepseek");
				return m.value === "deepseek" && o.dataset.state === "down" && o.title === "401 Unauthorized" &&
					document.getElementById("model-info").innerText.includes("401 Unauthorized"); })()`)
		})
	}
}
