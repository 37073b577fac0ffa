package embed

import (
	"golang.org/x/text/unicode/norm"

	"strings"
	"unicode"
)

// glossaryEntry is one bilingual concept: Chinese terms and their English
// equivalents (lower case; multi-word terms separated by single spaces).
type glossaryEntry struct {
	zh []string
	en []string
}

// builtinGlossary is the read-only ops glossary used for query expansion.
var builtinGlossary = []glossaryEntry{
	{[]string{"数据库"}, []string{"database", "db"}},
	{[]string{"端口"}, []string{"port"}},
	{[]string{"日志"}, []string{"log", "logs"}},
	{[]string{"配置"}, []string{"config", "configuration", "conf"}},
	{[]string{"证书"}, []string{"certificate", "cert", "tls", "ssl"}},
	{[]string{"过期", "到期"}, []string{"expire", "expired", "expiry"}},
	{[]string{"续期"}, []string{"renew", "renewal"}},
	{[]string{"备份"}, []string{"backup"}},
	{[]string{"恢复", "还原"}, []string{"restore", "recovery"}},
	{[]string{"告警", "报警"}, []string{"alert", "alarm"}},
	{[]string{"错误", "报错"}, []string{"error", "err"}},
	{[]string{"内存"}, []string{"memory", "mem"}},
	{[]string{"磁盘", "硬盘"}, []string{"disk"}},
	{[]string{"主机"}, []string{"host"}},
	{[]string{"服务器"}, []string{"server"}},
	{[]string{"用户"}, []string{"user"}},
	{[]string{"密码"}, []string{"password", "passwd"}},
	{[]string{"超时"}, []string{"timeout"}},
	{[]string{"服务"}, []string{"service"}},
	{[]string{"进程"}, []string{"process"}},
	{[]string{"网络"}, []string{"network"}},
	{[]string{"防火墙"}, []string{"firewall"}},
	{[]string{"定时任务", "计划任务"}, []string{"cron", "crontab"}},
	{[]string{"部署"}, []string{"deploy", "deployment"}},
	{[]string{"监控"}, []string{"monitor", "monitoring"}},
	{[]string{"负载均衡"}, []string{"load balancer", "lb"}},
	{[]string{"缓存"}, []string{"cache", "redis"}},
	{[]string{"队列"}, []string{"queue"}},
	{[]string{"版本"}, []string{"version"}},
	{[]string{"升级"}, []string{"upgrade"}},
	{[]string{"权限"}, []string{"permission", "permissions"}},
	{[]string{"策略"}, []string{"policy", "strategy"}},
	{[]string{"连接"}, []string{"connection", "connect"}},
	{[]string{"重启"}, []string{"restart", "reboot"}},
	{[]string{"容器"}, []string{"container", "docker"}},
	{[]string{"域名"}, []string{"domain", "dns"}},
	{[]string{"反向代理", "代理"}, []string{"proxy", "reverse proxy"}},
	{[]string{"目录"}, []string{"directory", "dir", "folder"}},
}

// expand returns the glossary terms related to text that text does not
// already contain, in glossary order. text must be NFKC-normalised and
// lower-cased. Chinese terms match as substrings; English terms match
// whole words or whole word sequences.
func expand(text string) []string {
	words := " " + strings.Join(strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) || isCJK(r)
	}), " ") + " "
	hasEN := func(t string) bool { return strings.Contains(words, " "+t+" ") }
	var out []string
	for _, e := range builtinGlossary {
		hit := false
		for _, t := range e.zh {
			hit = hit || strings.Contains(text, t)
		}
		for _, t := range e.en {
			hit = hit || hasEN(t)
		}
		if !hit {
			continue
		}
		for _, t := range e.zh {
			if !strings.Contains(text, t) {
				out = append(out, t)
			}
		}
		for _, t := range e.en {
			if !hasEN(t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// Expand returns the bilingual glossary terms related to text that it
// does not already contain (数据库 → database, db; port → 端口), so a
// keyword search can match across languages too.
func Expand(text string) []string {
	return expand(strings.ToLower(norm.NFKC.String(text)))
}
