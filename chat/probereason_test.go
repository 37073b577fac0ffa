package chat

import "testing"

// TestProbeReasonText: "模型 ollama 当前不可达（connection refused）" put
// the probe's English inside Chinese; the common reasons are said in
// either language, and an unknown English one never reaches a Chinese
// text.
func TestProbeReasonText(t *testing.T) {
	for _, tc := range []struct{ in, zh, en string }{
		{"connection refused", "连接被拒绝", "connection refused"},
		{"i/o timeout", "连接超时", "connection timed out"},
		{"context deadline exceeded", "探测超时", "the probe timed out"},
		{"no such host", "找不到主机", "no such host"},
		{"dial tcp: lookup api.example.com on 127.0.0.53:53: server misbehaving", "域名解析失败", "the host name could not be resolved"},
		{"x509: certificate signed by unknown authority", "TLS 证书无法验证", "the TLS certificate could not be verified"},
		{"tls: handshake failure", "TLS 握手失败", "the TLS handshake failed"},
		{"401 Unauthorized", "API 密钥缺失或无效（401）", "the API key is missing or invalid (401)"},
		{"403 Forbidden", "无权访问（403）", "access is forbidden (403)"},
		{"404 Not Found", "地址不对：找不到接口（404）", "the address is wrong: no such endpoint (404)"},
		{"something odd", "无法连接", "something odd"},
		{"", "", ""},
	} {
		if got := ProbeReasonText(true, tc.in); got != tc.zh {
			t.Errorf("zh %q = %q, want %q", tc.in, got, tc.zh)
		}
		if got := ProbeReasonText(false, tc.in); got != tc.en {
			t.Errorf("en %q = %q, want %q", tc.in, got, tc.en)
		}
	}
	if got := (modelUnreachable{zh: true, name: "ollama", reason: "connection refused"}).Error(); got != "模型 ollama 当前不可达（连接被拒绝）。请换一个模型，例如 builtin。" {
		t.Errorf("unreachable: %q", got)
	}
}
