package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"opsassist/api"
	"opsassist/client"
)

// ask_user questions in the CLI: the REPL shows the question with
// numbered options (the recommended one marked, the default shown) and
// reads a number, an option id or free text; "opsassist ask" does the
// same on a terminal and, when stdin is not a terminal, does not answer,
// so the question times out and its default (if any) answers — the
// model is told so (answered_by "default" or "timeout").

// maxQuestionTries bounds how often the REPL asks again after an answer
// the question does not take.
const maxQuestionTries = 3

// QuestionPrompt renders a question for people: the question, its
// numbered options, the default and the time left, labelled in Chinese
// when zh (the CLI's locale) and in English otherwise.
func QuestionPrompt(q api.Question, now time.Time, zh bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "? %s\n", q.Question)
	for i, o := range q.Options {
		fmt.Fprintf(&b, "  %d) %s", i+1, o.Label)
		if o.ID != o.Label {
			fmt.Fprintf(&b, " [%s]", o.ID)
		}
		if o.Recommended {
			b.WriteString(pick(zh, "（推荐）", " (recommended)"))
		}
		if o.Description != "" {
			fmt.Fprintf(&b, " — %s", oneLine(o.Description, 200))
		}
		b.WriteString("\n")
	}
	var meta []string
	if q.Default != "" {
		meta = append(meta, pick(zh, "默认：", "default: ")+q.Default)
	}
	if exp, err := time.Parse(time.RFC3339, q.ExpiresAt); err == nil {
		meta = append(meta, pick(zh, "剩余：", "time left: ")+max(exp.Sub(now), 0).Truncate(time.Second).String())
	}
	if len(meta) > 0 {
		fmt.Fprintf(&b, "  %s\n", strings.Join(meta, " · "))
	}
	return b.String()
}

// questionHint is the prompt after a QuestionPrompt, in Chinese when zh.
func questionHint(q api.Question, zh bool) string {
	var h string
	switch q.Kind {
	case api.QuestionChoice:
		h = fmt.Sprintf(pick(zh, "  输入编号 1-%d 或选项 id", "  enter a number 1-%d or an option id"), len(q.Options))
		if q.AllowCustom {
			h += pick(zh, "，或自己的回答", ", or your own answer")
		}
	case api.QuestionConfirm:
		h = pick(zh, "  [y] 是 · [n] 否", "  [y] yes · [n] no")
	default:
		h = pick(zh, "  请输入回答", "  type your answer")
	}
	if q.Default != "" {
		h += pick(zh, "（回车取默认）", " (Enter for the default)")
	}
	return h + " > "
}

// notAnswered says that a question is left to time out.
func notAnswered(zh bool) string {
	return pick(zh, "→ 未回答（问题将超时）", "→ not answered (the question times out)")
}

// answerOf maps what the user typed to the answer to send: a number
// names an option, an option id or label stands for itself, y/n answer a
// confirm, an empty line takes the default. ok is false for an input the
// question does not take (ask again).
func answerOf(q api.Question, in string) (answer string, ok bool) {
	in = strings.TrimSpace(in)
	if in == "" {
		return q.Default, q.Default != ""
	}
	switch q.Kind {
	case api.QuestionConfirm:
		switch strings.ToLower(in) {
		case "y", "yes", "是":
			return "yes", true
		case "n", "no", "否":
			return "no", true
		}
		return "", false
	case api.QuestionChoice:
		if n, err := strconv.Atoi(in); err == nil && n >= 1 && n <= len(q.Options) {
			return q.Options[n-1].ID, true
		}
		for _, o := range q.Options {
			if in == o.ID || strings.EqualFold(in, o.Label) {
				return o.ID, true
			}
		}
		return in, q.AllowCustom
	}
	return in, true
}

// askQuestion answers a question in the REPL, on its input. Without an
// input, or once it ends, the question is left to time out.
func (r *repl) askQuestion(ctx context.Context, c *client.Conn, tr *textRenderer, q api.Question) {
	tr.endLine()
	zh := r.cli.chinese()
	r.printf("%s", QuestionPrompt(q, r.cli.now()(), zh))
	if r.lines == nil {
		r.info(notAnswered(zh))
		return
	}
	hint := questionHint(q, zh)
	for range maxQuestionTries {
		if !r.outTTY {
			r.printf("%s\n", strings.TrimSpace(hint))
		}
		in, err := r.lines.readLine(ctx, hint)
		if err != nil {
			r.info(notAnswered(zh))
			return
		}
		if a, ok := answerOf(q, in); ok {
			r.info("→ " + a)
			if err := c.AnswerQuestion(q.RequestID, a); err != nil {
				r.errorf("%s: %s", pick(zh, "回答问题失败", "answering the question"), r.cli.friendly(err, r.cfg.server, r.cfg.debug))
			}
			return
		}
		r.errorf(pick(zh, "无效的回答：%q", "not an answer this question takes: %q"), strings.TrimSpace(in))
	}
	r.info(notAnswered(zh))
}

// question answers ev for "opsassist ask" if it is a question: on a
// terminal the user is asked on stderr; otherwise it is left to time
// out (its default, if any, then answers).
func (a *askAnswerer) question(ev client.Event) {
	if ev.Type != client.EventQuestion {
		return
	}
	q := ev.Question
	fmt.Fprint(a.errw, QuestionPrompt(q, a.now(), a.zh))
	if !a.tty {
		fmt.Fprintln(a.errw, pick(a.zh, "  标准输入不是终端，不回答，等待超时（取默认值）", "  stdin is not a terminal: not answered; it times out (to its default, if any)"))
		return
	}
	for range maxQuestionTries {
		fmt.Fprint(a.errw, questionHint(q, a.zh))
		if ans, ok := answerOf(q, a.readLine()); ok {
			fmt.Fprintln(a.errw, "→ "+ans)
			if err := a.conn.AnswerQuestion(q.RequestID, ans); err != nil {
				fmt.Fprintf(a.errw, "opsassist: %s: %s\n", pick(a.zh, "回答问题失败", "answering the question"), a.errText(err))
			}
			return
		}
		if a.ctx.Err() != nil {
			return
		}
		fmt.Fprintln(a.errw, pick(a.zh, "  无效的回答", "  not an answer this question takes"))
	}
}
