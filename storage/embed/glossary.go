package embed

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
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
	{[]string{"网页", "页面"}, []string{"web page", "web"}},
	{[]string{"客户端"}, []string{"client"}},
	{[]string{"浏览器"}, []string{"browser"}},
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
	{[]string{"主库", "主节点"}, []string{"primary", "master"}},
	{[]string{"从库", "只读库", "副本", "从节点"}, []string{"replica", "slave", "read only", "standby"}},
	{[]string{"账号", "帐号", "账户"}, []string{"account", "user", "username"}},
	{[]string{"值班", "轮值", "待命"}, []string{"on-call", "on call", "oncall", "rota", "duty"}},
	{[]string{"交接"}, []string{"handover", "hand over", "handoff"}},
	{[]string{"补贴", "津贴", "报酬"}, []string{"allowance", "compensation", "stipend", "pay"}},
	{[]string{"事故", "故障"}, []string{"incident", "outage", "failure"}},
	{[]string{"复盘"}, []string{"postmortem", "post-mortem", "retrospective"}},
	{[]string{"根因", "根本原因"}, []string{"root cause"}},
	{[]string{"升级处理", "上报"}, []string{"escalation", "escalate"}},
	{[]string{"静默", "屏蔽"}, []string{"silence", "mute"}},
	{[]string{"阈值"}, []string{"threshold"}},
	{[]string{"限流", "速率限制"}, []string{"rate limit", "ratelimit", "throttle", "throttling"}},
	{[]string{"接口"}, []string{"api", "endpoint", "interface"}},
	{[]string{"套餐", "档位"}, []string{"plan", "tier"}},
	{[]string{"配额"}, []string{"quota"}},
	{[]string{"发布", "上线"}, []string{"release", "rollout", "launch", "go live"}},
	{[]string{"回滚"}, []string{"rollback", "roll back"}},
	{[]string{"灰度", "金丝雀"}, []string{"canary", "gray release"}},
	{[]string{"变更"}, []string{"change", "changelog"}},
	{[]string{"更新日志", "变更记录", "发布说明"}, []string{"changelog", "release notes"}},
	{[]string{"扩容"}, []string{"scale out", "expand", "capacity"}},
	{[]string{"容量"}, []string{"capacity"}},
	{[]string{"增长"}, []string{"growth", "grow"}},
	{[]string{"规划", "计划"}, []string{"plan", "planning"}},
	{[]string{"预算"}, []string{"budget", "cost"}},
	{[]string{"缓冲池"}, []string{"buffer pool", "innodb buffer pool"}},
	{[]string{"慢查询"}, []string{"slow query", "slow log"}},
	{[]string{"索引"}, []string{"index"}},
	{[]string{"主从复制", "复制"}, []string{"replication"}},
	{[]string{"延迟", "时延"}, []string{"latency", "lag", "delay"}},
	{[]string{"二进制日志"}, []string{"binlog", "binary log"}},
	{[]string{"访问日志"}, []string{"access log", "access_log"}},
	{[]string{"错误日志"}, []string{"error log", "error_log"}},
	{[]string{"回调"}, []string{"callback", "notify"}},
	{[]string{"支付"}, []string{"payment", "pay"}},
	{[]string{"订单"}, []string{"order"}},
	{[]string{"结账", "下单"}, []string{"checkout", "order"}},
	{[]string{"握手"}, []string{"handshake"}},
	{[]string{"协议"}, []string{"protocol"}},
	{[]string{"加密"}, []string{"encrypt", "encryption", "cipher"}},
	{[]string{"密钥", "私钥", "公钥"}, []string{"key", "private key", "public key"}},
	{[]string{"探针"}, []string{"probe"}},
	{[]string{"就绪"}, []string{"readiness", "ready"}},
	{[]string{"存活"}, []string{"liveness", "alive"}},
	{[]string{"健康检查"}, []string{"health check", "healthcheck", "health"}},
	{[]string{"调度", "算法"}, []string{"balance", "algorithm", "scheduling", "roundrobin", "leastconn"}},
	{[]string{"内核参数", "内核"}, []string{"kernel", "sysctl"}},
	{[]string{"实例", "云服务器", "云主机"}, []string{"instance", "ecs", "vm"}},
	{[]string{"可用区"}, []string{"availability zone", "zone", "az"}},
	{[]string{"地域", "区域"}, []string{"region"}},
	{[]string{"机型", "规格"}, []string{"instance type", "flavor", "spec"}},
	{[]string{"资产", "清单"}, []string{"inventory", "asset"}},
	{[]string{"节假日", "假期", "国庆"}, []string{"holiday", "national day", "vacation"}},
	{[]string{"排班", "值班表"}, []string{"schedule", "rota", "roster"}},
	{[]string{"联系人", "负责人"}, []string{"contact", "owner"}},
	{[]string{"电话"}, []string{"phone"}},
	{[]string{"响应", "确认"}, []string{"response", "respond", "acknowledge", "ack"}},
	{[]string{"分钟"}, []string{"minute", "minutes", "min"}},
	{[]string{"小时"}, []string{"hour", "hours"}},
	{[]string{"保留"}, []string{"retention", "retain", "retained", "keep", "kept"}},
	{[]string{"轮转", "切割"}, []string{"rotate", "rotation", "logrotate"}},
	{[]string{"压缩"}, []string{"compress", "compression", "gzip"}},
	{[]string{"清理", "删除"}, []string{"clean", "cleanup", "delete", "purge"}},
	{[]string{"磁盘满", "空间不足"}, []string{"disk full", "no space"}},
	{[]string{"内存不足", "内存溢出"}, []string{"out of memory", "oom"}},
	{[]string{"崩溃"}, []string{"crash", "panic"}},
	{[]string{"堆栈"}, []string{"stack trace", "stacktrace", "stack"}},
	{[]string{"线程"}, []string{"thread"}},
	{[]string{"并发"}, []string{"concurrency", "concurrent"}},
	{[]string{"请求"}, []string{"request", "requests"}},
	{[]string{"响应时间"}, []string{"response time", "latency"}},
	{[]string{"吞吐"}, []string{"throughput", "qps", "tps"}},
	{[]string{"带宽"}, []string{"bandwidth"}},
	{[]string{"流量"}, []string{"traffic"}},
	{[]string{"白名单"}, []string{"allowlist", "whitelist"}},
	{[]string{"黑名单"}, []string{"denylist", "blacklist"}},
	{[]string{"开放", "放行"}, []string{"open", "allow"}},
	{[]string{"禁止", "拒绝"}, []string{"deny", "reject", "forbidden"}},
	{[]string{"跳板机", "堡垒机"}, []string{"bastion", "jump host", "jumpbox"}},
	{[]string{"入职"}, []string{"onboarding", "onboard"}},
	{[]string{"离职"}, []string{"offboarding", "offboard"}},
	{[]string{"审批"}, []string{"approval", "approve"}},
	{[]string{"脚本"}, []string{"script"}},
	{[]string{"环境变量"}, []string{"environment variable", "env"}},
	{[]string{"集群"}, []string{"cluster"}},
	{[]string{"节点"}, []string{"node"}},
	{[]string{"命名空间"}, []string{"namespace"}},
	{[]string{"镜像"}, []string{"image"}},
	{[]string{"副本数"}, []string{"replicas"}},
	{[]string{"资源限制"}, []string{"limits", "resources"}},
	{[]string{"定时"}, []string{"schedule", "cron"}},
	{[]string{"全量"}, []string{"full"}},
	{[]string{"增量"}, []string{"incremental"}},
	{[]string{"快照"}, []string{"snapshot"}},
	{[]string{"时间点"}, []string{"point in time", "pitr"}},
	{[]string{"误删"}, []string{"accidentally deleted", "accidental delete"}},
	{[]string{"持久化", "后台保存"}, []string{"persistence", "bgsave", "rdb", "aof"}},
	{[]string{"分叉"}, []string{"fork"}},
	{[]string{"虚拟专用网", "专线"}, []string{"vpn", "wireguard"}},
	{[]string{"状态码"}, []string{"status code", "http status"}},
	{[]string{"上游"}, []string{"upstream", "backend"}},
	{[]string{"后端"}, []string{"backend"}},
	{[]string{"前端"}, []string{"frontend"}},
	{[]string{"工作日"}, []string{"weekday", "workday"}},
	{[]string{"周末"}, []string{"weekend"}},
	{[]string{"成本"}, []string{"cost"}},
	{[]string{"失败"}, []string{"failed", "fail", "failure"}},
	{[]string{"过时", "旧版", "老版本"}, []string{"outdated", "deprecated", "legacy", "old", "unsupported"}},
	{[]string{"用完", "耗尽", "写满"}, []string{"run out", "exhausted", "full"}},
	{[]string{"太大", "过大", "超大"}, []string{"too large", "too big", "large", "big", "huge"}},
	{[]string{"连不上", "无法连接"}, []string{"connection refused", "unreachable", "cannot connect", "could not reach"}},
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
// keyword search can match across languages too, followed by its
// DateTokens.
func Expand(text string) []string {
	text = norm.NFKC.String(text)
	return append(expand(strings.ToLower(text)), DateTokens(text)...)
}

// A Concept is one thing a text asks about, as the glossary knows it:
// all the words of a glossary entry in both languages (数据库, database,
// db), and those of them the text itself says.
type Concept struct {
	// Words are the concept's terms, Chinese first, then English.
	Words []string
	// Said are the terms of Words the text contains; the others are
	// translations and synonyms it reaches through the glossary.
	Said []string
}

// span is where a glossary term occurs: byte offsets in the lower-cased
// text (Chinese terms, zh set) or in its space-joined words (English).
type span struct {
	start, end int
	zh         bool
}

// inside reports whether s lies within t, in the same coordinates.
func (s span) inside(t span) bool {
	return s.zh == t.zh && t.start <= s.start && s.end <= t.end
}

// Concepts are the glossary concepts text mentions, each with all its
// terms, Chinese and English (数据库 → 数据库, database, db), so a caller
// can treat a word and its translations as one thing asked about.
//
// Each place in the text is one concept: an entry whose every mention
// lies inside a longer term of another entry is not one of its own
// ("错误日志" is the concept error log, not also 错误 and 日志), and
// entries mentioned at exactly the same places are merged ("user" is one
// concept, 用户 and 账号 together), so no word is counted twice.
//
// The work is linear in the text's length for a fixed glossary: each
// entry's mentions are found once, sorted and deduplicated, and the
// comparisons of one entry's mentions with another's are binary searches
// (spanSet), never every mention with every other.
func Concepts(text string) []Concept {
	return concepts(text, nil)
}

// concepts is Concepts; work, when not nil, counts the mention
// comparisons it makes, for the test that bounds them.
func concepts(text string, work *int) []Concept {
	text = strings.ToLower(norm.NFKC.String(text))
	words := " " + strings.Join(strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) || isCJK(r)
	}), " ") + " "
	type found struct {
		c     Concept
		spans spanSet
	}
	var all []found
	for _, e := range builtinGlossary {
		var f found
		var spans []span
		for _, t := range e.zh {
			for off := 0; ; {
				i := strings.Index(text[off:], t)
				if i < 0 {
					break
				}
				spans = append(spans, span{off + i, off + i + len(t), true})
				off += i + len(t)
			}
		}
		for _, t := range e.en {
			pat := " " + t + " "
			for off := 0; ; {
				i := strings.Index(words[off:], pat)
				if i < 0 {
					break
				}
				spans = append(spans, span{off + i + 1, off + i + 1 + len(t), false})
				off += i + len(t) + 1
			}
		}
		if len(spans) == 0 {
			continue
		}
		f.spans = newSpanSet(spans)
		f.c.Words = append(append([]string(nil), e.zh...), e.en...)
		for _, t := range e.zh {
			if strings.Contains(text, t) {
				f.c.Said = append(f.c.Said, t)
			}
		}
		for _, t := range e.en {
			if strings.Contains(words, " "+t+" ") {
				f.c.Said = append(f.c.Said, t)
			}
		}
		all = append(all, f)
	}
	var out []found
next:
	for i, a := range all {
		for j, b := range all {
			if i != j && b.spans.cover(a.spans, work) {
				continue next
			}
		}
		for k := range out {
			if out[k].spans.equal(a.spans, work) {
				out[k].c.Words = appendNew(out[k].c.Words, a.c.Words...)
				out[k].c.Said = appendNew(out[k].c.Said, a.c.Said...)
				continue next
			}
		}
		out = append(out, a)
	}
	cs := make([]Concept, len(out))
	for i, f := range out {
		cs[i] = f.c
	}
	return cs
}

// appendNew appends the words of ws that s does not hold yet.
func appendNew(s []string, ws ...string) []string {
	for _, w := range ws {
		if !slices.Contains(s, w) {
			s = append(s, w)
		}
	}
	return s
}
