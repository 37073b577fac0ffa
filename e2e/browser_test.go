package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
	"opsassist/storage/tokens"
	"opsassist/storage/uploads"
	"opsassist/transport/web"
)

// chromiumPath is Debian's chromium; `make test` installs it.
const chromiumPath = "/usr/bin/chromium"

// artifactDir is where the screenshot goes: $OPSASSIST_ARTIFACTS, or a
// temporary directory.
func artifactDir(t *testing.T) string {
	if d := os.Getenv("OPSASSIST_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// browserRun is one headless Chromium with helpers for a test.
type browserRun struct {
	ctx     context.Context
	shot    func(name string)
	fail    func(step string, err error)
	waitFor func(step, expr string)
}

// openAndAsk opens the page at base in a w×h viewport and types text
// (ending in "\n" to send it) into the composer.
func openAndAsk(b browserRun, w, h int64, base, text string) {
	if err := chromedp.Do(b.ctx,
		chromedp.EmulateViewport(w, h),
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.ID("input")),
		chromedp.SendKeys(chromedp.ID("input"), text),
	); err != nil {
		b.fail("asking", err)
	}
}

// startBrowser starts headless Chromium with the flags the project
// requires, for at most 50 s. It skips the test if Chromium is missing.
func startBrowser(t *testing.T) browserRun {
	t.Helper()
	if _, err := exec.LookPath(chromiumPath); err != nil {
		t.Skipf("chromium is not installed at %s (make test installs it with apt-get): %v", chromiumPath, err)
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 860),
		chromedp.UserDataDir(t.TempDir()),
	)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	b := browserRun{ctx: bctx}
	b.shot = func(name string) {
		png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Logf("screenshot %s: %v", name, err)
			return
		}
		p := filepath.Join(artifactDir(t), name)
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", p)
	}
	b.fail = func(step string, err error) {
		t.Helper()
		b.shot(strings.ReplaceAll(t.Name(), "/", "_") + "-failure.png")
		t.Fatalf("%s: %v", step, err)
	}
	b.waitFor = func(step, expr string) {
		t.Helper()
		if _, err := chromedp.Run(bctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			b.fail(step, err)
		}
	}
	return b
}

// TestBrowser drives the web client in headless Chromium against the
// real daemon with the built-in planner: a streamed answer about system
// resources, an upload through the file input, and a download through
// the offered link whose bytes must match the upload.
func TestBrowser(t *testing.T) {
	t.Parallel()
	a := start(t, daemonConfig(t.TempDir()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := a.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	base := "http://" + a.HTTPAddr().String()

	b := startBrowser(t)
	bctx, fail, waitFor, shot := b.ctx, b.fail, b.waitFor, b.shot

	// 1. A question about the system: a streamed answer with numbers.
	if err := chromedp.Do(bctx,
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.ID("input")),
		chromedp.SendKeys(chromedp.ID("input"), "系统资源使用情况如何？"),
		chromedp.Click(chromedp.ID("send")),
	); err != nil {
		fail("asking", err)
	}
	waitFor("the streamed answer", `(() => {
		const m = document.querySelector(".msg.assistant:not(.streaming) .bubble");
		return !!m && /\d+(\.\d+)?\s*%/.test(m.innerText) && document.querySelectorAll(".msg.assistant .status-lines li").length > 0;
	})()`)
	answer, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(".msg.assistant .bubble")))
	if err != nil {
		fail("reading the answer", err)
	}
	t.Logf("answer: %.200s", answer)
	if !strings.Contains(answer, "CPU") {
		fail("answer", errors.New("no CPU figure in "+answer))
	}
	// Model output is escaped before it is rendered as Markdown.
	rendered, err := chromedp.Run(bctx, chromedp.Evaluate[string](`OpsMarkdown.render(
		"<img src=x onerror=alert(1)> **bold** [a](javascript:alert(1)) [b](//evil.example/x) [c](/api/health)\n<script>alert(2)</script>")`))
	if err != nil {
		fail("rendering markdown", err)
	}
	if strings.Contains(rendered, "<img") || strings.Contains(rendered, "<script") || strings.Contains(rendered, `href="javascript`) ||
		strings.Contains(rendered, `href="//`) || !strings.Contains(rendered, "<strong>bold</strong>") || !strings.Contains(rendered, `href="/api/health"`) {
		t.Errorf("unsafe or wrong markdown: %s", rendered)
	}
	// A list quoted from its middle keeps its numbers.
	if ol, err := chromedp.Run(bctx, chromedp.Evaluate[string](`OpsMarkdown.render("3. third\n4. fourth")`)); err != nil || !strings.Contains(ol, `<li value="3">third</li><li value="4">fourth</li>`) {
		t.Errorf("ordered list renumbered: %s %v", ol, err)
	}
	waitFor("the live panel", `/\d/.test(document.querySelector('.gauge[data-key="cpu"] .value').innerText)`)
	// Sizes in the page's one format (IEC, one decimal), as in the server's text.
	waitFor("the memory total in IEC units", `/ \d+\.\d [KMGT]iB$/.test(document.querySelector('.gauge[data-key="memory"] .value').innerText)`)

	// 2. Upload through the file input; the file is listed.
	content := make([]byte, 300<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range content {
		content[i] = byte(rng.UintN(256))
	}
	src := filepath.Join(t.TempDir(), "report.txt")
	if err := os.WriteFile(src, content, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{src})); err != nil {
		fail("choosing the file", err)
	}
	waitFor("the uploaded file in the list", `[...document.querySelectorAll("#files li")].some(li => li.innerText.includes("report.txt"))`)

	// 3. Ask for it back and click the offered link.
	dl := t.TempDir()
	begin := chromedp.Events(bctx, browser.DownloadWillBegin)
	progress := chromedp.Events(bctx, browser.DownloadProgress)
	if err := chromedp.Do(bctx,
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			on := true
			_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
				Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dl, EventsEnabled: &on})
			return err
		}),
		chromedp.SendKeys(chromedp.ID("input"), "下载 report.txt"),
		chromedp.Click(chromedp.ID("send")),
	); err != nil {
		fail("asking for the download", err)
	}
	waitFor("the download link", `!!document.querySelector("a.download-link")`)
	waitFor("the offer's size in IEC units", `document.querySelector(".offer .offer-name").innerText.trim() === "report.txt (300.0 KiB)"`)
	shot("web.png")
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("a.download-link"))); err != nil {
		fail("clicking the link", err)
	}
	for ev, err := range begin {
		if err != nil {
			fail("waiting for the download to begin", err)
		}
		if ev.SuggestedFilename != "report.txt" {
			t.Errorf("suggested file name %q", ev.SuggestedFilename)
		}
		break
	}
	var path string
	for ev, err := range progress {
		if err != nil {
			fail("waiting for the download", err)
		}
		if ev.State == browser.DownloadProgressStateCanceled {
			fail("download", errors.New("cancelled by the browser"))
		}
		if ev.State == browser.DownloadProgressStateCompleted {
			path = filepath.Join(dl, ev.GUID)
			break
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		fail("reading the download", err)
	}
	if !bytes.Equal(got, content) {
		t.Fatalf("downloaded %d bytes differ from the %d uploaded", len(got), len(content))
	}

	// 4. A new conversation, then back to the first: its history and
	// files come back.
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.ID("new-session"))); err != nil {
		fail("new session", err)
	}
	// New chat creates nothing until its first message: still one.
	waitFor("one session, an empty chat", `document.querySelectorAll("#sessions li").length === 1 && !document.querySelector("#sessions li.active") &&
		document.querySelectorAll("#messages .msg").length === 0 && document.querySelectorAll("#files li").length === 0`)
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#sessions li:not(.active)"))); err != nil {
		fail("switching back", err)
	}
	waitFor("the first conversation again", `[...document.querySelectorAll(".msg.user")].some(m => m.innerText.includes("下载 report.txt")) &&
		[...document.querySelectorAll("#files li")].some(li => li.innerText.includes("report.txt"))`)
	// The offer comes back with the history: its card and a working link.
	waitFor("the restored download offer", `(async () => {
		const a = [...document.querySelectorAll(".msg.assistant .offer a.download-link")].find(a => a.getAttribute("download") === "report.txt");
		if (!a || !a.getAttribute("href").startsWith("/api/files/download/")) return false;
		const r = await fetch(a.href);
		return r.ok && (await r.arrayBuffer()).byteLength === `+fmt.Sprint(len(content))+`;
	})()`)

	// 5. Drop a file on the page: it joins the conversation's files.
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File(["dropped bytes\n"], "dropped.txt", {type: "text/plain"}));
		const zone = document.getElementById("drop-zone");
		zone.dispatchEvent(new DragEvent("dragenter", {dataTransfer: dt, bubbles: true, cancelable: true}));
		zone.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		return true;
	})()`)); err != nil {
		fail("dropping a file", err)
	}
	waitFor("the dropped file in the list", `[...document.querySelectorAll("#files li")].some(li => li.innerText.includes("dropped.txt")) &&
		!document.getElementById("drop-zone").classList.contains("dragging")`)

	// 6. Switch the conversation's model (the ollama preset needs no key).
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => {
		const sel = document.getElementById("model");
		sel.value = "ollama";
		sel.dispatchEvent(new Event("change"));
		return sel.value === "ollama";
	})()`)); err != nil {
		fail("choosing a model", err)
	}
	waitFor("the model switch notice", `[...document.querySelectorAll(".notice")].some(n => n.innerText.includes("ollama"))`)
	sid, err := chromedp.Run(bctx, chromedp.Evaluate[string](`localStorage.getItem("opsassist.session")`))
	if err != nil {
		fail("reading the session id", err)
	}
	res, err := http.Get(base + "/api/sessions/" + sid)
	if err != nil {
		t.Fatal(err)
	}
	var sess struct{ Model string }
	json.NewDecoder(res.Body).Decode(&sess)
	res.Body.Close()
	if sess.Model != "ollama" {
		t.Fatalf("session %s has model %q", sid, sess.Model)
	}
}

// TestBrowserLogin: on a public server the page sends the browser to the
// login form; the token sets an HttpOnly cookie that scripts cannot read,
// and the chat then works.
func TestBrowserLogin(t *testing.T) {
	t.Parallel()
	b := startBrowser(t)
	base := startPublicWeb(t, "browser-t0ken")

	if err := chromedp.Do(b.ctx, chromedp.Navigate(base+"/")); err != nil {
		b.fail("opening the page", err)
	}
	b.waitFor("the login form", `location.pathname === "/login" && !!document.querySelector("input[name=token]")`)
	if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS("input[name=token]"), "browser-t0ken")); err != nil {
		b.fail("typing the token", err)
	}
	// RunResponse waits for the navigation the form post starts.
	if _, err := chromedp.RunResponse(b.ctx, chromedp.Submit(chromedp.CSS("input[name=token]"))); err != nil {
		b.fail("logging in", err)
	}
	b.waitFor("the chat page", `location.pathname === "/" && !!document.getElementById("input")`)
	if readable, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`document.cookie.includes("opsassist_auth")`)); err != nil || readable {
		b.fail("cookie", fmt.Errorf("readable by scripts: %v, %v", readable, err))
	}
	if err := chromedp.Do(b.ctx,
		chromedp.SendKeys(chromedp.ID("input"), "hello"),
		chromedp.Click(chromedp.ID("send")),
	); err != nil {
		b.fail("chatting", err)
	}
	b.waitFor("an answer", `(() => { const m = document.querySelector(".msg.assistant:not(.streaming) .bubble"); return !!m && m.innerText.length > 0 && !document.querySelector(".error-line"); })()`)
	// The server forgets the login (a restart): the page's next API call
	// gets 401 and the page goes to the login form.
	httpOnly := true
	if err := chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{
			Name: web.CookieName, Value: strings.Repeat("ab", 32), URL: base + "/", HTTPOnly: &httpOnly})
		return err
	})); err != nil {
		b.fail("replacing the login cookie", err)
	}
	// The poll is cut short when the page navigates away; poll again.
	for range 3 {
		ok, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`location.pathname === "/login" && !!document.querySelector("input[name=token]")`, chromedp.WithPollingTimeout(20*time.Second)))
		if err == nil && ok {
			return
		}
	}
	b.fail("the login form after a 401", errors.New("the page did not go to /login"))
}

// TestBrowserStop: the stop button ends a streaming answer — the
// server's turn is cancelled, the stream ends, the partial answer stays
// marked as stopped — and a question typed while the answer streamed is
// queued and answered next.
func TestBrowserStop(t *testing.T) {
	t.Parallel()
	b := startBrowser(t)
	dir := t.TempDir()
	hist, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ups, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	blocking := testkit.NewBlocking()
	blocking.Before = "部分回答 partial answer"
	sw := testkit.NewSwitchable(blocking)
	svc, err := chat.New(chat.Config{History: hist, Uploads: ups, Agent: sw})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(context.Background()) })
	srv, err := web.New(web.Config{Chat: svc, Tokens: tokens.NewStore(0)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	base := "http://" + ln.Addr().String()

	if err := chromedp.Do(b.ctx,
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.ID("input")),
		chromedp.SendKeys(chromedp.ID("input"), "a long question"),
		chromedp.Click(chromedp.ID("send")),
	); err != nil {
		b.fail("asking", err)
	}
	<-blocking.Started
	sw.Set(agent.Placeholder{}) // the queued question's answer
	b.waitFor("the partial answer and the stop button", `(() => {
		const m = document.querySelector(".msg.assistant.streaming .bubble");
		const s = document.getElementById("stop");
		return !!m && m.innerText.includes("partial answer") && !s.hidden && !s.disabled;
	})()`)
	if err := chromedp.Do(b.ctx,
		chromedp.SendKeys(chromedp.ID("input"), "queued question\n"),
	); err != nil {
		b.fail("typing while the answer streams", err)
	}
	b.waitFor("the question queued", `[...document.querySelectorAll(".notice")].some(n => n.innerText.includes("Queued"))`)
	b.shot("browser-streaming.png") // the stop button beside Send
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("stop"))); err != nil {
		b.fail("clicking stop", err)
	}
	select {
	case <-blocking.Cancelled:
	case <-b.ctx.Done():
		b.fail("the turn's cancel", b.ctx.Err())
	}
	b.waitFor("the stopped answer", `(() => {
		const m = document.querySelector(".msg.assistant");
		return !!m && !m.classList.contains("streaming") && m.innerText.includes("partial answer") && !!m.querySelector(".cancelled-line") && !m.querySelector(".error-line");
	})()`)
	b.waitFor("the queued question's answer", `(() => {
		const ms = document.querySelectorAll(".msg.assistant:not(.streaming) .bubble");
		return ms.length === 2 && ms[1].innerText.includes("queued question") && document.getElementById("stop").hidden;
	})()`)
	b.shot("browser-stop.png")
	list := hist.List()
	if len(list) != 1 {
		t.Fatalf("conversations %+v", list)
	}
	c, err := hist.Get(list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if ms := c.Messages(); len(ms) != 4 || !ms[1].Cancelled || ms[1].Content != blocking.Before {
		t.Fatalf("history %+v", ms)
	}
}

// startPublicWeb serves the web page as a public server whose token is
// token, over the placeholder agent, and returns its base URL.
func startPublicWeb(t *testing.T, token string) string {
	t.Helper()
	base, _ := serveWeb(t, agent.Placeholder{}, web.Config{Public: true, AuthToken: token})
	return base
}
