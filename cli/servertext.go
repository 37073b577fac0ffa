package cli

import (
	"regexp"
	"strconv"
	"strings"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/client"
	"opsassist/internal/bytesize"
	"opsassist/tools"
)

// serverTextZh are the Chinese texts for server error codes whose
// messages the server sends in English: a Chinese user reads these
// instead (serverText). Codes whose message carries the detail that
// matters (bad_request, agent_error, …) are not here.
var serverTextZh = map[string]string{
	api.CodeServerBusy:          "服务器繁忙，请稍后再试",
	api.CodeUnauthorized:        "访问令牌缺失或无效（用 --token 或 OPSASSIST_TOKEN 提供）",
	api.CodeForbidden:           "没有权限做这件事",
	api.CodeTooManyAttempts:     "尝试次数太多，请稍后再试",
	api.CodeIdleTimeout:         "连接空闲太久，服务器已将其关闭",
	api.CodeShuttingDown:        "服务器正在关闭",
	api.CodeUploadTooLarge:      "文件太大",
	api.CodeUploadChecksum:      "上传的文件校验和不符",
	api.CodeUploadTimeout:       "上传停滞太久，已中止",
	api.CodeUploadBadName:       "文件名不可用",
	api.CodeTooLarge:            "请求太大",
	api.CodeNotFound:            "找不到",
	api.CodeUnknownModel:        "没有这个模型",
	api.CodeFileChanged:         "文件在提供下载后被修改了——请重新提问以获得新的下载链接",
	api.CodeExpired:             "已过期",
	api.CodePermissionExpired:   "权限请求已过期",
	api.CodePermissionAnswered:  "权限请求已经回答过了",
	api.CodeQuestionExpired:     "问题已过期",
	api.CodeQuestionAnswered:    "问题已经回答过了",
	api.CodeInternal:            "服务器内部错误，请稍后再试",
	api.CodeRangeNotSatisfiable: "续传位置超出文件大小",
}

var (
	// quotedDetail is the quoted name in a server message
	// (`conversation not found: "7e4"`, `unknown model "x" (have [a b])`).
	quotedDetail = regexp.MustCompile(`"[^"]*"`)
	// modelList is the list of models in an unknown_model message.
	modelList = regexp.MustCompile(`\(have \[([^\]]*)\]\)`)
	// byteCount is the limit in an upload_too_large message.
	byteCount = regexp.MustCompile(`more than (\d+) bytes`)
)

// serverText is a server ERROR for people, in Chinese when zh: a message
// without Chinese for a known code becomes that code's Chinese text,
// keeping the name it quotes (a conversation id, a model and the models
// there are, a size limit); any other message is shown as the server
// wrote it, without internal prefixes. In English an unknown_model
// message's model list is worded for people (`unknown model "x";
// available: a, b`).
func serverText(zh bool, se *client.ServerError) string {
	msg := tools.OneLanguage(zh, stripInternal(se.Message))
	if !zh && se.Code == api.CodeUnknownModel {
		if m := modelList.FindStringSubmatch(msg); m != nil {
			// Go's %v of the model list reads as code: `(have [a b])`.
			q := quotedDetail.FindString(strings.Replace(msg, m[0], "", 1))
			return strings.TrimSpace("unknown model "+q) + "; available: " + strings.Join(strings.Fields(m[1]), ", ")
		}
	}
	t, ok := serverTextZh[se.Code]
	if !zh || !ok || chat.IsChinese(msg) {
		return msg
	}
	switch se.Code {
	case api.CodeNotFound:
		if strings.Contains(msg, "conversation") {
			t += "对话"
		}
	case api.CodeUnknownModel:
		if m := modelList.FindStringSubmatch(msg); m != nil {
			q := quotedDetail.FindString(strings.Replace(msg, m[0], "", 1))
			return strings.TrimSpace(t+" "+q) + "（可用：" + strings.Join(strings.Fields(m[1]), "、") + "）"
		}
	case api.CodeUploadTooLarge:
		if m := byteCount.FindStringSubmatch(msg); m != nil {
			if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
				return t + "（上限 " + bytesize.Format(n) + "）"
			}
		}
		return t
	}
	if q := quotedDetail.FindString(msg); q != "" {
		return t + " " + q
	}
	if f := strings.Fields(msg); se.Code == api.CodeNotFound && len(f) > 1 && strings.ContainsAny(f[len(f)-1], "0123456789-") {
		return t + " " + f[len(f)-1]
	}
	return t
}

// Endings of the server's client-neutral hint for an unreachable model
// (chat's modelUnreachable), which modelHint completes.
const (
	modelHintZh = "请换一个模型，例如 builtin。"
	modelHintEn = "Choose another model, e.g. builtin."
)

// modelHint adds this CLI's way to switch models to the server's text
// for an unreachable model, in that text's language: /model builtin in
// the REPL, --model builtin for one-shot ask. Other texts are returned
// as they are.
func modelHint(text string, repl bool) string {
	switch {
	case strings.HasSuffix(text, modelHintZh):
		return text + pick(repl, "输入 /model builtin 即可切换。", "加上 --model builtin 再问一次即可。")
	case strings.HasSuffix(text, modelHintEn):
		return text + pick(repl, " Type /model builtin to switch.", " Ask again with --model builtin.")
	}
	return text
}
