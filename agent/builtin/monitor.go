package builtin

import (
	"strings"
)

var (
	reCPU    = compile(`(?i)cpu|处理器|负载|load average|\bload\b|overload|核数|核心|(几|多少)个?核|\bcores?\b|\bprocessor\b|\bbusy\b`)
	reMem    = compile(`(?i)内存|交换分区|交换空间|memory|\bram\b|\bmem\b|swap|\boom\b`)
	reDisk   = compile(`(?i)磁盘|硬盘|盘符|(数据|系统|根|云)盘|盘.{0,2}(满|空间|容量)|disk|存储空间|存储使用|剩余空间|(剩|还有|够|不足|满|多少).{0,3}空间|空间.{0,3}(剩|还有|够|不足|满|多少)|storage|free space|space left|(?:^|[^换])分区|存储(用了|还剩|够|满|多少)|hard ?(drive|disk)s?|\bhdd\b|\bssd\b|\bdrives? (is |are )?(filling|full|almost full)|filling up|\b(still )?(have|got) (enough )?room\b|\benough (room|space)\b|\broom (left )?for (a |an |the )?\d+\s*(gb|tb|mb|g|t)\b`)
	reAllRes = compile(`(?i)资源([^文]|$)|系统状态|运行状态|(跑|运行)得?(好|很|有点|太|这么)?慢|卡不卡|慢不慢|性能|健康|巡检|(服务器|机器|主机|系统|服务)(现在|目前|当前)?的?(整体|总体|整个)?(运行)?(状态|状况|情况|概况)|(服务器|机器|主机|系统)(现在|目前|当前)?(怎么样|咋样|如何)|整体情况|总体情况|(跑|扛|撑|顶)(得|不)(动|住)|吃得消|(机器|服务器|主机|系统|电脑)(是不是|是否|怎么|咋|为什么|为啥)?(好|很|有点|特别|太|比较|这么|那么)?(卡|慢)|运行了?多(久|长时间)|开机了?多(久|长时间)|resource|\bhealth(y)?\b|system (status|usage)|server status|\b(stats|statistics|metrics|vitals)\b|how('s|s| is) the (server|system|machine|host|box)|\bstatus of the (host|server|machine|box|system)\b|usage overview|uptime|been up\b|\bsince (the )?(last )?(re)?boot(ed)?\b|\blast (re)?boot(ed)?\b|\b(re)?booted\b|上次重启|上次开机|多久没(有)?重启|重启(过|以来)|\b(slow|sluggish|laggy)\b|(机器|服务器|主机|系统|电脑)(最近|现在|目前|今天|这会儿?|又|有点|一直|老是|总是|好像|感觉){1,3}(很|有点|特别|太|比较|挺)?(卡|慢|顿)|\b(box|server|machine|host|system)\b.{0,24}\b(struggling|strained|choking|crawling|overloaded|under (heavy )?load)\b`)
)

// monitorIntent is a question about CPU, memory, disk or the machine as a
// whole; several resources, or the machine, mean "all".
func monitorIntent(text string) (Intent, bool) {
	lower := strings.ToLower(text)
	cpu, mem, disk := reCPU.MatchString(lower), reMem.MatchString(lower), reDisk.MatchString(lower)
	all := reAllRes.MatchString(lower)
	n := 0
	for _, b := range []bool{cpu, mem, disk} {
		if b {
			n++
		}
	}
	metric := ""
	switch {
	case all || n > 1:
		metric = "all"
	case cpu:
		metric = "cpu"
	case mem:
		metric = "memory"
	case disk:
		metric = "disk"
	default:
		return Intent{}, false
	}
	return Intent{Kind: "monitor", Tool: "sys_monitor", Args: map[string]any{"metric": metric}}, true
}
