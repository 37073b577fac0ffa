package builtin

// harmKind is what a destructive or system-changing request would
// change: the safety stage names it in the refusal, with what the
// planner can do instead.
type harmKind int

const (
	harmDelete harmKind = iota
	harmProcess
	harmService
	harmMachine
	harmPackage
	harmEdit
	harmCreate
	harmAccess
	harmUser
	harmDisk
	harmNetwork
	harmMove
	harmRun
	harmCron
	harmShell
	harmContainer
	harmDatabase
	harmSetting
)

// harmTexts say, for each kind, what was refused and why, then what the
// planner can do instead, in English and Chinese.
var harmTexts = [...]struct{ what, whatZh, instead, insteadZh string }{
	harmDelete: {"deleting, clearing or emptying files, logs or caches", "删除、清理或清空文件、日志或缓存",
		"I can list a directory (ls) or show how full the disks are (df)", "我可以列出目录内容（ls）或查看磁盘使用情况（df）"},
	harmProcess: {"killing or terminating processes", "结束或杀掉进程",
		"I can show the running processes and what they use (ps)", "我可以列出正在运行的进程及其资源占用（ps）"},
	harmService: {"stopping, starting, disabling or enabling services", "停止、启动、禁用或启用服务",
		"I can show a service's status (systemctl status, asked first)", "我可以查看服务状态（systemctl status，执行前会先请你确认）"},
	harmMachine: {"rebooting, shutting down or powering off the machine", "重启、关闭或断电整台机器",
		"I can show the system's CPU, memory and disk status", "我可以查看系统的 CPU、内存和磁盘状态"},
	harmPackage: {"installing, removing, upgrading or downgrading software", "安装、卸载、升级或降级软件",
		"I can check whether a program is running (ps)", "我可以查看某个程序是否在运行（ps）"},
	harmEdit: {"editing, overwriting or writing to files and configuration", "编辑、覆盖或写入文件和配置",
		"I can show the file's current content (cat)", "我可以显示文件当前的内容（cat）"},
	harmCreate: {"creating files, directories, links or other system objects", "创建文件、目录、链接等系统对象",
		"I can list what exists (ls)", "我可以列出现有的内容（ls）"},
	harmAccess: {"changing permissions, ownership or privileges (sudo, root)", "修改权限、属主或特权（sudo、root）",
		"I can show a path's permissions and owner (ls -la)", "我可以查看路径的权限和属主（ls -la）"},
	harmUser: {"creating, changing or removing users, groups, passwords or keys", "创建、修改或删除用户、用户组、密码或密钥",
		"I can tell which user I run as (whoami)", "我可以查看当前运行的用户（whoami）"},
	harmDisk: {"formatting, partitioning, mounting or resizing disks", "格式化、分区、挂载或调整磁盘",
		"I can show the file systems and their usage (df)", "我可以查看文件系统及其使用情况（df）"},
	harmNetwork: {"changing the firewall, ports or network settings", "修改防火墙、端口或网络设置",
		"I can show the listening ports (ss, asked first)", "我可以查看正在监听的端口（ss，执行前会先请你确认）"},
	harmMove: {"moving, copying or renaming files", "移动、复制或重命名文件",
		"I can list the files (ls)", "我可以列出这些文件（ls）"},
	harmRun: {"running scripts or programs I cannot inspect", "运行我无法检查的脚本或程序",
		"I can show the script's content (cat) so you can review it", "我可以显示脚本内容（cat）供你检查"},
	harmCron: {"adding, changing or removing scheduled jobs (cron)", "添加、修改或删除定时任务（cron）",
		"I can search the documents for how the jobs are set up", "我可以在文档中查找定时任务的配置方法"},
	harmShell: {"shell lines that change the system (redirection into files, piping into a shell, destructive commands)", "会修改系统的 shell 命令（重定向写入文件、通过管道交给 shell、破坏性命令）",
		"I only run the read-only commands listed below", "我只运行下面列出的只读命令"},
	harmContainer: {"starting, stopping, creating, pausing or removing containers or virtual machines", "启动、停止、创建、暂停或删除容器或虚拟机",
		"I can list the running containers (docker ps, asked first)", "我可以列出正在运行的容器（docker ps，执行前会先请你确认）"},
	harmDatabase: {"changing or deleting databases, tables or their data", "修改或删除数据库、表或其中的数据",
		"I can search the documents for the database's procedures", "我可以在文档中查找数据库的操作流程"},
	harmSetting: {"changing the clock, time zone, hostname, locale, domain membership or kernel settings", "修改系统时间、时区、主机名、语言环境、域成员身份或内核参数",
		"I can show the system's CPU, memory and disk status", "我可以查看系统的 CPU、内存和磁盘状态"},
}

// refuseHarm is the refusal of a request of kind k, quoting the words
// that asked for it.
func refuseHarm(k harmKind, words string) refusal {
	t := harmTexts[k]
	return refusal{
		en: t.what + " (\u201c" + words + "\u201d) is not allowed: it would change the system; " + t.instead + " instead",
		zh: "不允许" + t.whatZh + "（\u201c" + words + "\u201d）：这会修改系统；" + t.insteadZh,
	}
}
