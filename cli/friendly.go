package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/client"
	"opsassist/internal/bytesize"
	"opsassist/rdt"
)

// internalPrefixes are package prefixes of error texts ("client: …")
// that mean nothing to the person reading them.
var internalPrefixes = []string{"client: ", "nplt: ", "rdt: ", "pathguard: ", "history: "}

// friendly turns err into the text a person reads, in the CLI's language,
// with a hint where one helps; server is the address the CLI dialled.
// It is the CLI's one mapping from errors to messages: every error the
// CLI prints goes through it. The raw error goes to the debug log and,
// with --debug, after the message.
func (c *CLI) friendly(err error, server string, debug bool) string {
	c.logger().Debug("error shown to the user", zap.Error(err))
	s := c.friendlyText(err, server)
	if debug && s != err.Error() {
		s += " [debug: " + err.Error() + "]"
	}
	return s
}

// friendlyText is friendly without the debug part.
func (c *CLI) friendlyText(err error, server string) string {
	var (
		se *client.ServerError
		pe *fs.PathError
		tl *client.UploadSizeError
	)
	if errors.Is(err, client.ErrPartialKept) {
		cause := stripInternal(strings.TrimRight(strings.ReplaceAll(err.Error(), client.ErrPartialKept.Error(), ""), " :()"))
		if base := client.WithoutPartialKept(err); base != err {
			cause = c.friendlyText(base, server)
		} else if t := c.stopText(err); t != "" {
			cause = t
		}
		return cause + c.say(
			"——已下载的部分保留着：再运行同一条命令即可续传",
			" — the partial file is kept: run the same command again to resume")
	}
	switch {
	case errors.Is(err, client.ErrHTTPServer):
		return fmt.Sprintf(c.say(
			"%[1]s 不是 opsassist 的 NPLT 服务（它像 HTTP 服务器那样应答——命令行连接的是 NPLT 端口，默认 9999；网页在 http://%[1]s/）",
			"%[1]s is not an opsassist NPLT server (it answered like an HTTP server — the CLI talks to the NPLT port, 9999 by default; the web page is at http://%[1]s/)"), server)
	case errors.Is(err, client.ErrNotNPLT):
		return fmt.Sprintf(c.say(
			"%[1]s 不是 opsassist 的 NPLT 服务（它没有按 NPLT 协议应答——命令行连接的是 NPLT 端口，默认 9999）",
			"%[1]s is not an opsassist NPLT server (it did not answer like one — the CLI talks to the NPLT port, 9999 by default)"), server)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf(c.say(
			"%[1]s 上没有运行 opsassist 服务（连接被拒绝）——用 `opsassistd` 启动它（源码目录里用 `make run`），或用 --server 或 OPSASSIST_SERVER 指向正确的地址",
			"the opsassist server is not running at %[1]s (connection refused) — start it with `opsassistd` (in the source tree: `make run`), or point --server or OPSASSIST_SERVER at the right address"), server)
	case errors.Is(err, rdt.ErrUnknownToken), errors.Is(err, rdt.ErrExpiredToken),
		errors.Is(err, &client.ServerError{Code: api.CodeTokenUnknown}), errors.Is(err, &client.ServerError{Code: api.CodeTokenExpired}):
		return c.say("下载令牌无效或已过期——请重新提问以获得新的下载链接",
			"the download token is unknown or expired — ask again for a fresh download offer")
	case errors.Is(err, client.ErrUnknownSession):
		return c.say("服务器上没有这个对话（可能已被删除）",
			"the server does not know this conversation (it may have been deleted)")
	case errors.As(err, &tl):
		size, limit := bytesize.Over(tl.Size, tl.Limit), bytesize.Short(tl.Limit)
		return fmt.Sprintf(c.say("文件太大：%s，超过了服务器单个文件 %s 的上传上限", "file too large: %s is over the server's %s limit for one upload"), size, limit)
	case errors.As(err, &se) && client.Undelivered(err) == nil:
		return serverText(c.chinese(), se)
	case c.stopText(err) != "":
		return c.stopText(err)
	case errors.Is(err, rdt.ErrBusy):
		return c.say("服务器繁忙（同时进行的下载太多），重试后仍被拒绝——请稍后再下载",
			"the server is busy (too many downloads at once) and still refused after retrying — try the download again later")
	case errors.As(err, &pe) && errors.Is(err, client.ErrNotRegular):
		return fmt.Sprintf(c.say("%s 不是普通文件（而是目录、设备或管道），不能上传", "%s is not a regular file (a directory, a device or a pipe), so it cannot be uploaded"), pe.Path)
	case errors.As(err, &pe) && errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf(c.say("找不到文件 %s", "no such file: %s"), pe.Path)
	case errors.Is(err, client.ErrConnectionLost):
		cause := strings.ReplaceAll(err.Error(), client.ErrConnectionLost.Error()+": ", "")
		return fmt.Sprintf(c.say("与服务器 %s 的连接断开了（%s）", "lost the connection to the server at %s (%s)"),
			server, stripInternal(cause))
	}
	return stripInternal(err.Error())
}

// stopText is the text for a transfer that stopped: interrupted here
// (Ctrl-C) or the server stopped responding; "" for other errors.
func (c *CLI) stopText(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return c.say("已停止", "stopped")
	case errors.Is(err, rdt.ErrTimeout):
		return c.say("服务器停止了响应", "the server stopped responding")
	}
	return ""
}

// stripInternal removes internal package prefixes from s.
func stripInternal(s string) string {
	for _, p := range internalPrefixes {
		s = strings.ReplaceAll(s, p, "")
	}
	return s
}
