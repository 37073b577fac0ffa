package builtin

import "strings"

// The lifecycle of containers, virtual machines and snapshots: programs
// that start, stop, create or destroy them ("docker run …", "virsh
// destroy vm-1", "docker compose up -d"), and snapshots taken or
// restored ("take an LVM snapshot of the root volume", "变更前先打个快照",
// "还原到昨天那个快照"). The ask tier's "docker restart NAME" and the
// read-only "docker ps", "docker logs", "docker exec web cat …" and a
// snapshot of a reading ("a snapshot of the memory usage") are not
// among them.
var (
	// reLifeTool is a program's subcommand that changes a container or
	// a virtual machine's state.
	reLifeTool = compile(`(?i)\b(?:docker|podman|nerdctl)\s+(?:container\s+|image\s+|volume\s+|network\s+|system\s+)?(?:run|start|stop|rm|rmi|kill|pause|unpause|create|commit|update|rename|prune|swarm|build|pull|push|tag|load|import)\b` +
		`|\b(?:docker-compose|docker\s+compose|podman-compose)\s+(?:-\S+\s+(?:\S+\s+)?)*(?:up|down|stop|start|rm|kill|pause|unpause|scale|create|run|pull|build)\b` +
		`|\bvirsh\s+(?:start|destroy|shutdown|reboot|reset|undefine|define|create|suspend|resume|autostart|setmem|setvcpus|attach-\w+|detach-\w+|snapshot-(?:create|revert|delete)\w*)\b` +
		`|\bvagrant\s+(?:up|destroy|halt|reload|provision|suspend|resume)\b|\blxc\s+(?:launch|start|stop|delete|restart|exec|snapshot|restore)\b` +
		`|\bqm\s+(?:start|stop|shutdown|destroy|reset|snapshot|rollback|create|clone|migrate)\b|\bVBoxManage\s+(?:startvm|controlvm|unregistervm|snapshot)\b`)
	// reSnapshot takes, restores or deletes a snapshot.
	reSnapshot = compile(`(?i)\b(?:take|create|make|cut|grab|do)\s+(?:an?\s+|the\s+|another\s+|new\s+|fresh\s+)*(?:[\w-]+\s+){0,2}snapshots?\b` +
		`|\b(?:revert|restore|roll\s*back|rollback)\b[^.?!\n]{0,40}?\b(?:snapshot|checkpoint|last\s+night'?s\s+state|previous\s+state)\b` +
		`|^\s*(?:please\s+|pls\s+)?snapshot\s+(?:the|this|that|my|our|a|an|all)?\s*\w` +
		`|(?:打|做|拍|建|创建|留|备)(?:个|一个|一份|一下|下)?[^，。,？?吗]{0,6}?快照|(?:还原|恢复|回滚|回退|退回)(?:到)?[^，。,？?吗]{0,12}?快照|快照[^，。,？?吗]{0,6}?(?:还原|恢复|回滚|回退|删)`)
	// reLifeExec runs a program in a container: "docker exec -it web sh
	// -c …"; group 1 is the program.
	reLifeExec = compile(`(?i)\b(?:docker|podman|nerdctl|kubectl)\s+exec\s+(?:-\S+\s+)*(?:[\w.-]+\s+)(?:--\s+)?([\w./-]+)`)
	// reSnapshotReading is a snapshot of a reading, not of a machine's
	// state: "a snapshot of the current memory usage", "当前进程的快照".
	reSnapshotReading = compile(`(?i)snapshots?\s+of\s+(?:the\s+|my\s+|our\s+)?(?:current\s+|quick\s+)?(?:memory|cpu|load|process|processes|usage|stats|metrics|network|connections|top|disk\s+usage)\b` +
		`|\b(?:memory|cpu|load|process|usage|stats|metrics)\s+snapshots?\b|(?:内存|进程|负载|占用|使用率|cpu|状态|连接)[^，。,]{0,4}快照`)
	// reLifeVM names a virtual machine or a container: a snapshot of it
	// changes it; else the snapshot is a disk's.
	reLifeVM = compile(`(?i)\b(?:vm|vms|virsh|qm|lxc|vagrant|container|containers|guest|instance)\b|虚拟机|容器|实例|vm-`)
)

// readOnlyInContainer are programs docker exec runs to read.
var readOnlyInContainer = words(`cat ls ps tail head grep egrep less more df du free env printenv whoami id pwd uname date uptime top
	hostname stat find wc which ss netstat ip ping nslookup dig curl wget`)

// lifeHarm refuses a change to a container's, a virtual machine's or a
// snapshot's state, unless the text asks about it ("what does docker
// compose down do?", "有哪些快照") or only asks to see something.
func lifeHarm(text string) refusal {
	k, w := harmContainer, reLifeTool.FindString(text)
	if m := reLifeExec.FindStringSubmatch(text); w == "" && m != nil && !readOnlyInContainer[strings.ToLower(m[1])] {
		w = m[0] // "docker exec web rm -rf /tmp/cache"; "docker exec web cat /etc/hosts" reads
	}
	if w == "" && !reSnapshotReading.MatchString(text) {
		if w = reSnapshot.FindString(text); w != "" && !reLifeVM.MatchString(text) {
			k = harmDisk
		}
	}
	if w == "" || isQuestion(text) || zhQuestion(text) || asksToSee(text) {
		return refusal{}
	}
	return refuseHarm(k, strings.TrimSpace(w))
}
