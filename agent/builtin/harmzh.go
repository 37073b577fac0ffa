package builtin

import (
	"strings"
	"unicode/utf8"
)

// zhHarms are Chinese requests for a destructive action, by kind: the
// verb with the complement or object that makes it a request (清一下,
// 卸了, 新建…用户, 加到 sudoers, 执行 /opt/x.sh), plain or polite. The
// first match decides; the order puts the specific kinds (users, cron,
// scripts) before the general ones.
var zhHarms = []struct {
	kind harmKind
	re   *rx
}{
	{harmContainer, compile(`(?i)(起|拉起|启动|开|跑|新建|创建|建|停掉|停止|停|干掉|暂停|恢复|删掉|删除|删|销毁|扩|缩|再起)(一个|个|一下|下|几个|两个|\d+\s*个|掉)?[^，。,？?吗了的着哪几谁么]{0,16}?(容器|虚拟机|\bvms?\b|\bpods?\b|副本)|(把|将|给)[^，。,？?吗]{0,16}?(容器|虚拟机|副本)[^，。,？?吗]{0,8}?(起|拉起|启动|停|暂停|删|销毁|干掉|停掉|恢复|扩|缩)|(容器|虚拟机)[^，。,？?吗]{0,10}?(暂停|销毁|停掉|干掉|删掉)`)},
	{harmDatabase, compile(`(?i)(数据库|(测试|生产|线上|正式|业务|开发|预发|历史|老|旧|备份)库|数据表|\b(db|database|table)\b)[^，。,？?吗]{0,16}?(删|清空|清掉|drop|truncate|重建|迁移|回滚|导入)|(删|清空|drop|truncate|重建|导入|导进|灌)(掉|了|一下|下|到|进)?[^，。,？?吗]{0,12}?(数据库|(测试|生产|线上|正式|业务|开发|预发|历史|老|旧|备份)库|数据表)`)},
	{harmSetting, compile(`(加入|加到|加进|退出|脱离)[^，。,？?吗]{0,6}?(域控|AD\s*域|域)([^名]|$)|(对|校)(一下|下)?时([^间]|$)|(同步|校准|校正)(一下|下)?[^，。,？?吗]{0,4}?(时间|时钟)|(调|改|设|拨)[^，。,？?吗]{0,6}?(系统时间|服务器时间|时钟)|(系统时间|服务器时间|时钟|时间)[^，。,？?吗]{0,6}?(往前|往后)`)},
	{harmUser, compile(`(生成|新建|创建|配|加|换|重新生成|重置|发|签发|下发|颁发)(一个|个|一对|对|新的|一把|一下|下)*[^，。,？?吗]{0,8}?(ssh\s*key|密钥|秘钥|公钥|私钥|\bkeys?\b)|(加|添加|加入|拉|放)(到|进|入)[^，。,？?吗]{0,12}?组|组[^，。,？?吗]{0,4}?(加|添加|新增|拉|删|踢|移除)(一个|个|一下|下)?(成员|组员|人|用户)|(账号|账户|用户)[^，。,？?吗]{0,4}?(解个?锁|锁(上|定|住|一下))`)},
	{harmUser, compile(`(新建|创建|建一个|建个|新增|添加|加一个|加个|开一个|开个|开通|删掉|删除|删了)(一个|个)?((叫|名为)?[^的了哪吗？?][^了哪吗？?]{0,19}?)?(用户|账号|账户|用户组)|(加|添加|加入|放|写)(到|进|入)?.{0,12}?(sudoers?|sudo\s*组|wheel\s*组?|管理员组|authorized_keys|公钥)|(改|修改|重置|重设|设置|设|换)(一下|下|个)?.{0,10}?(密码|口令)|(锁定|解锁|禁用|停用)(一下|下)?.{0,10}?(用户|账号|账户)|(用户|账号|账户)(给|要|得|需要|必须)?(锁|禁|停|冻结|解锁)(了|掉|上|住|一下|起来|用)?|从[^，。,？?吗]{0,16}?(组|sudoers?|wheel)[^，。,？?吗]{0,4}?(踢|移除|移出|删|去掉|拿掉|剔除)`)},
	{harmCron, compile(`(新建|创建|添加|加|新增|建|删掉|删除|删了|改|修改)(一个|个|一条|条)?([^的了哪吗？?][^了哪吗？?]{0,11}?)?(定时任务|计划任务|crontab|cron)|(配|配置|设|设置|弄|搞|写)(一个|个|一条|条|上)(每\S{1,4})?(定时任务|计划任务|crontab|cron)`)},
	{harmAccess, compile(`(加|开|赋予|授予|提升|给予|给)(个|一下|上|一个)?[^了的哪吗？?]{0,10}?(sudo|root|管理员)\s*(权限|权|组)?|(权限|属主|属组|所有者)(都|给)?((改|设|调|换)(成|为|到)|放开|放宽|开放|打开)|(加|赋予?|授予?|开)(个)?(读写|执行|写|可执行)权限|(加上?|添加|赋予?|授予?|开通?|设置?)(一下|下|个|上)?[^，。,？?吗]{0,24}?(读写|写|执行|可执行)权限|(加上?|添加|设置?|改|配置?)(一下|下|个|上)?[^，。,？?吗]{0,24}?\b(ACL|acl)\b`)},
	{harmPackage, compile(`(加载|装载|卸载|卸掉|移除|禁用)(一下|下)?[^，。,？?吗]{0,16}?(内核)?模块|(内核)?模块(给)?(加载|装载|卸载|卸掉|移除)(一下|下|掉|了)`)},
	{harmRun, compile(`(运行|执行|跑|启动|source)(一下|下|个|一个)?\s*(这个|那个)?\s*["'“]?(\.{0,2}/[^\s"'”]+|[\w.-]+\.(sh|py|pl|rb|bash|php|js)\b)|(运行|执行|跑)(一下|下|个|一个)?[^，。,.!?！？\s]{0,8}?脚本|脚本[^，。,？?吗]{0,6}?(跑|运行|执行)(起来|一下|下|了吧)|(下载|拉取|拉下来|wget|curl)[^，。,？?吗]{0,60}?(然后|再|并且|并|之后|后)\s*(执行|运行|跑|安装)`)},
	{harmPackage, compile(`卸(载|了|掉|一下|下)|(把|将)[^，。,？?吗]{0,20}?(升|降)(到|至|级到)\s*[\dvV]|重装|装(个|一下|一个|上|好|下)|安装|升级|降级|(更新|打)(一下|下)?.{0,6}?(补丁|软件包|包|系统|内核)`)},
	{harmDisk, compile(`(盘|分区|卷)[^，。,？?吗]{0,6}?(初始化|格式化)|初始化(一下|下)?[^，。,？?吗]{0,8}?(盘|分区)|重新挂|挂成(只读|读写)|(加|扩|增加|扩大|调大)[^，。,？?吗]{0,12}?(swap|交换分区|交换文件)|\b(fsck|e2fsck|xfs_repair)\b[^，。,？?吗]{0,4}?(修|跑|执行|做|一下|下)|(加|添加|加入|扩)(到|进|入)?[^，。,？?吗]{0,12}?(卷组|逻辑卷|\bvg\w*)|(挂|加|插|接|上)(一块|块|个|一个|张)[^，。,？?吗]{0,6}?(盘|硬盘|磁盘|数据盘|云盘)|格式化|重新挂载|挂载(成|为)|\bremount\b|(新建|创建|建一个|建个|添加|加一个|加个|启用|开启|关闭|关掉|禁用)(一个|个|一下|下)?[^，。,？?吗]{0,12}?(swap\w*|交换分区|交换文件)|(swap\w*|交换分区|交换文件)[^，。,？?吗]{0,8}?(并|然后|再)(启用|开启|打开|关闭|关掉|禁用)|重新分区|分(个|一个)区|挂载(到|一下|上)|(把|将)[^，。,？?吗]{0,20}?挂(到|在|上)\s*/|挂到\s*/|挂载\s*\S{1,20}?\s*(到|在)\s*/|挂上|扩容|缩容`)},
	{harmNetwork, compile(`(让|允许|放)(外网|公网|外部|外面|所有人|任何人)[^，。,？?吗]{0,8}?(访问|连|进来)|(外网|公网|外部)[^，。,？?吗]{0,4}?(放开|开放|打开|暴露|放行)|(拉进|拉入|加入|加到|放进|加进)(黑名单|白名单)|(网卡|接口|\beth\d+|\bens\w+|\benp\w+|\bbond\d+)[^，。,？?吗]{0,10}?\b(down|up)\b|(开|打开|开放|放开|放行|关闭|关掉|关了|封|封禁|屏蔽|禁止)(掉|一下|下)?[^了的哪吗？?]{0,24}?(端口|防火墙|iptables|ip\b|IP\b)|(\b(ip|IP)\b|地址|\d+\.\d+\.\d+\.\d+)[^了的哪吗被？?]{0,8}?(封|封禁|拉黑|屏蔽|拦截)(掉|了|一下|下|住)?|(防火墙|iptables).{0,8}?(关|停|清|开|放行|改)|端口[^了的哪吗？?]{0,4}?(开放|打开|放开|放行|关闭|关掉|封掉?)`)},
	{harmProcess, compile(`杀(掉|了|死|一下|下)|(结束|终止)(掉|一下)|干掉|弄死|砍(掉|了|死)|搞死|踢(掉|了|出去|下线)|(结束|终止)(掉)?.{0,12}?进程|kill\s*(掉|了|一下)`)},
	{harmMachine, compile(`重启|重新启动|关机|断电|下电|停机(维护|检修|一下|下|吧)|(把|将)[^，。,？?吗]{0,12}?停机|(服务器|机器|主机|系统)(给)?(关|停)(掉|了|一下|下)`)},
	{harmService, compile(`(停|关)(掉|了|止|一下|下|一停|一关)|\b(mask|unmask|disable|enable|stop|start|drain|cordon|uncordon|scale|apply|rollout)\s*(一下|下|掉|了)|(把|将|给)[^，。,？?吗]{0,16}?下线|下线(掉|一下|吧)|禁用|禁(掉|了|一下)|(登录|自启|开机启动|功能|选项|selinux|SELinux|swap|服务)(给)?(打开|开启|启用|关闭|关掉|禁掉)|(禁止|取消|关闭).{0,6}?(开机|自启|自动启动)|(设置?成?|设为|让|使|配置成?|改成)[^，。,？?吗]{0,12}?(开机自启|开机启动|自启动?|自动启动)|(启动|开启|拉起)(一下|下)?[^了的哪吗？?]{0,24}?(服务|容器|进程)|摘(掉|除)?(一下|下)?[^，。,？?吗]{0,6}?(流量|节点)|(准备|先|要)下线|(帮我|帮忙|给我|赶紧|马上|把[^，。,？?吗]{0,12}?)(重新)?(拉起来|拉起)`)},
	{harmDelete, compile(`删|移除|清走|清退|扔(掉|了|光|干净)|丢(掉|光)|腾(出|点|些|一些|一点)[^，。,？?吗]{0,6}?(空间|地方|位置)|腾出来|(触发|手动|强制|执行|做|跑)(一次|一下|下)?[^，。,？?吗]{0,12}?(切割|轮转)|(弄|搞)(没|掉)|处理(掉|干净)|扬(了|掉)|清(理|除|空|掉|了|光|一下|下|一清|干净|零)|抹(掉|除)|擦除|截(断|掉)|强制(轮转|切割|滚动)|(轮转|切割)(一下|下)[^，。,？?吗]{0,20}?日志|日志[^，。,？?吗]{0,6}?(轮转|切割)(一下|下|掉|了)|(delete|remove|wipe|clean|clear|purge|rm|drop|truncate|prune|vacuum)\s*(一下|下|掉|了|到)`)},
	{harmCreate, compile(`(新建|创建|建立|建(?:一个|个|一下|下))(一个|个|一下|下)?[^，。,？?吗的]{0,16}?的?(文件夹|目录|空文件|文件|软链接|链接)|\b(mkdir|touch)\s*(一下|下)`)},
	{harmMove, compile(`迁(到|至|走)|迁移(到|至)|(备份|拷贝?|复制|同步|导出|dump)(一份|一下|下)?[^，。,？?吗]{0,24}?(到|至|进)\s*[/~]|(把|将)[^，。,？?吗]{0,24}?(备份|拷贝?|复制)(一份|一下|下)?(到|至|进)|挪(到|走|一下|下)|移(到|动|走)|(拷|拷贝|复制)(到|过去)|重命名|改名`)},
	{harmEdit, compile(`(调大|调小|调高|调低|加大|减小|改大|改小)(一下|下|点|一点|些)?|改(成|为|一下|下|掉|个|指向)|去(掉|除)|(设置|设|修改|更改|调整|改)(一下|下)?[^，。,？?吗]{0,10}?(为|成)\s*[^了多什啥几么\s？?]|(修改|更改|调整)(一下|下)?(系统)?(时间|时区|主机名)|切换(一下|下)?[^，。,？?吗]{0,8}?(语言环境|locale|时区|分支|镜像源|软件源|运行级别|内核)|(在|往)[^，。,？?吗]{0,30}?(里|中|里面|末尾|后面)(加|添加|追加|写|插)(一个|一行|一条|个|上|入|进)|(修改|更改|调整)(一下|下|成|为)|(调|设|设置)(成|为|到)\s*[^了多什啥几\s？?]|(调|加|减|扩|提高|降低|调整|改)(到|至)\s*\d|替换|换(成|掉|一下|个新)|覆盖|写(入|进|到)|追加|加(一行|一条|个配置|一句)|注释掉|取消注释|(uninstall|install|upgrade|reboot|restart|kill|chmod|chown)\s*(一下|下|掉|了)|\b(gzip|gunzip|bzip2|xz|zip|compress)\s*(一下|下|掉|了)|(压缩|解压)(一下|下|掉|了)`)},
}

// chineseHarm finds a Chinese request for a destructive action. A
// question about documents or procedures ("值班手册里清理日志的步骤")
// asks for none.
func chineseHarm(text string) refusal {
	if !hasHan(text) || reDocQuestion.MatchString(text) || reDocWord.MatchString(names(text)) {
		return refusal{}
	}
	for _, h := range zhHarms {
		ms := h.re.FindAllStringIndex(text, maxZhMatches)
		for _, m := range ms {
			if !askedAbout(text, m[0], m[1]) {
				return refuseHarm(h.kind, strings.TrimSpace(text[m[0]:m[1]]))
			}
		}
		if len(ms) == maxZhMatches {
			// Matches past the cap are not read: they count as requests.
			if m := h.re.FindStringIndex(text[ms[len(ms)-1][1]:]); m != nil {
				at := ms[len(ms)-1][1]
				return refuseHarm(h.kind, strings.TrimSpace(text[at+m[0]:at+m[1]]))
			}
		}
	}
	return refusal{}
}

// maxZhMatches bounds the matches of one kind looked at, so the cost
// stays linear in the message's length; one more match past them is
// refused unread (fail closed).
const maxZhMatches = 8

// Chinese questions and requests.
var (
	// reZhAsk asks what is or was: a question word or particle.
	reZhAsk = compile(`哪些|哪个|哪里|哪儿|在哪|什么|多少|谁|为什么|为啥|怎么样|是否|有没有|意思|注意|区别|吗|呢|么|嘛|[？?]`)
	// reZhWonder before the words asks about them: "我想知道哪些配置项要换掉了".
	reZhWonder = compile(`想知道|想了解|知道|了解一下`)
	// reZhRequest asks someone to act.
	reZhRequest = compile(`帮|麻烦|请|给我|能不能|能否|可以|可否|劳驾|辛苦|顺手|拜托|把|将|替我|你去|吧`)
)

// askedAbout reports whether the destructive words at text[i:j] are
// asked about, not asked for: their clause asks (a question word after
// them, a question particle, or "想知道" before them: "安装了哪些包",
// "删除的日志能恢复吗", "重启之后 nginx 起来了吗") and asks no one to act ("能不能帮我删掉 …吗"
// does). "哪个进程占内存最多 杀了它" asks for the kill.
func askedAbout(text string, i, j int) bool {
	start := 0
	if k := strings.LastIndexAny(text[:i], "，。,.!！；;\n"); k >= 0 {
		_, size := utf8.DecodeRuneInString(text[k:])
		start = k + size
	}
	end := len(text)
	if k := strings.IndexAny(text[j:], "，。,.!！；;\n"); k >= 0 {
		end = j + k
	}
	return (reZhAsk.MatchString(text[j:end]) || reZhWonder.MatchString(text[start:i])) &&
		!reZhRequest.MatchString(reWhoDid.ReplaceAllString(text[start:end], "$1")) // "昨天谁把 nginx 重启了？"
}

// zhQuestion reports whether Chinese text asks and asks no one to act:
// its destructive words are talked about ("谁有 sudo 权限").
func zhQuestion(text string) bool {
	return hasHan(text) && reZhAsk.MatchString(text) && !reZhRequest.MatchString(reWhoDid.ReplaceAllString(text, "$1"))
}

// hasHan reports whether s has a Chinese character.
func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// Shell lines that change the system.
var (
	// reRedirect writes into a file: "> /etc/hosts", "echo x >> ~/.bashrc".
	reRedirect = compile(`(?:^|[^<>=\-])>>?\s*["']?(?:/|~|\.{1,2}/|\$\w)|\btee\s+(?:-a\s+)?["']?[/~.]`)
	// reDBHarm is a statement that drops or empties a database, through
	// any client: "mysql -e 'drop database x'", "redis-cli flushall",
	// "db.dropDatabase()".
	reDBHarm = compile(`(?i)\bdrop\s+(?:database|table|schema|keyspace)\b|\btruncate\s+table\b|\bflush(?:all|db)\b|\bdropDatabase\s*\(|\.drop\(\s*\)|\bdelete\s+from\s+[\w."]+\s*(?:;|where\b|$|["'])`)
	// reScriptLine is a line that runs a program by its path: "./deploy.sh",
	// "sudo /opt/x.py".
	reScriptLine = compile(`^\s*(?:sudo\s+)?(?:\.{1,2}/\S+|/\S+\.(?:sh|py|pl|rb|bash|php|js)\b)`)
	// rePipeShell pipes into a shell or interpreter.
	rePipeShell = compile(`(?i)\|\s*(?:sudo\s+)?(?:sh|bash|zsh|dash|ksh|python[23]?|perl|ruby|node|xargs|source)\b`)
	// reExecLead is what may come before a command line's program.
	reExecLead = compile(`(?i)^\s*(?:[$#]\s*|(?:请|帮我|麻烦)?(?:执行|运行|跑)(?:一下|下)?\s*|(?:please\s+)?(?:run|execute|exec)\s+)?(?:sudo\s+(?:-\S+\s+)*)?([A-Za-z][\w.+-]*)`)
)

// shellKinds are programs that change the system, by what they change:
// a command line starting with one is refused whatever its arguments.
var shellKinds = func() map[string]harmKind {
	m := map[string]harmKind{}
	for k, names := range map[harmKind]string{
		harmDelete:  "rm rmdir unlink shred wipefs srm logrotate dropdb dropuser",
		harmProcess: "kill pkill killall xkill",
		harmService: "service",
		harmMachine: "reboot shutdown poweroff halt init telinit kexec",
		harmPackage: "modprobe insmod rmmod apt apt-get aptitude yum dnf zypper pacman apk snap brew pip pip3 npm gem cargo dpkg rpm",
		harmEdit:    "sed tee truncate sysctl hostnamectl timedatectl update-alternatives sudoedit",
		harmCreate:  "mkdir touch ln mktemp install",
		harmAccess:  "chmod chown chgrp chattr setfacl su doas pkexec",
		harmUser:    "visudo useradd userdel usermod adduser deluser addgroup delgroup groupadd groupdel groupmod gpasswd passwd chpasswd chage chsh chfn ssh-keygen ssh-copy-id",
		harmDisk:    "mkfs mke2fs mkswap swapon swapoff fdisk sfdisk gdisk sgdisk parted dd mount umount resize2fs lvextend lvcreate lvremove pvcreate vgcreate fsck",
		harmNetwork: "iptables ip6tables nft ufw firewall-cmd ifdown ifup route",
		harmMove:    "mv cp rsync scp",
		harmRun:     "bash sh zsh dash ksh python python2 python3 perl ruby node php nohup at batch source eval exec",
		harmCron:    "crontab",
	} {
		for _, n := range strings.Fields(names) {
			m[n] = k
		}
	}
	return m
}()

// wordPrograms are programs of shellKinds that are also English words: a
// line starting with one is a command line only if what follows looks
// like options and paths, or nothing ("kill -9 1", "mount /dev/sdb1").
var wordPrograms = words(`logrotate service halt init route at batch source eval exec install touch sed mount kill snap`)

// changeSubcommands are the subcommands that make a program of
// wordPrograms change the system: "route add …", "service nginx stop"
// reads its unit first, so only route's are listed.
var changeSubcommands = map[string]map[string]bool{"route": words(`add del delete flush change replace append prepend`)}

// asciiFields are the fields of s up to its first non-ASCII rune: a
// command line's arguments before the prose after it ("crontab -l 看下").
func asciiFields(s string) []string {
	if i := strings.IndexFunc(s, func(r rune) bool { return r > 0x7f }); i >= 0 {
		s = s[:i]
	}
	return strings.Fields(s)
}

// shellHarm refuses a shell line that changes the system: a program of
// shellKinds the tiers do not run first (after a prompt, sudo or
// "执行"/"run"), a program run by its path, redirection into a file, or
// piping into a shell.
func (c *commands) shellHarm(text string) refusal {
	if r := c.leadHarm(text); !r.none() {
		return r
	}
	// "cd /opt/app && git clean -fdx", "df -h; rm -f /var/log/*.1": every
	// command of a chain is read as a line of its own.
	if reShellMeta.MatchString(text) {
		locs := reChainSplit.FindAllStringIndex(text, maxChainSegments)
		for i, loc := range locs {
			end := len(text)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			if r := c.leadHarm(text[loc[1]:end]); !r.none() {
				return r
			}
		}
	}
	if w := reVCSHarm.FindString(text); w != "" && !isQuestion(text) && !zhQuestion(text) && !asksToSee(text) {
		return refuseHarm(harmDelete, strings.TrimSpace(w))
	}
	if r := toolHarm(text); !r.none() {
		return r
	}
	if w := reDBHarm.FindString(text); w != "" && !isQuestion(text) {
		return refuseHarm(harmDelete, strings.TrimSpace(w))
	}
	if w := reScriptLine.FindString(text); w != "" {
		return refuseHarm(harmRun, strings.TrimSpace(w))
	}
	if w := reRedirect.FindString(text); w != "" {
		return refuseHarm(harmShell, strings.TrimSpace(w))
	}
	if w := rePipeShell.FindString(text); w != "" {
		return refuseHarm(harmRun, strings.TrimSpace(w))
	}
	return refusal{}
}

// leadHarm refuses a line whose first program (after a prompt, sudo
// or "执行"/"run") changes the system, or whose options do.
func (c *commands) leadHarm(text string) refusal {
	m := reExecLead.FindStringSubmatch(text)
	if m == nil {
		return refusal{}
	}
	if r := optionHarm(strings.Fields(text[len(m[0]):])); !r.none() {
		return r
	}
	name := strings.ToLower(m[1])
	if base, _, ok := strings.Cut(name, "."); ok && (base == "mkfs" || base == "mke2fs") {
		name = base
	}
	k, ok := shellKinds[name]
	if !ok {
		return refusal{}
	}
	rest := strings.TrimSpace(text[len(m[0]):])
	args := asciiFields(rest)
	switch {
	case c.runnable(name, args):
	case wordPrograms[name] && len(args) > 0 && changeSubcommands[name][strings.ToLower(args[0])]:
		return refuseHarm(k, name+" "+args[0]) // "route add default gw …"
	case wordPrograms[name] && !argsLike(rest):
	case len(args) == 0 && rest != "" && zhQuestion(rest):
		// "crontab 定时任务变更要走什么手续": the program is the topic of
		// a question, not a command line.
	case readOnlyForm(append([]string{name}, args...)):
		return c.refuseCommand(append([]string{name}, args...)) // "route -n": not offered
	default:
		return refuseHarm(k, strings.TrimSpace(m[0]))
	}
	return refusal{}
}

var (
	// reChainSplit cuts a shell line into its commands.
	reChainSplit = compile(`&&|\|\||[;|&]|\$\(|` + "`")
	// reVCSHarm is a git command that discards work: "git clean -fdx",
	// "git -C /srv/deploy reset --hard", "git push --force".
	reVCSHarm = compile(`(?i)\bgit\s+(?:-C\s+\S+\s+)?(?:clean\s+-\w*[fdx]|reset\s+--hard|push\s+(?:-f\b|--force)|checkout\s+(?:-f\b|--\s)|branch\s+-D\b|stash\s+(?:drop|clear)\b|rm\s)`)
)

// maxChainSegments bounds the commands of a chain read one by one, each
// up to the next operator, so the cost stays linear; the last one read
// runs to the end of the text, and the tiers refuse any chain anyway.
const maxChainSegments = 64

// harmOptions are options that make a program the tiers run change the
// system: journalctl --vacuum-size deletes journals, find -delete and
// -exec delete or run what they find.
var harmOptions = map[string]harmKind{"--vacuum-size": harmDelete, "--vacuum-time": harmDelete, "--vacuum-files": harmDelete,
	"--rotate": harmDelete, "-delete": harmDelete, "-exec": harmRun, "-execdir": harmRun, "-ok": harmRun, "-okdir": harmRun}

// optionHarm refuses a command line's arguments that change the system
// whatever the program ("journalctl --vacuum-size=100M").
func optionHarm(args []string) refusal {
	for _, a := range args {
		name, _, _ := strings.Cut(a, "=")
		if k, ok := harmOptions[name]; ok {
			return refuseHarm(k, a)
		}
	}
	return refusal{}
}

// argsLike reports whether s is nothing, or starts with an option, a
// path, a number or a quoted string: arguments, not prose.
func argsLike(s string) bool {
	if s == "" {
		return true
	}
	switch s[0] {
	case '-', '/', '~', '.', '"', '\'', '$':
		return true
	}
	return s[0] >= '0' && s[0] <= '9'
}
