package builtin

import "strings"

// The backstop: a message the learned stage answers with no tool is
// refused when it asks for an action of change on an object of the
// machine. It is built from three parts: the request's shape (an
// imperative, a wish or need, a polite or capability question "can you
// …"/"能不能帮我 …", a request relayed, conditional or scheduled), the
// object's class (a path or file, a service, a package, a user or key,
// a disk or mount, a network thing, a container or VM, a cron job, a
// certificate, a database, the kernel, the clock or hostname, a
// setting: backstopObjects) and a verb that means change: one of the
// destructive verbs (harmverbs.go) with its particle and the object it
// needs, or of moreChangeVerbs; in Chinese one of zhChangeVerbs with a
// request's mark (reZhRequestMark). A verb on no list is no change.
// Greetings, help, knowledge and how-to questions, out-of-reach
// requests (a poem, a joke, a translation), the plans and reports
// planAside reads (plan.go) ask for no change and are left alone.

// backstop is the refusal of a request of change that no earlier rule
// read, or the zero refusal. It runs only where the learned stage gave
// no tool, so it can turn "no tool" into a refusal, never a call into
// one and never one into a call.
func backstop(text string) refusal {
	t := planAside(procedureAside(inert(reModalPassive.ReplaceAllString(text, "$1"))))
	t = reQuotedText.ReplaceAllString(t, " ")
	if strings.TrimSpace(t) == "" || reDocQuestion.MatchString(t) || reDocWord.MatchString(names(t)) ||
		reHelp.MatchString(t) || reOutOfReach.MatchString(t) {
		return refusal{}
	}
	if r := englishChange(t); !r.none() {
		return r
	}
	return chineseChange(t)
}

// reQuotedText is a quoted string: what it says is quoted, not asked.
// A single quote opens and closes only beside a space or punctuation,
// so apostrophes ("I'd like …, it's …") quote nothing.
var reQuotedText = compile(`"[^"\n]{0,200}"|“[^”\n]{0,200}”|「[^」\n]{0,200}」|(?:^|\s)'[^'\n]{2,200}'(?:$|[\s,.;:!?])`)

// reOutOfReach asks for something no tool does: a poem, a joke, a
// story, a translation, the weather.
var reOutOfReach = compile(`(?i)\b(poem|poems|joke|jokes|story|stories|haiku|song|limerick|translate|translation|weather|recipe)\b|诗|笑话|故事|段子|翻译|天气|菜谱|歌词`)

// Object classes, by the refusal kind that names them. The first class
// found, in this order, names the refusal.
var backstopObjects = []struct {
	kind  harmKind
	words map[string]bool
}{
	{harmContainer, words(`container containers vm vms image images snapshot snapshots pod pods replica replicas compose stack stacks kvm guest guests`)},
	{harmDatabase, words(`database databases db dbs table tables schema schemas collection collections`)},
	{harmUser, words(`user users account accounts group groups password passwords passwd key keys keypair keypairs ssh-key sshkey pubkey
		login logins sudoer sudoers authorized_keys credential credentials`)},
	{harmSetting, words(`domain clock time timezone tz locale hostname ntp sysctl sysctls kernel`)},
	{harmDisk, words(`disk disks drive drives partition partitions volume volumes filesystem filesystems fs mount mounts mountpoint swap swapfile raid lvm lv vg pv nvme ssd hdd lun`)},
	{harmNetwork, words(`firewall port ports ip ips address addresses route routes gateway nic nics interface interfaces dns nameserver nameservers
		resolver vlan bridge iptables ufw nftables subnet mtu proxy vpn tunnel traffic`)},
	{harmCron, words(`cron crontab cronjob cronjobs timer timers job jobs`)},
	{harmEdit, words(`cert certs certificate certificates tls ssl`)},
	{harmService, harmServiceNames},
	{harmPackage, words(`package packages version versions module modules driver drivers library libraries dependency dependencies repo repos`)},
	{harmEdit, words(`config configs configuration setting settings parameter parameters param params option options variable variables env limit limits ulimit`)},
	{harmMachine, words(`server servers machine machines box boxes host hosts node nodes instance instances`)},
	{harmEdit, words(`file files dir dirs directory directories folder folders log logs logfile logfiles cache caches backup backups data archive tarball`)},
}

// harmServiceNames are the words of a service: the nouns and the
// daemons' names.
var harmServiceNames = words(`service services daemon daemons unit units nginx apache apache2 httpd mysql mysqld mariadb postgres postgresql
	redis docker dockerd kafka zookeeper sshd cron crond rabbitmq mongodb mongod elasticsearch memcached haproxy php-fpm tomcat jenkins
	etcd kubelet containerd grafana prometheus celery supervisor supervisord chronyd ntpd`)

// reAddress is an IP address or network, a network object.
var reAddress = compile(`^\d{1,3}(\.\d{1,3}){3}(/\d{1,2})?$`)

// objectKind is the class of the object word w names, ok false when it
// names none: a path, an address, a unit file or a word of
// backstopObjects.
func objectKind(w string) (harmKind, bool) {
	w = strings.Trim(w, ".,;:!?")
	switch {
	case reAddress.MatchString(w):
		return harmNetwork, true
	case strings.HasPrefix(w, "/dev/"):
		return harmDisk, true
	case strings.HasSuffix(w, ".service") || strings.HasSuffix(w, ".timer") || strings.HasSuffix(w, ".socket"):
		return harmService, true
	}
	for _, o := range backstopObjects {
		if o.words[w] {
			return o.kind, true
		}
	}
	if isPathWord(w) && len(w) > 1 && !strings.Contains(w, "://") {
		return harmEdit, true
	}
	return 0, false
}

// English words of the backstop.
var (
	// moreChangeVerbs are verbs of change the destructive reading
	// (harmverbs.go) does not list, by meaning: joining and leaving,
	// syncing and tuning, making keys and certificates, handing out and
	// taking back, migrating, seeding and importing, publishing and
	// releasing, marking and quarantining.
	moreChangeVerbs = words(`join enroll unenroll leave unjoin sync resync synchronize tune retune generate issue reissue sign resign
		rotate migrate seed import reimport assign reassign unassign bind unbind rebind allocate deallocate reserve register
		unregister deregister evict redeploy rollout publish unpublish promote demote failover rebalance reset activate deactivate
		apply commit push pin unpin hold unhold quarantine isolate encrypt decrypt flash defrag relabel mkdir touch link symlink
		enlarge expand downsize rename renumber readdress reroute rewire reclaim provision reprovision regenerate recreate rebuild
		reindex reimage reinstall unban rsync scp add expunge axe toss ditch clobber sunset junk obliterate redo`)
	// particleChangeVerbs change with their particle within four words
	// ("fail over to the standby", "kick dave off the box", "switch the
	// timezone to UTC"); alone they may be a look ("switch tabs").
	particleChangeVerbs = map[string]map[string]bool{
		"fail": words(`over`), "kick": words(`off out`), "log": words(`out off`), "cut": words(`off over`), "switch": words(`to over`),
		"hand": words(`over`), "sign": words(`out off`), "roll": words(`out back`), "spin": words(`up down`),
		"power": words(`cycle on off`), "pull": words(`plug`), "turn": words(`on off`), "zero": words(`out`), "blank": words(`out`),
		"dial": words(`down up`), "crank": words(`up down`), "knock": words(`down out`), "take": words(`care down offline`),
	}
	// changedStates after "ensure … is" ask for a change: "ensure /tmp
	// is empty", "ensure root login is disabled"; "ensure nginx is up"
	// asks to check.
	changedStates = words(`empty gone removed deleted disabled enabled stopped started installed uninstalled blocked open closed
		mounted unmounted locked unlocked off on cleared restarted updated upgraded`)
	// lookNouns after an article, or an article and a word, are a look:
	// "take a peek at nginx", "set up a quick view of disk io".
	lookNouns = words(`peek glance gander squint look-see eye look check view read`)
	// topicWords end a verb's object: what comes after is what a text is
	// about ("a question about the firewall").
	topicWords = words(`about regarding concerning re like than as`)
	// artifacts are texts written for the user: a verb that makes one
	// ("write a report on the disks") changes nothing.
	artifacts = words(`poem joke story email mail message letter summary report note notes explanation example examples snippet template
		regex regexp expression command commands one-liner oneliner doc docs article tweet song answer draft outline plan checklist
		list table-of-contents description sentence paragraph word words quiz chart graph diagram`)
	// runVerbs with a pronoun for their object run what the message
	// named before, when that is a program (programWords): "write a
	// script that cleans /tmp and run it".
	runVerbs       = words(`run execute exec launch invoke start`)
	pronounObjects = words(`it this that them these those`)
	programWords   = words(`script scripts program programs code command commands one-liner oneliner binary executable`)
	// timeWords may open a scheduled request: "tonight spin up …".
	timeWords = words(`tonight tomorrow today later soon eventually asap first morning afternoon evening midnight noon weekend tmrw tmr`)
	// pastWords make a clause tell what happened.
	pastWords = words(`yesterday ago earlier already last previously recently`)
	// negations make a clause ask for no action: "don't add a disk yet".
	negations = words(`don't dont not never no without nothing won't wont shouldn't`)
	// reTimeOfDay is a time of day opening a scheduled request: "at 3am".
	reTimeOfDay = compile(`^(at|by|around)?$|^\d{1,2}(:\d\d)?(am|pm)?$`)
)

// englishChange reads each English clause for a request of change.
func englishChange(text string) refusal {
	mixed := hasHan(text)
	if mixed && reZhAsks.MatchString(text) && !reZhAsksFor.MatchString(text) {
		return refusal{} // "kubectl get pods 是什么意思": the Chinese asks
	}
	for _, cl := range clauses(text) {
		if mixed && len(cl) < 3 {
			continue
		}
		if r := clauseChange(cl); !r.none() {
			return r
		}
	}
	return refusal{}
}

// clauseChange reads one clause: after politeness, a relaying frame and
// a time, a verb that is not a look, and an object of the machine as
// what it acts on; a second action joined by "and"/"then" is read too.
func clauseChange(ws []string) refusal {
	if len(ws) == 0 || hasWord(ws, pastWords) {
		return refusal{}
	}
	i := 0
	switch {
	case ws[0] == "are" && len(ws) > 3 && (ws[1] == "you" || ws[1] == "u") && ws[2] == "able":
		i = 3 // "are you able to join this box to the domain?"
	case questionWords[ws[0]] && !politeQuestion(ws) && !causativeHave(ws):
		return refusal{}
	case len(ws) > 2 && (ws[0] == "can" || ws[0] == "could") && (ws[1] == "i" || ws[1] == "we") && ws[2] != "get" && ws[2] != "have":
		return refusal{} // "can i add a disk without a reboot?" asks for advice
	case ws[0] == "why":
		i = 3
	}
	if j := relayed(ws); j > 0 {
		i = j
	}
	for i < len(ws) && (politeWords[ws[i]] || timeWords[ws[i]] || reTimeOfDay.MatchString(ws[i]) && ws[i] != "" && i+1 < len(ws) ||
		i > 0 && laterModals[ws[i]]) {
		if ws[i] == "if" || ws[i] == "think" || ws[i] == "guess" || ws[i] == "hope" {
			return refusal{} // "if we add a disk, …": a condition, not the request
		}
		i++
	}
	if hasWord(ws[:min(len(ws), i+1)], negations) {
		return refusal{} // "don't add a disk yet"; "… so it never upgrades" is no negation of the request
	}
	for i < len(ws) {
		if r := verbChange(ws, i); !r.none() {
			return r
		}
		// "check the disk and then mount it", "back up /etc and copy it to /tmp".
		j := i + 1
		for j < len(ws) && !conjunctions[ws[j]] {
			j++
		}
		for j < len(ws) && (conjunctions[ws[j]] || politeWords[ws[j]]) {
			j++
		}
		i = j
	}
	return refusal{}
}

// verbChange is the refusal of the action ws[i] names, if it is a verb
// of change (changeVerb) and acts on an object of the machine.
func verbChange(ws []string, i int) refusal {
	if runVerbs[ws[i]] && i+1 < len(ws) && pronounObjects[strings.Trim(ws[i+1], ".,;:!?")] && hasWord(ws[:i], programWords) {
		return refuseHarm(harmRun, strings.Join(ws[i:i+2], " ")) // "write a script that … and run it"
	}
	if !changeVerb(ws, i) || i+1 < len(ws) && (ws[i+1] == "sure" || ws[i+1] == "certain") {
		return refusal{} // "make sure the log files are there"
	}
	// The object: up to eight words after the verb, before a word that
	// starts what a text is about; a text written for the user is none.
	end := min(len(ws), i+9)
	kind, found := harmKind(0), false
	for k := i + 1; k < end && !topicWords[ws[k]] && !conjunctions[ws[k]]; k++ {
		if artifacts[ws[k]] || lookNouns[ws[k]] && (articles[ws[k-1]] || k > i+1 && articles[ws[k-2]]) {
			return refusal{} // "write a cron expression", "take a look at nginx"
		}
		if k2, ok := objectKind(ws[k]); ok {
			if !found {
				kind, found = k2, true
			}
		}
	}
	if !found {
		return refusal{}
	}
	if kind == harmEdit && copiesInto(ws[i:end]) {
		kind = harmMove // "back up /etc/nginx to /tmp"
	}
	return refuseHarm(kind, strings.Join(ws[i:min(end, i+4)], " "))
}

// changeVerb reports whether ws[i] is a verb of change: one of verbs
// (harmverbs.go) with its particle where it needs one ("bring up
// eth1") and an object its meaning needs ("open port 80", not "open
// /etc/hosts"), or one of moreChangeVerbs. A verb on no list is no
// change: "browse /var/log", "eyeball the nginx config".
func changeVerb(ws []string, i int) bool {
	w := ws[i]
	if moreChangeVerbs[w] {
		return w != "add" || i+1 >= len(ws) || ws[i+1] != "up" // "add up the sizes of /var/log" sums
	}
	if p, ok := particleChangeVerbs[w]; ok && hasWord(ws[i+1:min(len(ws), i+5)], p) {
		return true
	}
	rest := ws[i+1:]
	switch w {
	case "up":
		return amountObj(rest) // "up the ulimit to 65535"
	case "ensure":
		return hasWord(rest[:min(len(rest), 8)], changedStates) || hasWord(rest[:min(len(rest), 8)], words(`allows denies blocks listens`))
	case "make":
		// "make nginx listen on 8080", "make nginx start on boot": the
		// object made to do a change.
		for k := i + 2; k < min(len(ws), i+5); k++ {
			if _, v := verbs[ws[k]]; ws[k] == "listen" || v && ws[k] != "make" || changeVerb(ws, k) {
				return true
			}
		}
	}
	if a, b, ok := strings.Cut(w, "-"); ok && a != "" && b != "" && !strings.Contains(b, "-") && b != w {
		return changeVerb(append([]string{b}, rest...), 0) // "test-restore the backup over /var/lib/mysql"
	}
	v, ok := verbs[w]
	if !ok {
		return false
	}
	return !objectHarm(v, w, ws[i+1:]).none()
}

// copiesInto reports whether ws puts a copy somewhere: "to"/"into" and a
// path after it.
func copiesInto(ws []string) bool {
	for k, w := range ws {
		if (w == "to" || w == "into" || w == "onto") && k+1 < len(ws) && isPathWord(ws[k+1]) {
			return true
		}
	}
	return false
}
