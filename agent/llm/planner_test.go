package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/internal/oaretry"
	"opsassist/internal/testkit"
	"opsassist/storage/history"
	"opsassist/tools"
)

// reply is one scripted response of the fake model server.
type reply struct {
	status     int
	retryAfter string
	chunks     []map[string]any // deltas
	block      bool             // wait for the client to go away
}

// fakeModel is an OpenAI-compatible chat completions server that plays a
// script and records the requests.
type fakeModel struct {
	t        *testing.T
	mu       sync.Mutex
	script   []reply
	requests []map[string]any
	gone     chan struct{}
}

func newFake(t *testing.T, script ...reply) (*fakeModel, *httptest.Server) {
	f := &fakeModel{t: t, script: script, gone: make(chan struct{}, 1)}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	json.NewDecoder(r.Body).Decode(&body)
	f.mu.Lock()
	f.requests = append(f.requests, body)
	if len(f.script) == 0 {
		f.mu.Unlock()
		http.Error(w, `{"error":{"message":"script exhausted"}}`, 500)
		return
	}
	rep := f.script[0]
	f.script = f.script[1:]
	f.mu.Unlock()
	if rep.status != 0 {
		if rep.retryAfter != "" {
			w.Header().Set("Retry-After", rep.retryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.status)
		fmt.Fprintf(w, `{"error":{"message":"status %d","type":"test"}}`, rep.status)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl := w.(http.Flusher)
	if rep.block {
		fmt.Fprint(w, "data: "+chunk(map[string]any{"content": "thinking…"})+"\n\n")
		fl.Flush()
		<-r.Context().Done()
		f.gone <- struct{}{}
		return
	}
	for _, d := range rep.chunks {
		fmt.Fprint(w, "data: "+chunk(d)+"\n\n")
		fl.Flush()
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func chunk(delta map[string]any) string {
	b, _ := json.Marshal(map[string]any{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
		"choices": []any{map[string]any{"index": 0, "delta": delta}}})
	return string(b)
}

func text(s string) map[string]any { return map[string]any{"content": s} }

// tc is one tool-call delta.
func tc(index int, id, name, args string) map[string]any {
	c := map[string]any{"index": index, "type": "function", "function": map[string]any{"arguments": args}}
	if id != "" {
		c["id"] = id
		c["function"].(map[string]any)["name"] = name
	}
	return map[string]any{"tool_calls": []any{c}}
}

// fakeTool answers with its name and arguments.
type fakeTool struct{ name string }

func (f fakeTool) Spec() tools.Spec {
	return tools.Spec{Name: f.name, Description: f.name, Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"file_path":{"type":"string"}}}`)}
}

func (f fakeTool) Run(_ context.Context, _ *tools.Call, args json.RawMessage) (any, error) {
	if f.name == "semantic_search" {
		return map[string]any{"total": 1, "results": []any{map[string]any{"filename": "config.yaml", "filepath": "/data/uploads/x/config.yaml"}}}, nil
	}
	return map[string]any{"tool": f.name, "args": json.RawMessage(args)}, nil
}

func newPlanner(srv *httptest.Server, slept *[]time.Duration) *Planner {
	return New(Config{BaseURL: srv.URL + "/v1", Model: "m", APIKey: "sk-test", Backoff: oaretry.Backoff{Base: time.Millisecond, Max: 5 * time.Second},
		Sleep: func(ctx context.Context, d time.Duration) error {
			if slept != nil {
				*slept = append(*slept, d)
			}
			return nil
		}})
}

func newAgent(t *testing.T, p agent.Planner, maxSteps int) *agent.Agent {
	reg := tools.NewRegistry(tools.Config{})
	for _, n := range []string{"semantic_search", "file_download", "sys_monitor"} {
		reg.Register(fakeTool{n})
	}
	a, err := agent.New(agent.Config{Planners: map[string]agent.Planner{"builtin": p}, Tools: reg, MaxSteps: maxSteps})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func respond(t *testing.T, a *agent.Agent, input string) ([]history.Message, string, error) {
	s := &testkit.Recorder{}
	msgs, err := a.Respond(context.Background(), &chat.Turn{Input: input, Model: "builtin", ClientType: "cli", Now: time.Now()}, s)
	return msgs, s.Text.String(), err
}

func TestTwoStepChain(t *testing.T) {
	f, srv := newFake(t,
		reply{chunks: []map[string]any{tc(0, "call_a", "semantic_search", `{"que`), tc(0, "", "", `ry":"config.yaml"}`)}},
		reply{chunks: []map[string]any{tc(0, "call_b", "file_download", `{"file_path":"/data/uploads/x/config.yaml"}`)}},
		reply{chunks: []map[string]any{text("已准备"), text("下载 config.yaml")}},
	)
	msgs, out, err := respond(t, newAgent(t, newPlanner(srv, nil), 0), "下载config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if out != "已准备下载 config.yaml" || len(msgs) != 5 || msgs[0].ToolCalls[0].Arguments != `{"query":"config.yaml"}` {
		t.Fatalf("out %q msgs %+v", out, msgs)
	}
	// The third request carried both tool results, linked by id.
	req := f.requests[2]
	ms := req["messages"].([]any)
	var toolIDs []string
	for _, m := range ms {
		mm := m.(map[string]any)
		if mm["role"] == "tool" {
			toolIDs = append(toolIDs, mm["tool_call_id"].(string))
		}
	}
	if strings.Join(toolIDs, ",") != "call_a,call_b" || len(req["tools"].([]any)) != 3 || req["stream"] != true {
		t.Fatalf("tool ids %v, request %v", toolIDs, req["tools"])
	}
}

func TestParallelCallsEachGetOneResult(t *testing.T) {
	_, srv := newFake(t,
		reply{chunks: []map[string]any{
			tc(0, "c1", "sys_monitor", `{"q`), tc(1, "c2", "semantic_search", `{"query"`), tc(0, "", "", `uery":"cpu"}`), tc(1, "", "", `:"db"}`)}},
		reply{chunks: []map[string]any{text("done")}},
	)
	msgs, _, err := respond(t, newAgent(t, newPlanner(srv, nil), 0), "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs[0].ToolCalls) != 2 || msgs[1].ToolCallID != "c1" || msgs[2].ToolCallID != "c2" || msgs[0].ToolCalls[1].Arguments != `{"query":"db"}` {
		t.Fatalf("%+v", msgs)
	}
}

func TestMalformedArgsAndUnknownToolAreFedBack(t *testing.T) {
	f, srv := newFake(t,
		reply{chunks: []map[string]any{tc(0, "c1", "sys_monitor", `{"metric":`), tc(1, "c2", "rm_rf", `{}`)}},
		reply{chunks: []map[string]any{tc(0, "c3", "sys_monitor", `{}`)}},
		reply{chunks: []map[string]any{text("ok")}},
	)
	msgs, out, err := respond(t, newAgent(t, newPlanner(srv, nil), 0), "x")
	if err != nil || out != "ok" {
		t.Fatal(out, err)
	}
	if !strings.Contains(msgs[1].Content, "not valid JSON") || !strings.Contains(msgs[2].Content, "unknown tool") {
		t.Fatalf("%+v", msgs)
	}
	if len(f.requests) != 3 {
		t.Fatal(len(f.requests))
	}
}

func TestStepLimitOffersNoTools(t *testing.T) {
	loop := reply{chunks: []map[string]any{tc(0, "c", "sys_monitor", `{}`)}}
	f, srv := newFake(t, loop, loop, reply{chunks: []map[string]any{text("final answer")}})
	_, out, err := respond(t, newAgent(t, newPlanner(srv, nil), 3), "x")
	if err != nil || out != "final answer" {
		t.Fatal(out, err)
	}
	if _, has := f.requests[2]["tools"]; has {
		t.Fatal("last step offered tools")
	}
}

func TestRetry429ThenSuccess(t *testing.T) {
	var slept []time.Duration
	f, srv := newFake(t, reply{status: 429, retryAfter: "2"}, reply{status: 503}, reply{chunks: []map[string]any{text("hi")}})
	st, err := newPlanner(srv, &slept).Plan(context.Background(), &agent.PlanRequest{Turn: &chat.Turn{}}, func(string) error { return nil })
	if err != nil || st.Content != "hi" || len(f.requests) != 3 {
		t.Fatal(st, err, len(f.requests))
	}
	if len(slept) != 2 || slept[0] != 2*time.Second {
		t.Fatalf("slept %v (want Retry-After honoured first)", slept)
	}
}

func TestNoRetryOn400(t *testing.T) {
	f, srv := newFake(t, reply{status: 400}, reply{chunks: []map[string]any{text("never")}})
	if _, err := newPlanner(srv, nil).Plan(context.Background(), &agent.PlanRequest{Turn: &chat.Turn{}}, func(string) error { return nil }); err == nil || len(f.requests) != 1 {
		t.Fatalf("err %v after %d requests", err, len(f.requests))
	}
}

func TestClientGoneCancelsModelRequest(t *testing.T) {
	f, srv := newFake(t, reply{block: true})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := newPlanner(srv, nil).Plan(ctx, &agent.PlanRequest{Turn: &chat.Turn{}}, func(string) error { cancel(); return nil })
		done <- err
	}()
	select {
	case <-f.gone:
	case <-time.After(time.Minute):
		t.Fatal("model request not cancelled")
	}
	if err := <-done; err == nil {
		t.Fatal("no error after cancel")
	}
}

func TestResumedConversationKeepsToolMessages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	store, _ := history.Open(dir, nil)
	conv := store.New(time.Now())
	conv.Append(
		history.Message{Role: "user", Content: "CPU?"},
		history.Message{Role: "assistant", ToolCalls: []history.ToolCall{{ID: "c9", Name: "sys_monitor", Arguments: `{"metric":"cpu"}`}}},
		history.Message{Role: "tool", ToolCallID: "c9", Name: "sys_monitor", Content: `{"success":true}`},
		history.Message{Role: "assistant", Content: "3%"},
	)
	reopened, _ := history.Open(dir, nil)
	c, err := reopened.Get(conv.ID())
	if err != nil {
		t.Fatal(err)
	}
	f, srv := newFake(t, reply{chunks: []map[string]any{text("again 3%")}})
	_, err = newPlanner(srv, nil).Plan(context.Background(), &agent.PlanRequest{Turn: &chat.Turn{}, Messages: append(c.Messages(), history.Message{Role: "user", Content: "and now?"})}, func(string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(f.requests[0]["messages"])
	for _, want := range []string{`"tool_call_id":"c9"`, `"name":"sys_monitor"`, `"arguments":"{\"metric\":\"cpu\"}"`, `"and now?"`} {
		if !strings.Contains(string(b), want) {
			t.Fatalf("request lacks %s: %s", want, b)
		}
	}
}

func TestTextProtocolFallback(t *testing.T) {
	_, srv := newFake(t,
		reply{chunks: []map[string]any{text("TO"), text("OL: sys_monitor\nARGS: {\"metric\":"), text("\"cpu\"}")}},
		reply{chunks: []map[string]any{text("CPU is 3%")}},
	)
	p := newPlanner(srv, nil)
	p.cfg.TextProtocol = true
	msgs, out, err := respond(t, newAgent(t, p, 0), "cpu?")
	if err != nil || out != "CPU is 3%" {
		t.Fatalf("out %q err %v (protocol lines must not reach the user)", out, err)
	}
	if msgs[0].ToolCalls[0].Name != "sys_monitor" || msgs[0].ToolCalls[0].Arguments != `{"metric":"cpu"}` {
		t.Fatalf("%+v", msgs[0])
	}
}
