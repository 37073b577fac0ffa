package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"go.uber.org/zap/zaptest"

	"opsassist/agent"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/asktest"
	"opsassist/storage/history"
	"opsassist/storage/tokens"
	"opsassist/storage/uploads"
	"opsassist/transport/web"
)

// startProbeWeb serves the web client over a chat core whose agent is
// asktest's (newProbeWeb) on 127.0.0.1:0. timeout is
// permissions.timeout.
func startProbeWeb(t *testing.T, timeout time.Duration) (string, *asktest.Tool) {
	t.Helper()
	srv, probe := newProbeWeb(t, timeout)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return "http://" + ln.Addr().String(), probe
}

// newProbeWeb builds, without serving it, the web server over a chat
// core whose agent is asktest's: "probe A B…" calls the probe tool once
// per unit, all at once, each call asked about (scope "probe:UNIT"), and
// the answer lists what every tool result said. timeout is
// permissions.timeout.
func newProbeWeb(t *testing.T, timeout time.Duration) (*web.Server, *asktest.Tool) {
	t.Helper()
	dir := t.TempDir()
	log := zaptest.NewLogger(t)
	hist, err := history.Open(filepath.Join(dir, "history"), log)
	if err != nil {
		t.Fatal(err)
	}
	ups, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	ag, probe, err := asktest.NewAgent()
	if err != nil {
		t.Fatal(err)
	}
	svc, err := chat.New(chat.Config{History: hist, Uploads: ups, Agent: ag, PermissionTimeout: timeout, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(context.Background()) })
	srv, err := web.New(web.Config{Chat: svc, Tokens: tokens.NewStore(0), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	return srv, probe
}

// cardJS is a JavaScript expression for the permission card of the
// probe call for unit (each test question uses new units).
func cardJS(unit string) string {
	return `document.querySelector('.card-permission[data-tool-call-id="call-` + unit + `"]')`
}

// TestBrowserPermissionCards answers permission cards by clicking: the
// card shows the tool, its arguments, risk, the reason in the browser's
// language (reason_zh or reason_en, not both) and a countdown;
// allow once (pressed with Enter) runs the call and its result shows;
// deny does not and the answer says the user declined; two cards of one
// reply answered in reverse order; a card answered elsewhere says so; an
// allow_session grant is listed in the header and revoked; the stop
// button withdraws a pending card; a request nobody answers shows it
// expired. Screenshots at desktop width and at 360 px.
func TestBrowserPermissionCards(t *testing.T) {
	t.Parallel()
	b := startBrowser(t)
	noScriptErrors(t, b)
	base, probe := startProbeWeb(t, time.Minute)

	ask := func(q string) {
		t.Helper()
		if err := chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.ID("input"), q), chromedp.Click(chromedp.ID("send"))); err != nil {
			b.fail("asking "+q, err)
		}
	}
	click := func(step, unit, decision string) {
		t.Helper()
		if err := chromedp.Do(b.ctx, chromedp.Click(fmt.Sprintf(`.card-permission[data-tool-call-id="call-%s"] button[data-decision="%s"]`, unit, decision))); err != nil {
			b.fail(step, err)
		}
	}
	replyDone := func(step, cond string) {
		t.Helper()
		b.waitFor(step, `(() => { const m = [...document.querySelectorAll(".msg.assistant")].pop();
			return !!m && !m.classList.contains("streaming") && document.getElementById("stop").hidden && (`+cond+`)(m); })()`)
	}
	cardSays := func(unit, text string) string {
		return `(() => { const c = ` + cardJS(unit) + `; return !!c && c.classList.contains("inactive") &&
			c.querySelector(".card-status").innerText.includes(` + jsString(text) + `) && [...c.querySelectorAll("button")].every(b => b.disabled); })()`
	}

	// 1. One request: the card, its countdown, at desktop width and 360 px.
	if err := chromedp.Do(b.ctx,
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.ID("input")),
	); err != nil {
		b.fail("opening the page", err)
	}
	ask("probe a")
	b.waitFor("the permission card", `(() => { const c = `+cardJS("a")+`; if (!c || !c.classList.contains("pending")) return false;
		const t = c.innerText;
		const zh = /^zh/i.test((navigator.languages && navigator.languages[0]) || navigator.language || "");
		const reason = zh ? t.includes(`+jsString(asktest.ReasonZh)+`) && !t.includes(`+jsString(asktest.ReasonEn)+`)
			: t.includes(`+jsString(asktest.ReasonEn)+`) && !t.includes(`+jsString(asktest.ReasonZh)+`);
		return t.includes("probe") && t.includes('"unit": "a"') && reason &&
			!!c.querySelector(".risk.risk-sensitive") && /^[01]:\d\d$/.test(c.querySelector(".card-countdown").innerText.trim()) && !!c.querySelector(".card-countdown svg.icon-clock") &&
			c.querySelectorAll("button:not([disabled])").length === 3; })()`)
	b.shot("browser-permission.png")
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(360, 780)); err != nil {
		b.fail("phone width", err)
	}
	b.waitFor("the card fits 360 px", `(() => { const c = `+cardJS("a")+`; const r = c.getBoundingClientRect();
		return innerWidth === 360 && r.left >= 0 && r.right <= 360 && document.documentElement.scrollWidth <= 360 &&
			[...c.querySelectorAll("button")].every(b => { const x = b.getBoundingClientRect(); return x.width > 0 && x.right <= 360; }); })()`)
	b.shot("browser-permission-360.png")
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 860)); err != nil {
		b.fail("desktop width", err)
	}
	// Keyboard: the button takes the focus and Enter answers.
	if err := chromedp.Do(b.ctx,
		chromedp.Focus(`.card-permission[data-tool-call-id="call-a"] button[data-decision="allow_once"]`),
		chromedp.KeyEvent("\r"),
	); err != nil {
		b.fail("allowing once with Enter", err)
	}
	b.waitFor("allowed once", cardSays("a", "Allowed once"))
	replyDone("the tool's result", `m => m.querySelector(".bubble").innerText.includes('call-a {"success":true') && m.innerText.includes('"ran":"a"')`)
	if runs := probe.Runs(); !slices.Equal(runs, []string{"a"}) {
		t.Fatalf("runs after allow once: %v", runs)
	}

	// 2. Deny: not run, and the answer says the user declined.
	ask("probe b")
	b.waitFor("the card for b", cardJS("b")+` !== null`)
	click("denying", "b", "deny")
	b.waitFor("denied", cardSays("b", "Denied"))
	replyDone("the declined answer", `m => m.querySelector(".bubble").innerText.includes("declined")`)
	if runs := probe.Runs(); !slices.Equal(runs, []string{"a"}) {
		t.Fatalf("runs after deny: %v", runs)
	}

	// 3. Two cards in one reply, answered in reverse order.
	ask("probe c d")
	b.waitFor("two pending cards", `document.querySelectorAll(".card-permission.pending").length === 2`)
	click("allowing d", "d", "allow_once")
	b.waitFor("d allowed, c still pending", cardSays("d", "Allowed once")+` && `+cardJS("c")+`.classList.contains("pending")`)
	click("denying c", "c", "deny")
	b.waitFor("c denied", cardSays("c", "Denied"))
	replyDone("both results", `m => { const t = m.querySelector(".bubble").innerText;
		return t.includes('call-d {"success":true') && /call-c .*declined/.test(t); }`)
	if runs := probe.Runs(); !slices.Equal(runs, []string{"a", "d"}) {
		t.Fatalf("runs after c d: %v", runs)
	}

	// 4. A request answered elsewhere (here by the test over HTTP): the
	// click gets 409 and the card says so.
	ask("probe e f")
	b.waitFor("two pending cards", `document.querySelectorAll(".card-permission.pending").length === 2`)
	ids, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`[localStorage.getItem("opsassist.session"), `+cardJS("e")+`.dataset.requestId]`))
	if err != nil || len(ids) != 2 {
		b.fail("reading the request id", fmt.Errorf("%v %v", ids, err))
	}
	postJSON(t, base+"/api/sessions/"+ids[0]+"/permissions/"+ids[1], `{"decision":"deny"}`, http.StatusOK)
	click("answering e again", "e", "allow_once")
	b.waitFor("already answered", cardSays("e", "Already answered"))
	click("denying f", "f", "deny")
	replyDone("e and f declined", `m => (m.querySelector(".bubble").innerText.match(/declined/g) || []).length >= 2`)

	// 5. Allow for this conversation: listed in the header, then revoked.
	ask("probe g")
	b.waitFor("the card for g", cardJS("g")+` !== null`)
	click("allowing g for the session", "g", "allow_session")
	b.waitFor("allowed for the session", cardSays("g", "Allowed for this conversation"))
	replyDone("g's result", `m => m.querySelector(".bubble").innerText.includes('call-g {"success":true')`)
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("grants-toggle"))); err != nil {
		b.fail("opening the grants", err)
	}
	b.waitFor("the grant listed", `(() => { const g = document.querySelectorAll("#grants .grant");
		return !document.getElementById("grants-panel").hidden && g.length === 1 && g[0].innerText.includes("probe:g") &&
			document.getElementById("grants-toggle").getAttribute("aria-expanded") === "true"; })()`)
	b.shot("browser-grants.png")
	if err := chromedp.Do(b.ctx, chromedp.Click(`#grants .grant button.revoke`)); err != nil {
		b.fail("revoking", err)
	}
	b.waitFor("no grants", `document.querySelectorAll("#grants .grant").length === 0 && !document.getElementById("grants-empty").hidden`)
	var list struct {
		Grants []chat.Grant `json:"grants"`
	}
	getJSON(t, base+"/api/sessions/"+ids[0]+"/permissions", &list)
	if len(list.Grants) != 0 {
		t.Fatalf("grants after revoke: %+v", list.Grants)
	}
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("grants-toggle"))); err != nil {
		b.fail("closing the grants", err)
	}

	// 6. The stop button withdraws a pending request.
	ask("probe h")
	b.waitFor("the card for h and the stop button", cardJS("h")+` !== null && !document.getElementById("stop").disabled`)
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.ID("stop"))); err != nil {
		b.fail("stopping", err)
	}
	b.waitFor("withdrawn", cardSays("h", "Stopped"))
	if runs := probe.Runs(); !slices.Equal(runs, []string{"a", "d", "g"}) {
		t.Fatalf("runs: %v", runs)
	}

	// 7. A request nobody answers (a server with a 1 s timeout) expires:
	// the card says so and the call did not run.
	base2, probe2 := startProbeWeb(t, time.Second)
	if err := chromedp.Do(b.ctx,
		chromedp.Navigate(base2+"/"),
		chromedp.WaitVisible(chromedp.ID("input")),
	); err != nil {
		b.fail("opening the second page", err)
	}
	ask("probe x")
	b.waitFor("expired", cardSays("x", "Expired"))
	replyDone("the unanswered reply", `m => m.querySelector(".bubble").innerText.includes("call-x")`)
	b.shot("browser-permission-expired.png")
	if runs := probe2.Runs(); len(runs) != 0 {
		t.Fatalf("an expired request ran: %v", runs)
	}
}

// TestBrowserPermissionDaemon is the new user's path on a daemon with the
// default configuration: "执行 cat /etc/hostname" (a path outside the
// allowed roots) shows a card with the command, Allow once shows the
// file's content; asked again, Deny does not.
func TestBrowserPermissionDaemon(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile("/etc/hostname")
	host := strings.TrimSpace(string(want))
	if err != nil || host == "" {
		t.Skip("no /etc/hostname here")
	}
	a := start(t, daemonConfig(t.TempDir()))
	t.Cleanup(func() { stop(t, a) })
	b := startBrowser(t) // closed first, before the daemon stops
	noScriptErrors(t, b)
	base := "http://" + a.HTTPAddr().String()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("input"))); err != nil {
		b.fail("opening the page", err)
	}
	for i, decision := range []string{"allow_once", "deny"} {
		if err := chromedp.Do(b.ctx,
			chromedp.SendKeys(chromedp.ID("input"), "执行 cat /etc/hostname"),
			chromedp.Click(chromedp.ID("send")),
		); err != nil {
			b.fail("asking", err)
		}
		b.waitFor("the card", fmt.Sprintf(`(() => { const c = document.querySelectorAll(".card-permission")[%d];
			return !!c && c.classList.contains("pending") && c.querySelector(".card-command").innerText === "$ cat /etc/hostname" &&
				c.querySelector(".card-args").innerText.includes('"/etc/hostname"') &&
				c.innerText.includes("command_executor"); })()`, i))
		if i == 0 {
			b.shot("browser-permission-daemon.png")
		}
		if err := chromedp.Do(b.ctx, chromedp.Click(fmt.Sprintf(`.msg.assistant:nth-last-child(1 of .msg.assistant) .card-permission button[data-decision="%s"]`, decision))); err != nil {
			b.fail("answering "+decision, err)
		}
		b.waitFor("the answer", fmt.Sprintf(`(() => { const m = [...document.querySelectorAll(".msg.assistant")][%d];
			return !!m && !m.classList.contains("streaming") && m.querySelector(".card-status.answered") !== null && m.querySelector(".bubble").innerText.length > 0; })()`, i))
	}
	answers, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".msg.assistant .bubble")].map(b => b.innerText)`))
	if err != nil || len(answers) != 2 {
		b.fail("reading the answers", fmt.Errorf("%q %v", answers, err))
	}
	if !strings.Contains(answers[0], host) || strings.Contains(answers[1], host) {
		t.Fatalf("allow once: %q; deny: %q", answers[0], answers[1])
	}
}

// noScriptErrors fails t at its end if a script on the page threw an
// uncaught exception or logged an error to the console.
func noScriptErrors(t *testing.T, b browserRun) {
	var mu sync.Mutex
	var errs []string
	err := chromedp.Listen(b.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			errs = append(errs, fmt.Sprintf("%s %+v", e.ExceptionDetails.Text, e.ExceptionDetails.Exception))
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				errs = append(errs, fmt.Sprintf("console.error %v", e.Args))
			}
		}
	})
	if err != nil {
		t.Fatalf("listening to the page: %v", err)
	}
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		if len(errs) > 0 {
			t.Errorf("script errors on the page: %v", errs)
		}
	})
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// postJSON posts body to url and requires the status.
func postJSON(t *testing.T, url, body string, status int) {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != status {
		t.Fatalf("POST %s: %d, want %d", url, res.StatusCode, status)
	}
}

// getJSON decodes the JSON answer of GET url into v.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// questionFake serves the web client and the real API, except that POST
// /api/chat answers with one reply carrying the questions it is given,
// and POST /api/sessions/{id}/questions/{request_id} records the answer
// (200; 409 for a request answered before); the reply ends once every
// question is answered. It stands in for the ask_user tool's server side
// so the question card can be driven before that lands.
type questionFake struct {
	real      http.Handler
	session   string
	questions []api.Question

	mu      sync.Mutex
	answers map[string]string // request id → answer
	done    chan struct{}     // closed when every question is answered
}

func (f *questionFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/api/chat":
		w.Header().Set("Content-Type", "text/event-stream")
		flush := func(typ string, v any) {
			b, _ := json.Marshal(v)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
			w.(http.Flusher).Flush()
		}
		flush(api.EventStreamStart, map[string]string{"session_id": f.session})
		for _, q := range f.questions {
			flush(api.EventQuestion, q)
		}
		select {
		case <-f.done:
		case <-r.Context().Done():
			return
		}
		f.mu.Lock()
		var text strings.Builder
		for _, q := range f.questions {
			fmt.Fprintf(&text, "%s=%s; ", q.RequestID, f.answers[q.RequestID])
		}
		f.mu.Unlock()
		flush(api.EventDelta, map[string]string{"text": text.String()})
		flush(api.EventEnd, struct{}{})
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/api/sessions/"+f.session+"/questions/"):
		id := strings.TrimPrefix(r.URL.Path, "/api/sessions/"+f.session+"/questions/")
		var a api.Answer
		if err := json.NewDecoder(r.Body).Decode(&a); err != nil {
			http.Error(w, `{"code":"bad_json","message":"bad json"}`, http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if _, ok := f.answers[id]; ok {
			w.WriteHeader(http.StatusConflict)
			fmt.Fprint(w, `{"code":"question_answered","message":"already answered"}`)
			return
		}
		f.answers[id] = a.Answer
		if len(f.answers) == len(f.questions) {
			close(f.done)
		}
		json.NewEncoder(w).Encode(map[string]string{"request_id": id, "answer": a.Answer})
	default:
		f.real.ServeHTTP(w, r)
	}
}

// TestBrowserQuestionCards drives the question card against questionFake
// (the ask_user tool's server side is not in this tree yet): one reply
// asks a choice (the recommended option marked, a description, the
// default shown), a free-text question (typed, sent with Enter) and a
// confirmation (yes/no); each answer is posted as {"answer"} and shown
// on its card; a card whose question was answered elsewhere says so.
func TestBrowserQuestionCards(t *testing.T) {
	t.Parallel()
	b := startBrowser(t)
	noScriptErrors(t, b)
	dir := t.TempDir()
	hist, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ups, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := chat.New(chat.Config{History: hist, Uploads: ups, Agent: agent.Placeholder{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(context.Background()) })
	srv, err := web.New(web.Config{Chat: svc, Tokens: tokens.NewStore(0)})
	if err != nil {
		t.Fatal(err)
	}
	expires := time.Now().Add(2 * time.Minute).UTC().Format(time.RFC3339)
	f := &questionFake{real: srv.Handler(), answers: map[string]string{}, done: make(chan struct{}),
		questions: []api.Question{
			{RequestID: "q-choice", Question: "下载哪个配置文件？Which config file?", Kind: api.QuestionChoice, ExpiresAt: expires, Default: "nginx",
				Options: []api.QuestionOption{
					{ID: "nginx", Label: "nginx.conf", Description: "/etc/nginx/nginx.conf", Recommended: true},
					{ID: "app", Label: "app.yaml <b>not bold</b>"},
				}},
			{RequestID: "q-text", Question: "哪个服务？Which service?", Kind: api.QuestionText, ExpiresAt: expires},
			{RequestID: "q-confirm", Question: "继续吗？Go on?", Kind: api.QuestionConfirm, ExpiresAt: expires},
		}}
	hs := httptest.NewServer(f)
	t.Cleanup(hs.Close)
	var sess struct {
		ID string `json:"session_id"`
	}
	res, err := http.Post(hs.URL+"/api/sessions", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(res.Body).Decode(&sess)
	res.Body.Close()
	if sess.ID == "" {
		t.Fatal("no session")
	}
	f.session = sess.ID

	card := func(id string) string {
		return `document.querySelector('.card-question[data-request-id="` + id + `"]')`
	}
	if err := chromedp.Do(b.ctx,
		chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("input")),
		chromedp.SendKeys(chromedp.ID("input"), "下载配置文件"),
		chromedp.Click(chromedp.ID("send")),
	); err != nil {
		b.fail("asking", err)
	}
	b.waitFor("three question cards", `(() => { const c = `+card("q-choice")+`, t = `+card("q-text")+`, y = `+card("q-confirm")+`;
		if (!c || !t || !y) return false;
		const opts = [...c.querySelectorAll("button[data-answer]")];
		return opts.length === 2 && opts[0].innerText.includes("recommended") && opts[0].innerText.includes("/etc/nginx/nginx.conf") &&
			opts[1].innerText.includes("<b>not bold</b>") && !c.querySelector("b") &&
			c.innerText.includes("nginx.conf (used if no answer)") && /^[12]:\d\d$/.test(c.querySelector(".card-countdown").innerText.trim()) && !!c.querySelector(".card-countdown svg.icon-clock") &&
			!!t.querySelector("input[type=text]") && [...y.querySelectorAll("button[data-answer]")].map(b => b.dataset.answer).join() === "yes,no"; })()`)
	b.shot("browser-question.png")
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(360, 780)); err != nil {
		b.fail("phone width", err)
	}
	b.waitFor("the cards fit 360 px", `document.documentElement.scrollWidth <= 360 && [...document.querySelectorAll(".card-question button")].every(b => b.getBoundingClientRect().right <= 360)`)
	b.shot("browser-question-360.png")
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 860)); err != nil {
		b.fail("desktop width", err)
	}

	// The choice is answered elsewhere first: the click gets 409.
	f.mu.Lock()
	f.answers["q-choice"] = "app"
	f.mu.Unlock()
	if err := chromedp.Do(b.ctx, chromedp.Click(`.card-question[data-request-id="q-choice"] button[data-answer="nginx"]`)); err != nil {
		b.fail("choosing", err)
	}
	b.waitFor("already answered", card("q-choice")+`.querySelector(".card-status").innerText.includes("Already answered")`)
	if err := chromedp.Do(b.ctx,
		chromedp.SendKeys(`.card-question[data-request-id="q-text"] input`, "nginx\r"),
		chromedp.Click(`.card-question[data-request-id="q-confirm"] button[data-answer="no"]`),
	); err != nil {
		b.fail("answering", err)
	}
	b.waitFor("the reply with the answers", `(() => { const m = document.querySelector(".msg.assistant:not(.streaming) .bubble");
		return !!m && m.innerText.includes("q-text=nginx;") && m.innerText.includes("q-confirm=no;") &&
			`+card("q-text")+`.querySelector(".card-status").innerText.includes("Answered: nginx") &&
			`+card("q-confirm")+`.querySelector(".card-status").innerText.includes("Answered: No"); })()`)
	b.shot("browser-question-answered.png")
}
