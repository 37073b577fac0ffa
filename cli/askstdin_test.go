package cli

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

// TestAskQuestionFromStdin: "ask -" reads the question from stdin and
// uploads nothing.
func TestAskQuestionFromStdin(t *testing.T) {
	questions := make(chan string, 1)
	s := askServer(t, questions, nil)
	code, stdout, stderr := runCLI(t, s.Addr, "  what is the load?\n", "ask", "-")
	if code != ExitOK || !strings.Contains(stdout, "使用率 3.1%") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if q := <-questions; q != "what is the load?" {
		t.Errorf("question = %q", q)
	}
}

func TestAskQuestionFromEmptyStdin(t *testing.T) {
	code, _, stderr := runCLI(t, "127.0.0.1:1", "\n", "ask", "-")
	if code != ExitUsage || !strings.Contains(stderr, "ask needs a question") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestAskQuestionFromStdinTooLong(t *testing.T) {
	code, _, stderr := runCLI(t, "127.0.0.1:1", strings.Repeat("x", maxStdinQuestion+1), "ask", "-")
	if code != ExitError || !strings.Contains(stderr, "longer than") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// TestAskAttachesPipedStdin: a question and piped stdin upload the
// input as stdin.txt (or --name) into the conversation, then ask.
func TestAskAttachesPipedStdin(t *testing.T) {
	const log = "12:00 ERROR db: connection refused\n12:01 INFO ok\n"
	for _, tc := range []struct {
		name string
		args []string
		file string
	}{
		{"default name", []string{"ask", "有什么错误？"}, "stdin.txt"},
		{"--name", []string{"ask", "--name", "app.log", "有什么错误？"}, "app.log"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			questions := make(chan string, 1)
			s := npltfake.New(t, func(fc *npltfake.Conn) {
				fc.Handshake()
				fc.Upload([]byte(log), tc.file)
				questions <- string(fc.Expect(nplt.ChatText).Payload)
				fc.ChatReply()
				fc.ReadUntilEOF()
			})
			code, stdout, stderr := runCLI(t, s.Addr, log, tc.args...)
			if code != ExitOK || !strings.Contains(stdout, "使用率 3.1%") || !strings.Contains(stderr, "uploaded "+tc.file) {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			if q := <-questions; q != "有什么错误？" {
				t.Errorf("question = %q", q)
			}
		})
	}
}

// TestAskPipedStdinOverLimit: input over the server's announced upload
// limit is refused before anything is sent, in the question's language.
func TestAskPipedStdinOverLimit(t *testing.T) {
	for _, tc := range []struct{ question, want string }{
		{"有什么错误？", "标准输入超过服务器的上传上限 10 B"},
		{"any errors?", "stdin is larger than the server's upload limit of 10 B"},
	} {
		s := npltfake.New(t, func(fc *npltfake.Conn) {
			fc.Greet()
			var h nplt.HelloPayload
			fc.ExpectJSON(nplt.Hello, &h)
			fc.SendJSON(nplt.Hello, nplt.HelloReply{Server: "fake", SessionID: npltfake.Session, Model: npltfake.Model, MaxUpload: 10})
			fc.ExpectClose() // no upload, no question
		})
		code, stdout, stderr := runCLI(t, s.Addr, "0123456789A", "ask", tc.question)
		if code != ExitError || stdout != "" || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "cli:") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tc.question, code, stdout, stderr)
		}
	}
}

// TestAskModel: --model switches the conversation's model (MODEL_SWITCH)
// before the question; a refused switch ends ask without asking.
func TestAskModel(t *testing.T) {
	questions := make(chan string, 1)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		if f := fc.Expect(nplt.ModelSwitch); string(f.Payload) != `{"model":"m2"}` {
			fc.Fail("model %q", f.Payload)
		}
		fc.Result(client.KindModels, client.ModelList{Current: "m2", Models: []string{"m1", "m2"}})
		fc.End()
		questions <- string(fc.Expect(nplt.ChatText).Payload)
		fc.ChatReply()
		fc.ReadUntilEOF()
	})
	code, stdout, stderr := runCLI(t, s.Addr, "", "ask", "--model", "m2", "hi")
	if code != ExitOK || !strings.Contains(stdout, "使用率 3.1%") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if q := <-questions; q != "hi" {
		t.Errorf("question = %q", q)
	}

	s = npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ModelSwitch)
		fc.Error(api.CodeUnknownModel, `unknown model "m9" (have [m1 m2])`)
		fc.End()
		fc.ExpectClose() // no question
	})
	// A Chinese question gets the refusal in Chinese (issue 15).
	code, stdout, stderr = runCLI(t, s.Addr, "", "ask", "--model", "m9", "你好")
	if code != ExitError || stdout != "" || stderr != "opsassist: 无法切换到模型 \"m9\": 没有这个模型 \"m9\"（可用：m1、m2）\n" {
		t.Fatalf("refused: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestAskInterruptWhilePipeSilent: Ctrl-C while ask waits for piped
// input ends ask at once, before it dials the server.
func TestAskInterruptWhilePipeSilent(t *testing.T) {
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() }) // lets the blocked reader go
	interrupts := make(chan os.Signal, 1)
	interrupts <- os.Interrupt
	var out, errb bytes.Buffer
	c := &CLI{Stdin: pr, Stdout: &out, Stderr: &errb, Interrupts: interrupts,
		Getenv: func(k string) string { return map[string]string{EnvServer: "127.0.0.1:1"}[k] }}
	ctx, cancel := testContext(t)
	defer cancel()
	if code := c.Run(ctx, []string{"ask", "any errors?"}); code != ExitError || out.Len() != 0 || errb.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}
