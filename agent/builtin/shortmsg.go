package builtin

import (
	"strings"
	"unicode"
)

// reBareUploads is a message that names the uploads and nothing else:
// "uploads?", "我上传的呢", "attachments", "上传的文件？" — which files
// there are, a list.
var reBareUploads = compile(`(?i)^(?:(?:my|the|your|any|all)\s+)*(?:uploads|uploaded files?|uploaded stuff|attachments?|files? (?:i )?uploaded|(?:我|我们)?(?:上传|传上来|传给你|发给你)(?:的|的?(?:文件|东西|那些|附件))|附件)(?:\s*(?:list|so far|pls|please))?(?:呢|吗|嘛|们|列表|有哪些)?$`)

// bareUploads reports whether text, its punctuation, emoji and spaces
// trimmed, names only the uploads.
func bareUploads(text string) bool {
	t := strings.TrimFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	return t != "" && len(t) <= 64 && reBareUploads.MatchString(t)
}
