package chat

import (
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"

	"opsassist/storage/history"
)

// Language of an index notice.
type noticeLang int

const (
	langUnknown noticeLang = iota // both: Chinese, then English
	langZH
	langEN
)

// conversationLang is the language of the conversation's last user
// message; unknown when it has none (an upload before the first
// question).
func conversationLang(conv *history.Conversation) noticeLang {
	msgs := conv.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && strings.TrimSpace(msgs[i].Content) != "" {
			if IsChinese(msgs[i].Content) {
				return langZH
			}
			return langEN
		}
	}
	return langUnknown
}

// skipReasonsZH translates the start of the indexer's reasons for not
// indexing a file (storage/ingest, storage/index quotas). A reason not
// listed keeps its English text after a generic Chinese one.
var skipReasonsZH = []struct{ en, zh string }{
	{"not a regular file", "不是普通文件"},
	{"unsupported type", "不支持的文件类型"},
	{"binary file", "二进制文件"},
	{"too large", "文件过大"},
	{"unreadable PDF", "无法读取的 PDF"},
	{"over the indexed-text quota", "超出索引文本配额"},
}

// absPath matches an absolute file path in a message: a slash (or a
// drive letter and a backslash) after the start, a space, a quote, a
// parenthesis or an equals sign, up to the next such separator.
var absPath = regexp.MustCompile(`(^|[\s"'(=])((?:[A-Za-z]:\\|/)[^\s"'():;,]*)`)

// withoutPaths replaces every absolute path in s by its last element, so
// a notice never shows where the server keeps its files.
func withoutPaths(s string) string {
	return absPath.ReplaceAllStringFunc(s, func(m string) string {
		sub := absPath.FindStringSubmatch(m)
		p := strings.ReplaceAll(sub[2], `\`, "/")
		return sub[1] + filepath.Base(filepath.Clean(p))
	})
}

// indexNoticeError is UPLOAD_INDEXED's error text for an upload that was
// not indexed: a short reason, in the conversation's language (both
// languages when it is not known yet), with no absolute server path and
// no package prefix. The full error goes to the server log only.
func indexNoticeError(err error, lang noticeLang) string {
	var en, zh string
	var skip interface{ SkipReason() string }
	var pathErr *fs.PathError
	switch {
	case errors.As(err, &skip):
		en = withoutPaths(skip.SkipReason())
		zh = "无法索引此文件（" + en + "）"
		var quota interface{ ReasonZH() string } // a quota says it in Chinese itself
		if errors.As(err, &quota) {
			zh = quota.ReasonZH()
			break
		}
		for _, r := range skipReasonsZH {
			if rest, ok := strings.CutPrefix(en, r.en); ok {
				zh = r.zh
				if rest = strings.TrimLeft(rest, ": "); rest != "" {
					zh += "（" + rest + "）"
				}
				break
			}
		}
	case errors.Is(err, errInternal):
		en = "internal error; the problem has been logged on the server"
		zh = "内部错误，问题已记录在服务器日志中"
	case errors.As(err, &pathErr), errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		en = "the stored file could not be read on the server; details are in the server log"
		zh = "服务器无法读取保存的文件，详情见服务器日志"
	default:
		en = "indexing failed on the server; details are in the server log"
		zh = "服务器建立索引失败，详情见服务器日志"
	}
	switch lang {
	case langZH:
		return "未建立索引：" + zh
	case langEN:
		return "not indexed: " + en
	}
	return "未建立索引：" + zh + "。not indexed: " + en
}
