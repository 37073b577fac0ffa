package client

import (
	"encoding/json"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestChatQuestion: a QUESTION is an EventQuestion; the handler's
// answer goes out while the reply is open; a bad_answer ERROR is an
// event, not the turn's failure, and a second answer follows it.
func TestChatQuestion(t *testing.T) {
	q := api.Question{RequestID: "q1", Question: "which?", Kind: api.QuestionChoice,
		Options: []api.QuestionOption{{ID: "a", Label: "A", Recommended: true}, {ID: "b", Label: "B"}}, ExpiresAt: "2030-01-01T00:00:00Z"}
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", "sess-1")
		fc.SendJSON(nplt.Question, q)
		var a api.Answer
		fc.ExpectJSON(nplt.Answer, &a)
		if a != (api.Answer{RequestID: "q1", Answer: "c"}) {
			fc.Fail("answer %+v", a)
		}
		fc.Error(api.CodeBadAnswer, "bad answer")
		fc.ExpectJSON(nplt.Answer, &a)
		if a != (api.Answer{RequestID: "q1", Answer: "b"}) {
			fc.Fail("second answer %+v", a)
		}
		fc.Text("chose b")
		fc.End()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	var types []EventType
	err := c.Chat(ctx, "ask", func(ev Event) {
		types = append(types, ev.Type)
		switch ev.Type {
		case EventQuestion:
			if ev.Question.RequestID != "q1" || len(ev.Question.Options) != 2 {
				t.Errorf("question %+v", ev.Question)
			}
			b, _ := json.Marshal(ev)
			if !strings.Contains(string(b), `"type":"question","question":{"request_id":"q1"`) {
				t.Errorf("json %s", b)
			}
			c.AnswerQuestion("q1", "c")
		case EventError:
			c.AnswerQuestion("q1", "b")
		}
	})
	if err != nil {
		t.Fatalf("Chat: %v (events %v)", err, types)
	}
	if len(types) != 5 || types[1] != EventQuestion || types[2] != EventError {
		t.Fatalf("events %v", types)
	}
}
