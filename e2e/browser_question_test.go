package e2e

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
)

// uploadHTTP uploads a file named name with body data through POST
// /api/files into session (a new conversation when empty) and returns
// the conversation's id.
func uploadHTTP(t *testing.T, base, session, name, data string) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if session != "" {
		mw.WriteField("session_id", session)
	}
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write([]byte(data))
	mw.Close()
	res, err := http.Post(base+"/api/files", mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var up struct {
		SessionID string `json:"session_id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&up); err != nil || res.StatusCode != http.StatusOK || up.SessionID == "" {
		t.Fatalf("upload %s: %d %v %+v", name, res.StatusCode, err, up)
	}
	return up.SessionID
}

// TestBrowserQuestionDaemon: on a default daemon with the builtin
// planner, "下载配置文件" in a conversation holding two YAML uploads makes
// the ask_user question card offer both; clicking one answers it and the
// reply offers that very file for download.
func TestBrowserQuestionDaemon(t *testing.T) {
	t.Parallel()
	a := start(t, daemonConfig(t.TempDir()))
	t.Cleanup(func() { stop(t, a) })
	base := "http://" + a.HTTPAddr().String()
	sess := uploadHTTP(t, base, "", "app.yaml", "app: true\n")
	uploadHTTP(t, base, sess, "db.yaml", "db: true\n")

	b := startBrowser(t) // closed first, before the daemon stops
	noScriptErrors(t, b)
	if err := chromedp.Do(b.ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("input"))); err != nil {
		b.fail("opening the page", err)
	}
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(localStorage.setItem("opsassist.session", `+jsString(sess)+`), true)`)); err != nil {
		b.fail("choosing the conversation", err)
	}
	if err := chromedp.Do(b.ctx,
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.ID("input")),
		chromedp.SendKeys(chromedp.ID("input"), "下载配置文件"),
		chromedp.Click(chromedp.ID("send")),
	); err != nil {
		b.fail("asking", err)
	}
	b.waitFor("the question card with both files", `(() => { const c = document.querySelector(".card-question.pending");
		if (!c) return false;
		const labels = [...c.querySelectorAll("button[data-answer]")].map(b => b.innerText);
		return labels.length === 2 && labels.some(l => l.includes("app.yaml")) && labels.some(l => l.includes("db.yaml")); })()`)
	b.shot("browser-question-daemon.png")
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`([...document.querySelectorAll(".card-question.pending button[data-answer]")].find(b => b.innerText.includes("app.yaml")).click(), true)`)); err != nil {
		b.fail("choosing app.yaml", err)
	}
	b.waitFor("the chosen file offered", `(() => { const m = document.querySelector(".msg.assistant:not(.streaming)");
		if (!m) return false;
		const offers = [...m.querySelectorAll(".offer")];
		return m.querySelector(".card-question").innerText.includes("Answered: app.yaml") && offers.length === 1 &&
			offers[0].querySelector(".offer-name").innerText.includes("app.yaml") && !!offers[0].querySelector("a.download-link"); })()`)
}
