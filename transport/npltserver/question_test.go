package npltserver

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
)

const choiceArgs = `{"question":"哪台主机？","kind":"choice","options":[{"id":"web-01","label":"web-01","recommended":true},{"id":"web-02","label":"web-02"}]}`

// untilQuestion reads frames up to the next QUESTION.
func (c *client) untilQuestion() api.Question {
	c.t.Helper()
	for {
		f := c.read()
		switch f.Type {
		case nplt.Question:
			var q api.Question
			if err := json.Unmarshal(f.Payload, &q); err != nil {
				c.t.Fatal(err)
			}
			return q
		case nplt.ChatText:
			if len(f.Payload) == 0 {
				c.t.Fatal("the reply ended without a question")
			}
		}
	}
}

func (c *client) answerQuestion(id, answer string) {
	c.t.Helper()
	c.sendJSON(nplt.Answer, api.Answer{RequestID: id, Answer: answer})
}

// TestQuestionAnsweredOverNPLT: ask_user's QUESTION goes out inside the
// reply; malformed, oversized, unknown and bad answers get an ERROR
// alone while it stays open; PING and history are answered meanwhile;
// the option id answers it and the model reads {answer, option,
// answered_by}; a replayed answer is refused.
func TestQuestionAnsweredOverNPLT(t *testing.T) {
	ts, _ := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("ask "+choiceArgs))
	q := c.untilQuestion()
	if q.Kind != api.QuestionChoice || q.Question != "哪台主机？" || len(q.Options) != 2 || !q.Options[0].Recommended || len(q.RequestID) < 32 || q.ExpiresAt == "" {
		t.Fatalf("question %+v", q)
	}
	c.send(nplt.Ping, []byte("x"))
	if f := c.read(); f.Type != nplt.Pong {
		t.Fatalf("PING answered with %v", f.Type)
	}
	c.send(nplt.HistoryRequest, nil)
	if f := c.read(); f.Type != nplt.Result {
		t.Fatalf("history answered with %v %q", f.Type, f.Payload)
	}
	for _, tc := range []struct{ payload, code string }{
		{`{"request_id":"nope","answer":"web-01"}`, api.CodeQuestionUnknown},
		{`{"request_id":"` + q.RequestID + `","answer":"web-09"}`, api.CodeBadAnswer},
		{`{"request_id":"` + q.RequestID + `","answer":""}`, api.CodeBadAnswer},
		{`{"request_id":"` + q.RequestID + `"`, api.CodeBadJSON},
		{`{"answer":"web-01"}`, api.CodeBadJSON},
		{`{"request_id":"` + q.RequestID + `","answer":"` + strings.Repeat("x", 9000) + `"}`, api.CodeTooLarge},
		{`{"request_id":"` + q.RequestID + `","decision":"allow_once"}`, api.CodeBadAnswer},
	} {
		c.send(nplt.Answer, []byte(tc.payload))
		if f := c.read(); f.Type != nplt.Error || errorCode(t, []nplt.Frame{f}) != tc.code {
			t.Fatalf("%.60s: %v %q", tc.payload, f.Type, f.Payload)
		}
	}
	// A permission answer to the question's id is not an answer to it.
	c.answer(q.RequestID, api.DecisionAllowOnce)
	if code := errorCode(t, []nplt.Frame{c.read()}); code != api.CodePermissionUnknown {
		t.Fatalf("permission answer to a question: %q", code)
	}
	// Another connection cannot answer it.
	other := dial(t, ts.addr, true)
	other.answerQuestion(q.RequestID, "web-02")
	if code := errorCode(t, []nplt.Frame{other.read()}); code != api.CodeQuestionUnknown {
		t.Fatalf("other connection: %q", code)
	}
	c.answerQuestion(q.RequestID, "web-02")
	text := replyText(c.reply())
	if !strings.Contains(text, `call-ask {"success":true,"output":{"answer":"web-02","option":"web-02","answered_by":"user"}`) {
		t.Fatalf("reply %q", text)
	}
	c.answerQuestion(q.RequestID, "web-01")
	if code := errorCode(t, []nplt.Frame{c.read()}); code != api.CodeQuestionAnswered {
		t.Fatalf("replayed answer: %q", code)
	}
	// The connection goes on.
	if text := replyText(c.chat("hello")); text != "ok" {
		t.Fatalf("next turn %q", text)
	}
}

// TestQuestionTimeoutOverNPLT: with a default the default answers; a
// late answer is expired.
func TestQuestionTimeoutOverNPLT(t *testing.T) {
	ts, _ := askServer(t, 50*time.Millisecond)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte(`ask {"question":"restart?","kind":"confirm","default":"no"}`))
	q := c.untilQuestion()
	if text := replyText(c.reply()); !strings.Contains(text, `{"answer":"no","answered_by":"default"}`) {
		t.Fatalf("reply %q", text)
	}
	c.answerQuestion(q.RequestID, "yes")
	if code := errorCode(t, []nplt.Frame{c.read()}); code != api.CodeQuestionExpired {
		t.Fatalf("late answer: %q", code)
	}
}

// TestQuestionCancelOverNPLT: CANCEL withdraws the question; the reply
// ends and an answer after it is expired.
func TestQuestionCancelOverNPLT(t *testing.T) {
	ts, _ := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("ask "+choiceArgs))
	q := c.untilQuestion()
	c.send(nplt.Cancel, nil)
	c.reply()
	c.answerQuestion(q.RequestID, "web-01")
	if code := errorCode(t, []nplt.Frame{c.read()}); code != api.CodeQuestionExpired {
		t.Fatalf("answer after cancel: %q", code)
	}
}

// TestQuestionDisconnectAndPublished: a client that leaves withdraws
// the question; a published client is never sent one (the model is told
// it cannot ask).
func TestQuestionDisconnectAndPublished(t *testing.T) {
	ts, _ := askServer(t, time.Minute)
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("ask "+choiceArgs))
	q := c.untilQuestion()
	c.nc.Close()
	var conv string
	waitFor(t, "the turn to be recorded", func() bool {
		for _, s := range ts.svc.List(chat.Local()) {
			conv = s.ID
			return true
		}
		return false
	})
	se := ts.svc.NewSession(api.ClientCLI, chat.Local())
	if _, err := se.Switch(conv); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the question to be withdrawn", func() bool {
		return errors.Is(se.AnswerQuestion(q.RequestID, "web-01"), chat.ErrQuestionExpired)
	})

	pub := dial(t, ts.addr, false)
	fs := pub.chat("ask " + choiceArgs)
	if slices.ContainsFunc(fs, func(f nplt.Frame) bool { return f.Type == nplt.Question }) || !strings.Contains(replyText(fs), "cannot answer questions") {
		t.Fatalf("reply %q", replyText(fs))
	}
}
