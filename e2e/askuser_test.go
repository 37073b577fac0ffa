package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/client"
)

// TestAmbiguousDownloadAsks: on a default daemon with the builtin
// planner, "下载配置文件" with two config files uploaded (and a note)
// asks which over NPLT, with the two as options, and downloads the one
// chosen in the same turn; over HTTP the same question is answered by
// POST and the chosen file offered.
func TestAmbiguousDownloadAsks(t *testing.T) {
	t.Parallel()
	a := startApp(t, t.TempDir())
	defer stop(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	src := t.TempDir()
	conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ids := map[string]string{}
	for _, name := range []string{"app.yaml", "notes.md", "db.yaml"} {
		p := filepath.Join(src, name)
		os.WriteFile(p, []byte(name+": true\n"), 0o600)
		done, err := conn.Upload(ctx, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = done.FileID
	}
	var q api.Question
	var offers []string
	var text strings.Builder
	err = conn.Chat(ctx, "下载配置文件", func(e client.Event) {
		switch e.Type {
		case client.EventQuestion:
			q = e.Question
			conn.AnswerQuestion(q.RequestID, "9") // not an option: refused, still open
		case client.EventError:
			if e.Error.Code == api.CodeBadAnswer {
				conn.AnswerQuestion(q.RequestID, ids["app.yaml"])
			}
		case client.EventDownloadOffer:
			offers = append(offers, e.Offer.Filename)
		case client.EventDelta:
			text.WriteString(e.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if q.Kind != api.QuestionChoice || len(q.Options) != 2 || q.Options[0].ID != ids["db.yaml"] || !q.Options[0].Recommended || q.Options[1].ID != ids["app.yaml"] {
		t.Fatalf("question %+v, uploads %v", q, ids)
	}
	if len(offers) != 1 || offers[0] != "app.yaml" || !strings.Contains(text.String(), "app.yaml") {
		t.Fatalf("offers %v, answer %q", offers, text.String())
	}

	// Over HTTP, in the same conversation.
	base := "http://" + a.HTTPAddr().String()
	body, _ := json.Marshal(map[string]string{"message": "download the config file", "session_id": conn.SessionID()})
	res, err := http.Post(base+"/api/chat", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	var typ string
	offers = nil
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			typ = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && typ == api.EventQuestion:
			json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &q)
			ab, _ := json.Marshal(map[string]string{"answer": ids["db.yaml"]})
			r, err := http.Post(base+"/api/sessions/"+conn.SessionID()+"/questions/"+q.RequestID, "application/json", strings.NewReader(string(ab)))
			if err != nil || r.StatusCode != http.StatusOK {
				t.Fatalf("answer: %v %v", r, err)
			}
			r.Body.Close()
		case strings.HasPrefix(line, "data: ") && typ == api.EventDownloadOffer:
			var o api.Offer
			json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &o)
			offers = append(offers, o.Filename)
		}
	}
	if len(offers) != 1 || offers[0] != "db.yaml" {
		t.Fatalf("HTTP offers %v", offers)
	}
}

// TestAskUserModelNPLT: the model is offered ask_user and calls it; the
// question reaches the NPLT client, which answers with an option id, and
// the model's next request carries {answer, option, answered_by}.
func TestAskUserModelNPLT(t *testing.T) {
	model := newFakeOpenAI(t, `[{"index":0,"id":"call_q","type":"function","function":{"name":"ask_user","arguments":"{\"question\":\"Which host?\",\"kind\":\"choice\",\"options\":[{\"id\":\"web-01\",\"label\":\"web-01\",\"recommended\":true},{\"id\":\"web-02\",\"label\":\"web-02\"}]}"}}]`)
	st := startAskStack(t, model, time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := client.Dial(ctx, st.nplt, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Model(ctx, "deepseek"); err != nil {
		t.Fatal(err)
	}
	var q api.Question
	if err := conn.Chat(ctx, "check the web host", func(ev client.Event) {
		if ev.Type == client.EventQuestion {
			q = ev.Question
			conn.AnswerQuestion(q.RequestID, "web-02")
		}
	}); err != nil {
		t.Fatal(err)
	}
	if q.Question != "Which host?" || len(q.Options) != 2 {
		t.Fatalf("question %+v", q)
	}
	model.mu.Lock()
	first := model.requests[0]
	model.mu.Unlock()
	if !strings.Contains(first, `"name":"ask_user"`) {
		t.Fatalf("the model was not offered ask_user: %.300s", first)
	}
	if got := model.toolMessages(t)["call_q"]; !strings.Contains(got, `{"answer":"web-02","option":"web-02","answered_by":"user"}`) {
		t.Fatalf("tool message %q", got)
	}
}
