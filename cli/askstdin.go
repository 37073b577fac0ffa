package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"opsassist/chat"
	"opsassist/client"
	"opsassist/internal/bytesize"
)

// stdinName is the file name piped stdin is uploaded as, unless ask's
// --name says otherwise.
const stdinName = "stdin.txt"

// maxStdinQuestion bounds a question read from stdin ("ask -"): the
// server refuses longer messages anyway (chat.MaxMessage).
const maxStdinQuestion = chat.MaxMessage

// errStdinTooLarge reports piped input over the limit it is read to.
var errStdinTooLarge = errors.New("cli: stdin too large")

// stdinPiped reports whether ask should read stdin as an attachment:
// there is a Stdin and it is not a terminal (a pipe, a file, a test's
// reader).
func (c *CLI) stdinPiped() bool {
	return c.Stdin != nil && !isTerminal(c.Stdin)
}

// readQuestion reads "ask -"'s question from stdin, at most
// maxStdinQuestion bytes.
func (c *CLI) readQuestion() (string, error) {
	b, err := readAtMost(c.stdin(), maxStdinQuestion)
	if errors.Is(err, errStdinTooLarge) {
		return "", fmt.Errorf("the question on stdin is longer than %s; upload long text as a file (pipe it in and give the question as an argument)", bytesize.Format(maxStdinQuestion))
	}
	if err != nil {
		return "", fmt.Errorf("reading the question from stdin: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// readAtMost reads r to its end, or fails with errStdinTooLarge after
// more than limit bytes.
func readAtMost(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, errStdinTooLarge
	}
	return b, nil
}

// attachStdin uploads piped stdin as the file name into conn's
// conversation, so the question that follows can be about it; empty
// input attaches nothing. It reports the upload on stderr (quiet with
// --json) and any failure in the question's language, and returns
// whether ask should go on.
func (c *CLI) attachStdin(ctx context.Context, conn *client.Conn, name, question string, jsonOut bool) bool {
	zh := chat.IsChinese(question)
	limit := conn.Hello().MaxUpload
	if limit <= 0 {
		limit = defaultStdinLimit
	}
	data, err := readAtMost(c.stdin(), limit)
	if errors.Is(err, errStdinTooLarge) {
		c.printf(c.stderr(), "opsassist: %s\n", pick(zh,
			fmt.Sprintf("标准输入超过服务器的上传上限 %s；请先截取需要的部分（例如 tail -n 1000）", bytesize.Format(limit)),
			fmt.Sprintf("stdin is larger than the server's upload limit of %s; pipe in only the part you need (for example tail -n 1000)", bytesize.Format(limit))))
		return false
	}
	if err != nil {
		c.printf(c.stderr(), "opsassist: %s: %v\n", pick(zh, "读取标准输入失败", "reading stdin"), err)
		return false
	}
	if len(data) == 0 {
		return true
	}
	pp := newProgressPrinter(c.stderr(), !jsonOut && isTerminal(c.stderr()), c.now())
	done, err := conn.UploadData(ctx, name, data, pp.update)
	pp.finish()
	if err != nil {
		c.printf(c.stderr(), "opsassist: %s: %s\n", pick(zh, "上传标准输入失败", "uploading stdin"), serverReason(err))
		return false
	}
	if !jsonOut {
		c.printf(c.stderr(), "%s\n", UploadLine(done))
	}
	return true
}

// defaultStdinLimit bounds piped stdin when the server announces no
// upload limit.
const defaultStdinLimit = 100 << 20

// askModel switches conn's conversation to model before ask's question,
// as the REPL's /model does; a refusal is reported and ends ask.
func (c *CLI) askModel(ctx context.Context, conn *client.Conn, model, question string) bool {
	if _, err := conn.Model(ctx, model); err != nil {
		c.printf(c.stderr(), "opsassist: %s %q: %s\n", pick(chat.IsChinese(question), "无法切换到模型", "cannot switch to model"), model, serverReason(err))
		return false
	}
	return true
}

// serverReason is err for people: a server ERROR's message without its
// code, any other error as it is.
func serverReason(err error) string {
	if se, ok := errors.AsType[*client.ServerError](err); ok {
		return se.Message
	}
	return err.Error()
}

// pick returns zh or en.
func pick(zh bool, zhText, enText string) string {
	if zh {
		return zhText
	}
	return enText
}
