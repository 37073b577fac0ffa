package client

import (
	"opsassist/api"
	"opsassist/nplt"
)

// Questions. During Chat the ask_user tool may put a question to the
// user (EventQuestion); the turn waits for AnswerQuestion, the
// question's deadline (Event.Question.ExpiresAt; then its default
// answers, if any) or the connection's end. Like a permission answer,
// an answer is written at once, between the frames of the reply being
// read; a refused one comes back as an EventError with a code of
// IsAnswerError (bad_answer leaves the question open: answer again).

// AnswerQuestion answers question id with answer: an option id, yes/no,
// or free text. It may be called from an EventHandler during Chat.
func (c *Conn) AnswerQuestion(id, answer string) error {
	return c.writeJSON(nplt.Answer, api.Answer{RequestID: id, Answer: answer})
}

// IsQuestionError reports whether code refuses an answer to a question.
func IsQuestionError(code string) bool {
	switch code {
	case api.CodeQuestionUnknown, api.CodeQuestionAnswered, api.CodeQuestionExpired, api.CodeBadAnswer:
		return true
	}
	return false
}

// IsAnswerError reports whether code refuses an answer — to a
// permission request or a question — rather than the turn: such an
// error leaves the reply going.
func IsAnswerError(code string) bool { return IsPermissionError(code) || IsQuestionError(code) }
