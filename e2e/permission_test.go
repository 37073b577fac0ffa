package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
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

	"go.uber.org/zap/zaptest"

	"opsassist/agent"
	"opsassist/agent/builtin"
	"opsassist/agent/llm"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/cli"
	"opsassist/client"
	"opsassist/storage/history"
	"opsassist/storage/tokens"
	"opsassist/storage/uploads"
	"opsassist/tools"
	"opsassist/tools/askuser"
	"opsassist/tools/command"
	"opsassist/tools/pathguard"
	"opsassist/transport/npltserver"
	"opsassist/transport/web"
)

// askCommands is a test Policy: every command_executor call is asked,
// scoped to the command's first word; other tools are allowed.
type askCommands struct{}

func (askCommands) Decide(_ context.Context, _ *tools.Call, spec tools.Spec, args json.RawMessage) tools.Verdict {
	if spec.Name != "command_executor" {
		return tools.Verdict{Decision: tools.Allow}
	}
	var a struct{ Command string }
	json.Unmarshal(args, &a)
	first, _, _ := strings.Cut(strings.TrimSpace(a.Command), " ")
	return tools.Verdict{Decision: tools.Ask, Reason: "commands need your approval", Scope: "command_executor:" + first}
}

// fakeOpenAI plays a chat completions script: the first request gets the
// tool calls, later ones "done"; it keeps every request.
type fakeOpenAI struct {
	*httptest.Server
	calls string // the first answer's tool_calls delta, JSON

	mu       sync.Mutex
	requests []string
}

func newFakeOpenAI(t *testing.T, calls string) *fakeOpenAI {
	f := &fakeOpenAI{calls: calls}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
			// The daemon's reachability probe: not a chat request.
			fmt.Fprint(w, `{"object":"list","data":[{"id":"m","object":"model"}]}`)
			return
		}
		var body json.RawMessage
		json.NewDecoder(r.Body).Decode(&body)
		f.mu.Lock()
		f.requests = append(f.requests, string(body))
		n := len(f.requests)
		f.mu.Unlock()
		delta := `{"role":"assistant","content":"done"}`
		if n == 1 {
			delta = `{"role":"assistant","tool_calls":` + f.calls + `}`
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, d := range []string{delta, `{}`} {
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s}]}\n\n", d)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(f.Close)
	return f
}

// toolMessages returns the tool messages the model was sent last.
func (f *fakeOpenAI) toolMessages(t *testing.T) map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var body struct {
		Messages []struct {
			Role, Content string
			ToolCallID    string `json:"tool_call_id"`
		}
	}
	if len(f.requests) < 2 || json.Unmarshal([]byte(f.requests[len(f.requests)-1]), &body) != nil {
		t.Fatalf("model requests: %v", f.requests)
	}
	out := map[string]string{}
	for _, m := range body.Messages {
		if m.Role == "tool" {
			out[m.ToolCallID] = m.Content
		}
	}
	return out
}

// askStack is the chat core with the builtin planner and a model planner
// ("deepseek", the fake OpenAI server) over command_executor behind
// askCommands and ask_user, served over NPLT and HTTP on 127.0.0.1:0.
type askStack struct {
	nplt, http string
	ws         string
}

func startAskStack(t *testing.T, model *fakeOpenAI, timeout time.Duration) *askStack {
	t.Helper()
	dir := t.TempDir()
	log := zaptest.NewLogger(t)
	ws := filepath.Join(dir, "workspace")
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "marker-file.txt"), []byte("x"), 0o600)
	paths, err := pathguard.New(pathguard.Config{Roots: []string{ws}, BaseDir: ws})
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := command.New(command.Config{Workspace: ws, Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(tools.Config{Policy: askCommands{}})
	if err := reg.Register(cmd); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(askuser.Tool{}); err != nil {
		t.Fatal(err)
	}
	planners := map[string]agent.Planner{"builtin": builtin.New(builtin.Config{})}
	models := []string{"builtin"}
	if model != nil {
		planners["deepseek"] = llm.New(llm.Config{BaseURL: model.URL + "/v1", Model: "m", APIKey: "sk-test"})
		models = append(models, "deepseek")
	}
	ag, err := agent.New(agent.Config{Planners: planners, Tools: reg})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := history.Open(filepath.Join(dir, "history"), log)
	if err != nil {
		t.Fatal(err)
	}
	ups, err := uploads.NewStore(filepath.Join(dir, "uploads"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := chat.New(chat.Config{History: hist, Uploads: ups, Agent: ag, Models: models, PermissionTimeout: timeout, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	ns, err := npltserver.New(npltserver.Config{Chat: svc, Version: "test", Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- ns.Serve(ln) }()
	ws2, err := web.New(web.Config{Chat: svc, Tokens: tokens.NewStore(time.Minute), Version: "test", Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(ws2.Handler())
	t.Cleanup(func() {
		hs.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ns.Shutdown(ctx)
		if err := <-served; !errors.Is(err, npltserver.ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
		svc.Close(ctx)
	})
	return &askStack{nplt: ln.Addr().String(), http: hs.URL, ws: ws}
}

// chatAnswering runs one chat over NPLT, answering each permission
// request with the next of decisions, and returns the text and the
// requests.
func chatAnswering(t *testing.T, conn *client.Conn, q string, decisions ...string) (string, []api.PermissionRequest) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var text strings.Builder
	var reqs []api.PermissionRequest
	err := conn.Chat(ctx, q, func(ev client.Event) {
		switch ev.Type {
		case client.EventDelta:
			text.WriteString(ev.Text)
		case client.EventPermission:
			reqs = append(reqs, ev.Permission)
			if len(decisions) == 0 {
				return // let it expire
			}
			if err := conn.AnswerPermission(ev.Permission.RequestID, decisions[0]); err != nil {
				t.Error(err)
			}
			decisions = decisions[1:]
		}
	})
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return text.String(), reqs
}

// TestPermissionBuiltinNPLT: with the offline planner, "执行 ls" is
// asked; allow_once runs it, deny and no answer do not and the user
// reads why; allow_session is not asked again for ls but is for pwd.
func TestPermissionBuiltinNPLT(t *testing.T) {
	st := startAskStack(t, nil, time.Minute)
	conn, err := client.Dial(context.Background(), st.nplt, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	text, reqs := chatAnswering(t, conn, "执行 ls", api.DecisionAllowOnce)
	if len(reqs) != 1 || reqs[0].Tool != "command_executor" || !strings.Contains(string(reqs[0].Args), "ls") || !strings.Contains(text, "marker-file.txt") {
		t.Fatalf("allow_once: %q, %+v", text, reqs)
	}
	text, reqs = chatAnswering(t, conn, "执行 ls", api.DecisionDeny)
	if len(reqs) != 1 || strings.Contains(text, "marker-file.txt") {
		t.Fatalf("deny: %q", text)
	}
	msgs, err := conn.History(context.Background())
	if err != nil || !strings.Contains(string(msgs.Data), "declined") {
		t.Fatalf("the model was not told: %s %v", msgs.Data, err)
	}
	text, _ = chatAnswering(t, conn, "执行 ls", api.DecisionAllowSession)
	if !strings.Contains(text, "marker-file.txt") {
		t.Fatalf("allow_session: %q", text)
	}
	if text, reqs = chatAnswering(t, conn, "执行 ls"); len(reqs) != 0 || !strings.Contains(text, "marker-file.txt") {
		t.Fatalf("asked again for ls: %q %+v", text, reqs)
	}
	if _, reqs = chatAnswering(t, conn, "执行 pwd", api.DecisionDeny); len(reqs) != 1 {
		t.Fatalf("not asked for pwd: %+v", reqs)
	}
	grants, err := conn.Grants(context.Background())
	if err != nil || len(grants) != 1 || grants[0].Scope != "command_executor:ls" {
		t.Fatalf("grants %+v %v", grants, err)
	}
}

// TestPermissionTimeoutNPLT: a request nobody answers is denied when it
// expires; the turn ends and the model is told.
func TestPermissionTimeoutNPLT(t *testing.T) {
	st := startAskStack(t, nil, 50*time.Millisecond)
	conn, err := client.Dial(context.Background(), st.nplt, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if text, reqs := chatAnswering(t, conn, "执行 ls"); len(reqs) != 1 || strings.Contains(text, "marker-file.txt") {
		t.Fatalf("%q %+v", text, reqs)
	}
	msgs, err := conn.History(context.Background())
	if err != nil || !strings.Contains(string(msgs.Data), "did not answer") {
		t.Fatalf("the model was not told: %s %v", msgs.Data, err)
	}
}

// TestPermissionModelHTTP: the model calls two commands at once; both
// requests are pending together over SSE, answered in reverse order
// over HTTP; the model is told which ran and which the user declined.
func TestPermissionModelHTTP(t *testing.T) {
	model := newFakeOpenAI(t, `[{"index":0,"id":"call_a","type":"function","function":{"name":"command_executor","arguments":"{\"command\":\"ls\"}"}},`+
		`{"index":1,"id":"call_b","type":"function","function":{"name":"command_executor","arguments":"{\"command\":\"pwd\"}"}}]`)
	st := startAskStack(t, model, time.Minute)
	res, err := http.Post(st.http+"/api/sessions", "application/json", strings.NewReader(`{"model":"deepseek"}`))
	if err != nil {
		t.Fatal(err)
	}
	var sess struct {
		ID string `json:"session_id"`
	}
	json.NewDecoder(res.Body).Decode(&sess)
	res.Body.Close()
	if sess.ID == "" {
		t.Fatal("no session")
	}
	stream, err := http.Post(st.http+"/api/chat", "application/json", strings.NewReader(`{"message":"list and show the directory","session_id":"`+sess.ID+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	sc := bufio.NewScanner(stream.Body)
	var reqs []api.PermissionRequest
	event := ""
	var text strings.Builder
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			event = e
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		switch event {
		case api.EventPermissionRequest:
			var p api.PermissionRequest
			json.Unmarshal([]byte(data), &p)
			reqs = append(reqs, p)
			if len(reqs) == 2 { // both pending: answer the one that came last first
				decision := map[string]string{"call_a": api.DecisionDeny, "call_b": api.DecisionAllowOnce}
				for _, a := range []struct {
					p api.PermissionRequest
					d string
				}{{reqs[1], decision[reqs[1].ToolCallID]}, {reqs[0], decision[reqs[0].ToolCallID]}} {
					r, err := http.Post(st.http+"/api/sessions/"+sess.ID+"/permissions/"+a.p.RequestID, "application/json", strings.NewReader(`{"decision":"`+a.d+`"}`))
					if err != nil || r.StatusCode != http.StatusOK {
						t.Fatalf("answer: %v %v", r, err)
					}
					r.Body.Close()
				}
			}
		case api.EventDelta:
			var d struct{ Text string }
			json.Unmarshal([]byte(data), &d)
			text.WriteString(d.Text)
		}
	}
	// The two calls run in parallel: their requests may come in either order.
	if len(reqs) != 2 || reqs[0].ToolCallID == reqs[1].ToolCallID || text.String() != "done" ||
		!slices.ContainsFunc(reqs, func(p api.PermissionRequest) bool { return p.ToolCallID == "call_a" }) ||
		!slices.ContainsFunc(reqs, func(p api.PermissionRequest) bool { return p.ToolCallID == "call_b" }) {
		t.Fatalf("requests %+v, text %q", reqs, text.String())
	}
	told := model.toolMessages(t)
	if !strings.Contains(told["call_a"], "declined") || !strings.Contains(told["call_b"], `"success":true`) || !strings.Contains(told["call_b"], st.ws) {
		t.Fatalf("the model was told %v", told)
	}
}

// TestPermissionCLI: "opsassist ask --yes" allows the call once; without
// --yes a stdin that is not a terminal denies it; the REPL answers y, a
// and n typed after the question.
func TestPermissionCLI(t *testing.T) {
	st := startAskStack(t, nil, time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	run := func(stdin string, args ...string) (string, string) {
		var out, errOut strings.Builder
		prog := &cli.CLI{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string {
			if k == "HOME" {
				return t.TempDir()
			}
			return ""
		}}
		if code := prog.Run(ctx, append([]string{"--server", st.nplt}, args...)); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		return out.String(), errOut.String()
	}
	if out, errOut := run("", "ask", "--yes", "执行 ls"); !strings.Contains(out, "marker-file.txt") || !strings.Contains(errOut, "--yes") {
		t.Fatalf("--yes: %q %q", out, errOut)
	}
	if out, errOut := run("y\n", "ask", "执行 ls"); strings.Contains(out, "marker-file.txt") || !strings.Contains(errOut, "not a terminal") {
		t.Fatalf("no tty: %q %q", out, errOut)
	}
	out, _ := run("执行 ls\ny\n执行 pwd\na\n执行 pwd\n执行 ls\nn\n/permissions\n/quit\n")
	if strings.Count(out, "marker-file.txt") != 1 || strings.Count(out, "permission needed") != 3 || strings.Count(out, st.ws) < 2 ||
		!strings.Contains(out, "command_executor:pwd") {
		t.Fatalf("REPL:\n%s", out)
	}
}

// TestPermissionDaemonDefaults is the new-user acceptance on a
// daemon with the default configuration: "执行 cat /etc/hostname" (a path
// outside the allowed roots) is asked about, y shows the file, n does
// not run it, and /etc/shadow is denied without a question.
func TestPermissionDaemonDefaults(t *testing.T) {
	want, err := os.ReadFile("/etc/hostname")
	if err != nil || len(strings.TrimSpace(string(want))) == 0 {
		t.Skip("no /etc/hostname here")
	}
	a := startApp(t, t.TempDir())
	defer stop(t, a)
	conn, err := client.Dial(context.Background(), a.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	text, reqs := chatAnswering(t, conn, "执行 cat /etc/hostname", api.DecisionAllowOnce)
	if len(reqs) != 1 || reqs[0].Tool != "command_executor" || !strings.Contains(text, strings.TrimSpace(string(want))) {
		t.Fatalf("allow: %q, %+v", text, reqs)
	}
	text, reqs = chatAnswering(t, conn, "执行 cat /etc/hostname", api.DecisionDeny)
	if len(reqs) != 1 || strings.Contains(text, strings.TrimSpace(string(want))) {
		t.Fatalf("deny: %q, %+v", text, reqs)
	}
	if _, reqs = chatAnswering(t, conn, "执行 cat /etc/shadow", api.DecisionAllowOnce); len(reqs) != 0 {
		t.Fatalf("asked about /etc/shadow: %+v", reqs)
	}
}
