package chat

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"opsassist/api"
	"opsassist/storage/history"
)

// MaxTitle is the longest conversation title Rename takes, in runes.
const MaxTitle = 200

// CheckTitle trims title and refuses one over MaxTitle runes, one that is
// not UTF-8 or one holding control characters (a newline included), with
// an *Error of api.CodeBadRequest in the title's language. It returns the
// trimmed title; "" means "derive the title from the first message".
func CheckTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	zh := IsChinese(title)
	switch {
	case !utf8.ValidString(title):
		return "", &Error{Code: api.CodeBadRequest, Err: badTitle{zh: zh, why: "utf8"}}
	case utf8.RuneCountInString(title) > MaxTitle:
		return "", &Error{Code: api.CodeBadRequest, Err: badTitle{zh: zh, why: "long"}}
	case strings.IndexFunc(title, unicode.IsControl) >= 0:
		return "", &Error{Code: api.CodeBadRequest, Err: badTitle{zh: zh, why: "control"}}
	}
	return title, nil
}

// badTitle is the user's view of a title CheckTitle refuses.
type badTitle struct {
	zh  bool
	why string // "utf8", "long" or "control"
}

func (e badTitle) Error() string {
	switch {
	case e.why == "long" && e.zh:
		return fmt.Sprintf("标题太长：最多 %d 个字符。", MaxTitle)
	case e.why == "long":
		return fmt.Sprintf("title too long: at most %d characters.", MaxTitle)
	case e.zh:
		return "标题只能是一行普通文字（不能含换行或控制字符）。"
	default:
		return "a title must be one line of plain text (no newlines or control characters)."
	}
}

// Rename sets the current conversation's title (CheckTitle's rules; ""
// restores the title derived from the first user message) and returns
// its summary. The title is one fsynced history record, so it survives a
// crash; naming a conversation not yet saved saves it.
func (se *Session) Rename(title string) (history.Summary, error) {
	title, err := CheckTitle(title)
	if err != nil {
		return history.Summary{}, err
	}
	c := se.current()
	if err := c.SetTitle(title, se.svc.cfg.Now()); err != nil {
		return history.Summary{}, &Error{Code: api.CodeInternal, Err: err}
	}
	return c.Summary(), nil
}
