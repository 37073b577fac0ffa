package cli

import (
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

var hostQuestion = api.Question{RequestID: "q1", Question: "哪台主机？", Kind: api.QuestionChoice,
	Options: []api.QuestionOption{{ID: "web-01", Label: "web-01", Recommended: true}, {ID: "db", Label: "数据库", Description: "the primary"}},
	Default: "web-01"}

// questionTurn plays one chat turn that asks q and reports the answer
// the client gave (none if it ended without one).
func questionTurn(fc *npltfake.Conn, q api.Question, answers chan<- string) {
	fc.Expect(nplt.ChatText)
	fc.Status(api.StatusStreamStart, "", npltfake.Session)
	q.ExpiresAt = time.Now().Add(2 * time.Minute).UTC().Format(time.RFC3339)
	fc.SendJSON(nplt.Question, q)
	var a api.Answer
	fc.ExpectJSON(nplt.Answer, &a)
	if a.RequestID != q.RequestID {
		fc.Fail("answer to %q", a.RequestID)
	}
	answers <- a.Answer
	fc.Text("chose " + a.Answer)
	fc.End()
}

// TestREPLQuestion: the REPL shows the question with numbered options,
// the recommended one and the default; a number answers with that
// option's id; an input the question does not take is asked again; an
// empty line takes the default; y answers a confirm.
func TestREPLQuestion(t *testing.T) {
	answers := make(chan string, 3)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		questionTurn(fc, hostQuestion, answers)
		questionTurn(fc, hostQuestion, answers)
		questionTurn(fc, api.Question{RequestID: "q2", Question: "重启吗？", Kind: api.QuestionConfirm}, answers)
		fc.ReadUntilEOF()
	})
	input := "which host\n2\nwhich host\n7\n\nrestart?\ny\n/quit\n"
	code, stdout, stderr := runREPL(t, s.Addr, input, nil)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"db", "web-01", "yes"} {
		if got := <-answers; got != want {
			t.Errorf("answer %q, want %q", got, want)
		}
	}
	for _, want := range []string{"? 哪台主机？", "1) web-01 (recommended)", "2) 数据库 [db] — the primary", "default: web-01", "time left: 1m5",
		"enter a number 1-2", "chose db", "chose web-01", "[y] yes", "chose yes"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, `not an answer this question takes: "7"`) {
		t.Errorf("stderr %q", stderr)
	}
}

// TestAskQuestionNotTerminal: "opsassist ask" with a stdin that is not a
// terminal shows the question and does not answer it (the server's
// timeout, then its default, decides).
func TestAskQuestionNotTerminal(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Upload([]byte("1\n"), "stdin.txt") // piped stdin is an attachment, never an answer
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", npltfake.Session)
		q := hostQuestion
		q.ExpiresAt = time.Now().Add(time.Minute).UTC().Format(time.RFC3339)
		fc.SendJSON(nplt.Question, q)
		fc.Text("timed out: web-01")
		fc.End()
		fc.ExpectClose() // no ANSWER
	})
	code, stdout, stderr := runCLI(t, s.Addr, "1\n", "ask", "which host")
	if code != ExitOK || !strings.Contains(stdout, "timed out: web-01") || !strings.Contains(stderr, "哪台主机？") || !strings.Contains(stderr, "stdin is not a terminal: not answered") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestAnswerOf(t *testing.T) {
	custom := hostQuestion
	custom.AllowCustom, custom.Default = true, ""
	for _, tc := range []struct {
		q      api.Question
		in     string
		want   string
		wantOK bool
	}{
		{hostQuestion, "1", "web-01", true},
		{hostQuestion, " 2 ", "db", true},
		{hostQuestion, "db", "db", true},
		{hostQuestion, "数据库", "db", true},
		{hostQuestion, "", "web-01", true},
		{hostQuestion, "3", "3", false},
		{hostQuestion, "web-09", "web-09", false},
		{custom, "web-09", "web-09", true},
		{custom, "", "", false},
		{api.Question{Kind: api.QuestionConfirm}, "N", "no", true},
		{api.Question{Kind: api.QuestionConfirm}, "maybe", "", false},
		{api.Question{Kind: api.QuestionText}, " free text ", "free text", true},
	} {
		if got, ok := answerOf(tc.q, tc.in); got != tc.want || ok != tc.wantOK {
			t.Errorf("%s %q: %q %v, want %q %v", tc.q.Kind, tc.in, got, ok, tc.want, tc.wantOK)
		}
	}
}
