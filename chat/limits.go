package chat

import (
	"fmt"

	"opsassist/api"
	"opsassist/internal/bytesize"
	"opsassist/internal/pathtext"
)

// MaxMessage is the longest chat message a turn takes, in bytes (64 KiB;
// one NPLT frame carries at most 65,535, so over NPLT the frame limit
// comes first). Transports refuse longer ones before a turn
// starts (HTTP: 413 too_large); Chat refuses them too, with api.CodeTooLarge.
const MaxMessage = 64 << 10

// CheckMessage refuses a message over MaxMessage with an *Error of
// api.CodeTooLarge, in the message's language; transports call it before a
// turn starts, and Chat does too.
func CheckMessage(s string) error {
	if e := messageError(s); e != nil {
		return e
	}
	return nil
}

// messageError is CheckMessage's refusal, nil for a message that fits.
func messageError(s string) *Error {
	if len(s) <= MaxMessage {
		return nil
	}
	return &Error{Code: api.CodeTooLarge, Err: messageTooLarge{zh: IsChinese(s[:MaxMessage/4]), n: len(s)}}
}

// messageTooLarge is the user's view of a message over MaxMessage.
type messageTooLarge struct {
	zh bool
	n  int
}

func (e messageTooLarge) Error() string {
	if e.zh {
		return fmt.Sprintf("消息太长：%s，上限是 %s。请缩短消息，长文本可以作为文件上传。", bytesize.Short(int64(e.n)), bytesize.Short(MaxMessage))
	}
	return fmt.Sprintf("message too long: %s, the limit is %s. Please shorten it; long text can be uploaded as a file.", bytesize.Short(int64(e.n)), bytesize.Short(MaxMessage))
}

// IsChinese reports whether s contains a Han character outside the
// paths it names (package internal/pathtext): replies and errors are in
// Chinese when the user writes Chinese, not when an English sentence
// names a Chinese directory ("show /srv/資料/記錄.log").
func IsChinese(s string) bool { return pathtext.HasHanOutside(s) }
