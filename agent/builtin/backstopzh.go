package builtin

import (
	"strings"
	"unicode/utf8"
)

// The backstop in Chinese (backstop.go): a clause that names an object
// of the machine and a verb of change, asks no one to look and asks no
// question — or asks one that is a request ("能不能帮我 …") — and tells
// no plan, event or problem of the speaker's is a request of change.
var (
	// reZhLookWords ask to see, find out or be told.
	reZhLookWords = compile(`看|查|瞅|瞧|显示|列出|列一下|列下|统计|告诉|读一下|找|搜|检查|确认|监控|排查|诊断|分析|对比|比较|解释|介绍|说说|说一下|讲|汇总|总结|打印|输出|下载|发给我|发我|盯|测一下|ping|评估|算一下|估算`)
	// reZhAsks asks a question.
	reZhAsks = compile(`吗|谁|呢|么|嘛|[？?]|什么|啥|哪|多少|几[个台块条次天]|是否|是不是|有没有|要不要|该不该|需不需要|能不能|可不可以|行不行|好不好|对不对`)
	// reZhHowTo asks how or why: knowledge, never a request.
	reZhHowTo = compile(`怎么|如何|怎样|咋|方法|步骤|教程|原理|区别|意思|为什么|为啥|请问|请教|建议|注意|多久|多长时间|影响|风险|后果|会不会|命令是`)
	// reZhWritesText asks for a text written for the user: a script, a
	// command, a document ("帮我写一个清理日志的脚本").
	reZhWritesText = compile(`(写|生成|给我|出)(一个|个|一段|段|一份|份|一条|条)?[^，。,]{0,16}?(脚本|命令|文档|教程|示例|例子|总结|报告|说明|方案|清单|正则|表达式)`)
	// reZhAsksFor asks someone to act, whatever the question around it.
	reZhAsksFor = compile(`帮我|帮忙|帮着|麻烦|劳驾|拜托|替我|你去|你来|请(你|帮|把|将|给)?|(能不能|可以|能|能否|可否|可不可以|可以不可以)(帮|把|将|给|替)`)
	// reZhNotNow tells what happened, is happening or went wrong, or the
	// speaker's own plan, or negates the action.
	reZhNotNow = compile(`被|已经|昨天|昨晚|前天|上周|上个?月|刚才|刚刚|之前|以前|曾经|去年|正在|一直在|不来|不了|不起|不上|不掉|不动|不行|不对|不通|失败|报错|出错|异常|卡住|卡死|满了|挂了|过了|没(有)?[^，。,\s]{0,4}?(成功|生效|起来|挂上|装上|加上)|不要|别|不用|不必|无需|不需要|没必要|千万别|` +
		`^\s*(我|我们|咱们|咱)(打算|准备|计划|会|将|自己|` + zhLater + `)`)
	// reZhChangeVerbs are verbs of change.
	reZhChangeVerbs = compile(zhChangeVerbs)
	// reZhNotVerbs are words whose characters are verbs of reZhChangeVerbs
	// but mean none: blanked before the verbs are read.
	reZhNotVerbs = compile(`开发|开始|开头|开销|开心|一起|起因|起来了|接口|连接|一切|数据|处理器|键盘|复盘|盘点|大盘|操盘|地盘|关于|相关|关系|关键|有关|设备|设计|配置文件里|改进建议|加油|增长|增加了|更新时间|版本号|启动时间|开机时间|最新`)
	// reZhRequestMark marks a request: what is handed over or for whom
	// (把, 将, 给我, 帮, 请, 替), a push (去, 再, 吧, 赶紧, 马上, 现在, a
	// time ahead), a need (需要, 必须, 要), or a result or amount right
	// after a verb of change (删掉, 加个, 挂上, 迁到, 改成, 配好, 拉起来).
	// A bare 上, 下, 个, 好 or 得 marks nothing: "恭喜新服务器上线",
	// "规则配得很好".
	reZhRequestMark = compile(`把|将|给(我|他|她|它|这|那|[\s/a-zA-Z0-9])|帮|请|麻烦|替|(^|[^失过回])去|再|一下|吧|需要|必须|马上|立刻|赶紧|现在|今晚|明天|明早|晚上|` +
		`(^|[^不想只重主])要[^是不]|(?:` + zhChangeVerbs + `)(?:下|掉|个|一个|一块|一条|一台|一把|一份|点|成|到|上|进|入|起来|好|了吧)|(?:` + zhChangeVerbs + `)[^，。,；;]{0,12}?(?:到|成|为|\d+\s*(?:个|台|块|条|核|[GgTtMm%]))`)
	// reZhConfigNoun is 配置 as a noun, followed by what is done with it
	// ("把 nginx 配置贴出来"): blanked before the verbs are read; "配置一下",
	// "配置 1024 个大页" keep it a verb.
	reZhConfigNoun = compile(`(配置|设置)([^\s一下好成为\d，。,]|$)`)
)

// zhChangeVerbs are the Chinese verbs of change, an alternation.
const zhChangeVerbs = `加|添|增|删|减|改|换|设|调|开|关|停|启|起|封|禁|解|挂|卸|装|升|降|建|创|生成|配|绑|迁|移|挪|拷|复制|备份|恢复|还原|回滚|重置|重建|清|刷|扩|缩|拉起|拉黑|下线|上线|摘|切|同步|导入|踢|锁|授权|放行|屏蔽|续|签|初始化|部署|发布|运行|执行|跑|杀|干掉|暂停|销毁|释放|回收|分配|格式化|注册|注销|推送|覆盖|更新|修复|修|弄|搞|处理|开通|撤|校|对时|接入|拔|插|断开|腾|挪|收拾|吊销|排空|下掉|收回|扔|空出|重新拉`

// zhObjects are the objects of the machine in Chinese, by the refusal
// kind that names them, in the order backstopObjects gives.
var zhObjects = []struct {
	kind harmKind
	re   *rx
}{
	{harmContainer, compile(`(?i)容器|镜像|虚拟机|快照|\bpods?\b|副本|\bvms?\b|\bcontainers?\b|\bcompose\b`)},
	{harmDatabase, compile(`(?i)数据库|(测试|生产|线上|正式|主|从|业务|开发|预发|备份|历史|老|旧|用户|订单|商品|日志)库|数据表|这张表|那张表|(用户|订单|日志|会话)表|\b(db|databases?|tables?)\b|索引`)},
	{harmUser, compile(`(?i)用户|账号|权限|账户|成员|组员|密码|口令|密钥|秘钥|公钥|私钥|ssh\s*keys?|\bkeys?\b|sudoers?|凭据|\btoken\b`)},
	{harmSetting, compile(`(?i)域控|(加入|加到|退出|离开|脱离)[^，。,\s]{0,4}?域|(?:^|[^名])域(?:$|[^名])|系统时间|服务器时间|机器时间|本机时间|时钟|把时间|时间(往|调|改|设|同步|校准|校正|对)|时区|主机名|语言环境|\blocale\b|\bhostname\b|\bntp\b|内核参数|\bsysctl\b`)},
	{harmDisk, compile(`(?i)盘|分区|\b卷\b|逻辑卷|文件系统|挂载点|\bswap\b|交换分区|交换文件|/dev/\S+|\blvm\b|\braid\b`)},
	{harmNetwork, compile(`(?i)防火墙|端口|\bips?\b|地址|路由|网关|网卡|\bdns\b|域名解析|解析记录|网段|子网|\d{1,3}(\.\d{1,3}){3}|iptables|\bvpn\b|代理|白名单|黑名单|流量|带宽|\bmtu\b|网桥|\bvlan\b`)},
	{harmCron, compile(`(?i)定时任务|计划任务|\bcron(tab)?\b|定时器|\btimers?\b`)},
	{harmEdit, compile(`(?i)证书|\b(ssl|tls|https)\b`)},
	{harmService, compile(`(?i)服务|守护进程|\b(nginx|apache2?|httpd|mysqld?|mariadb|postgres(ql)?|redis|docker|dockerd|kafka|zookeeper|sshd|crond|rabbitmq|mongod(b)?|elasticsearch|memcached|haproxy|php-fpm|tomcat|jenkins|etcd|kubelet|containerd|grafana|prometheus|celery|supervisord?|chronyd|ntpd)\b|\.service\b`)},
	{harmPackage, compile(`软件|软件包|安装包|依赖|版本|内核|模块|驱动|插件|补丁`)},
	{harmEdit, compile(`(?i)配置|参数|设置|选项|环境变量|变量|上限|\bulimit\b|\blimits?\b`)},
	{harmMachine, compile(`(?i)服务器|机器|主机|节点|实例|这台|集群|\becs\b|云主机`)},
	{harmEdit, compile(`文件|目录|文件夹|日志|缓存|备份|路径|(?:^|[\s:：])(~|\.{0,2})/[\w./-]+`)},
}

// chineseChange reads each Chinese clause for a request of change.
func chineseChange(text string) refusal {
	if !hasHan(text) {
		return refusal{}
	}
	var r refusal
	mapClauses(text, func(cl string, _ bool) string {
		if r.none() {
			r = zhClauseChange(cl)
		}
		return cl
	})
	return r
}

// zhClauseChange reads one clause.
func zhClauseChange(cl string) refusal {
	if !hasHan(cl) || reZhHowTo.MatchString(cl) || reZhNotNow.MatchString(cl) || reZhWritesText.MatchString(cl) {
		return refusal{}
	}
	v := reZhNotVerbs.ReplaceAllString(cl, "  ")
	if reZhLookWords.MatchString(v) {
		return refusal{}
	}
	if reZhAsks.MatchString(v) && !reZhAsksFor.MatchString(v) {
		return refusal{}
	}
	if strings.Contains(v, "了") && !reZhAsksFor.MatchString(v) && !strings.ContainsAny(v, "把将吧") {
		return refusal{} // "给 /data 挂了一块新盘": told done
	}
	vv := reZhConfigNoun.ReplaceAllString(v, "  $2")
	if !reZhChangeVerbs.MatchString(vv) || !reZhRequestMark.MatchString(vv) {
		return refusal{}
	}
	for _, o := range zhObjects {
		if o.re.MatchString(v) {
			q := quoted(strings.TrimSpace(strings.TrimRight(cl, "，。,；;！!？?\n")))
			if o.kind == harmEdit && reZhCopyInto.MatchString(v) {
				return refuseHarm(harmMove, q)
			}
			return refuseHarm(o.kind, q)
		}
	}
	return refusal{}
}

// maxQuoted is how many characters of a clause a refusal quotes.
const maxQuoted = 40

// quoted is s cut to maxQuoted characters, "…" marking a cut.
func quoted(s string) string {
	if utf8.RuneCountInString(s) <= maxQuoted {
		return s
	}
	return string([]rune(s)[:maxQuoted]) + "…"
}

// reZhCopyInto puts a copy somewhere: "备份到 /tmp", "拷到 /mnt".
var reZhCopyInto = compile(`(备份|拷贝?|复制|同步|导出|存|放|挪|移)(一份)?(到|至|进)`)
