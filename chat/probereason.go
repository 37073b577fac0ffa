package chat

import "strings"

// probeReasons are the model reachability probe's reasons (the innermost
// error of a failed connection, agent/llm's probeReason) in Chinese and
// in English; they are matched whole.
var probeReasons = map[string][2]string{
	"connection refused":        {"连接被拒绝", "connection refused"},
	"i/o timeout":               {"连接超时", "connection timed out"},
	"context deadline exceeded": {"探测超时", "the probe timed out"},
	"no such host":              {"找不到主机", "no such host"},
	"network is unreachable":    {"网络不可达", "network is unreachable"},
	"no route to host":          {"没有到主机的路由", "no route to host"},
	"connection reset by peer":  {"连接被重置", "connection reset by peer"},
	"EOF":                       {"连接被关闭", "the connection was closed"},
}

// probeReasonParts are reasons recognised by a part of their text (TLS
// and HTTP status failures carry details around it), in this order.
var probeReasonParts = []struct {
	part   string
	zh, en string
}{
	{"x509:", "TLS 证书无法验证", "the TLS certificate could not be verified"},
	{"tls:", "TLS 握手失败", "the TLS handshake failed"},
	{"401", "API 密钥缺失或无效（401）", "the API key is missing or invalid (401)"},
	{"403", "无权访问（403）", "access is forbidden (403)"},
	{"404", "地址不对：找不到接口（404）", "the address is wrong: no such endpoint (404)"},
	{"timeout", "连接超时", "connection timed out"},
	{"no such host", "找不到主机", "no such host"},
	{"lookup ", "域名解析失败", "the host name could not be resolved"},
	{"connection refused", "连接被拒绝", "connection refused"},
}

// ProbeReasonText is a model's unreachable reason in the user's
// language: the one mapping the chat core's "model unreachable" error
// and the CLI's model list share. A reason it does not know is shown as
// it is, except that a Chinese text never carries an English one: there
// it is 无法连接 (the raw reason stays in the model list's JSON and the
// server's log).
func ProbeReasonText(zh bool, reason string) string {
	if reason == "" {
		return ""
	}
	pick := func(t [2]string) string {
		if zh {
			return t[0]
		}
		return t[1]
	}
	if t, ok := probeReasons[reason]; ok {
		return pick(t)
	}
	for _, p := range probeReasonParts {
		if strings.Contains(reason, p.part) {
			return pick([2]string{p.zh, p.en})
		}
	}
	if zh && !IsChinese(reason) {
		return "无法连接"
	}
	return reason
}
