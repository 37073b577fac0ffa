package npltserver

import (
	"errors"
	"fmt"
	"strings"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
)

// ask_user questions over NPLT, like permission requests
// (permission.go): QUESTION goes out inside the reply and the turn
// waits; the ANSWER is handled by the reader, never queued behind it.

// emitQuestion sends a QUESTION inside the reply. A client that sent no
// HELLO cannot receive it, and the tool is told nobody can be asked.
func (c *conn) emitQuestion(q *api.Question) error {
	if !c.ext.Load() {
		return chat.ErrCannotAsk
	}
	c.markAsked()
	return c.sendJSON(nplt.Question, q)
}

// maxAnswer bounds an ANSWER payload: an id and an answer of free text.
const maxAnswer = 8 << 10

// handleAnswer delivers an ANSWER to the waiting turn, on the reader. A
// refused answer gets an ERROR frame alone, at once, and the question
// stays open if it was the answer that was wrong (bad_answer).
func (c *conn) handleAnswer(f nplt.Frame) bool {
	ans, code, msg := parseAnswer(f.Payload)
	if code != "" {
		return c.answerError(code, msg)
	}
	if err := c.sess.AnswerQuestion(ans.RequestID, ans.Answer); err != nil {
		c.log.Debug("answer refused", zap.Error(err))
		return c.answerError(chatCode(err), questionMessage(err))
	}
	return true
}

// parseAnswer decodes an ANSWER payload, or says why not (an api code
// and a message).
func parseAnswer(p []byte) (ans api.Answer, code, msg string) {
	if len(p) > maxAnswer {
		return ans, api.CodeTooLarge, fmt.Sprintf("ANSWER of %d bytes; at most %d", len(p), maxAnswer)
	}
	if err := unmarshalStrict(p, &ans); err != nil || ans.RequestID == "" {
		return ans, api.CodeBadJSON, `ANSWER wants JSON {"request_id","answer"}`
	}
	return ans, "", ""
}

// questionMessage is the user's view of a refused answer.
func questionMessage(err error) string {
	switch {
	case errors.Is(err, chat.ErrQuestionUnknown):
		return "未知的问题 unknown question: " + strings.TrimPrefix(chat.Message(err), chat.Message(chat.ErrQuestionUnknown)+" ")
	case errors.Is(err, chat.ErrQuestionAnswered):
		return "该问题已回答 question already answered"
	case errors.Is(err, chat.ErrQuestionExpired):
		return "问题已过期 question expired (timed out, cancelled or withdrawn)"
	case errors.Is(err, chat.ErrBadAnswer):
		return "无效的回答，问题仍在等待 bad answer; the question is still open: " + strings.TrimPrefix(chat.Message(err), chat.Message(chat.ErrBadAnswer)+" ")
	}
	return chat.Message(err)
}
