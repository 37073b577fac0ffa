package chat

import (
	"fmt"
	"strings"
	"unicode"
)

// MaxMessage is the longest chat message a turn takes, in bytes: what one
// NPLT chat frame can carry. Transports refuse longer ones before a turn
// starts (HTTP: 413 too_large); Chat refuses them too, with CodeTooLarge.
const MaxMessage = 64 << 10

// messageTooLarge is the user's view of a message over MaxMessage.
type messageTooLarge struct {
	zh bool
	n  int
}

func (e messageTooLarge) Error() string {
	if e.zh {
		return fmt.Sprintf("消息太长：%d 字节，上限是 %d 字节。请缩短消息，长文本可以作为文件上传。", e.n, MaxMessage)
	}
	return fmt.Sprintf("message too long: %d bytes, the limit is %d. Please shorten it; long text can be uploaded as a file.", e.n, MaxMessage)
}

// IsChinese reports whether s contains any Han character: replies and
// errors are in Chinese when the user writes Chinese.
func IsChinese(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}
