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
func (c *CLI) readQuestion(ctx context.Context) (string, error) {
	b, err := readAtMost(ctx, c.stdin(), maxStdinQuestion)
	if errors.Is(err, errStdinTooLarge) {
		return "", errors.New(c.say(fmt.Sprintf("标准输入上的问题超过 %s；长文本请作为文件传入（用管道输入，问题写在参数里）", bytesize.Format(maxStdinQuestion)),
			fmt.Sprintf("the question on stdin is longer than %s; upload long text as a file (pipe it in and give the question as an argument)", bytesize.Format(maxStdinQuestion))))
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.say("从标准输入读取问题失败", "reading the question from stdin"), err)
	}
	return strings.TrimSpace(string(b)), nil
}

// readAtMost reads r to its end, or fails with errStdinTooLarge after
// more than limit bytes, or with ctx's error when ctx ends first (a
// Ctrl-C while a pipe is silent). The reading goroutine then stays
// blocked in Read until the process exits: stdin cannot be unblocked,
// and a one-shot command ends right after.
func readAtMost(ctx context.Context, r io.Reader, limit int64) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, limit+1))
		done <- result{b, err}
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case res := <-done:
		if res.err != nil {
			return nil, res.err
		}
		if int64(len(res.b)) > limit {
			return nil, errStdinTooLarge
		}
		return res.b, nil
	}
}

// readPiped reads piped stdin, at most maxPipedStdin bytes, reporting a
// failure in the question's language; ok is false when ask should stop.
func (c *CLI) readPiped(ctx context.Context, question string) (data []byte, ok bool) {
	zh := chat.IsChinese(question)
	data, err := readAtMost(ctx, c.stdin(), maxPipedStdin)
	switch {
	case errors.Is(err, errStdinTooLarge):
		c.printf(c.stderr(), "opsassist: %s\n", tooLarge(zh, maxPipedStdin, false))
		return nil, false
	case ctx.Err() != nil:
		return nil, false // interrupted
	case err != nil:
		c.printf(c.stderr(), "opsassist: %s: %v\n", pick(zh, "读取标准输入失败", "reading stdin"), err)
		return nil, false
	}
	return data, true
}

// tooLarge says piped input is over limit: the server's upload limit,
// or the CLI's own bound on piped input.
func tooLarge(zh bool, limit int64, server bool) string {
	size := bytesize.Format(limit)
	switch {
	case server && zh:
		return fmt.Sprintf("标准输入超过服务器的上传上限 %s；请只传入需要的部分（例如 tail -n 1000）", size)
	case server:
		return fmt.Sprintf("stdin is larger than the server's upload limit of %s; pipe in only the part you need (for example tail -n 1000)", size)
	case zh:
		return fmt.Sprintf("标准输入超过 %s，ask 不再读取；大文件请用 opsassist upload FILE 上传", size)
	default:
		return fmt.Sprintf("stdin is larger than the %s ask reads from a pipe; upload big files with opsassist upload FILE", size)
	}
}

// attachStdin uploads data, read from piped stdin, as the file name
// into conn's conversation, so the question that follows can be about
// it; data over the server's upload limit is refused before anything is
// sent. It reports the upload on stderr (quiet with --json) and any
// failure in the question's language, and returns whether ask should go
// on.
func (c *CLI) attachStdin(ctx context.Context, conn *client.Conn, name string, data []byte, question string, jsonOut bool) bool {
	zh := chat.IsChinese(question)
	if limit := conn.Hello().MaxUpload; limit > 0 && int64(len(data)) > limit {
		c.printf(c.stderr(), "opsassist: %s\n", tooLarge(zh, limit, true))
		return false
	}
	pp := newProgressPrinter(c.stderr(), !jsonOut && isTerminal(c.stderr()), c.now())
	done, err := conn.UploadData(ctx, name, data, pp.update)
	pp.finish()
	if err != nil {
		c.printf(c.stderr(), "opsassist: %s: %s\n", pick(zh, "上传标准输入失败", "uploading stdin"), serverReason(zh, err))
		return false
	}
	if !jsonOut {
		c.printf(c.stderr(), "%s\n", c.uploadText(done))
	}
	return true
}

// maxPipedStdin bounds what ask reads from a pipe, in memory, before it
// knows the server's upload limit; bigger files go through upload.
const maxPipedStdin = 256 << 20

// askModel switches conn's conversation to model before ask's question,
// as the REPL's /model does; a refusal is reported and ends ask.
func (c *CLI) askModel(ctx context.Context, conn *client.Conn, model, question string) bool {
	if _, err := conn.Model(ctx, model); err != nil {
		// In Chinese for a Chinese question or a zh locale.
		zh := chat.IsChinese(question) || c.chinese()
		c.printf(c.stderr(), "opsassist: %s %q: %s\n", pick(zh, "无法切换到模型", "cannot switch to model"), model, serverReason(zh, err))
		return false
	}
	return true
}

// serverReason is err for people: a server ERROR's message without its
// code (in Chinese when zh, see serverText), any other error as it is.
func serverReason(zh bool, err error) string {
	if se, ok := errors.AsType[*client.ServerError](err); ok {
		return serverText(zh, se)
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
