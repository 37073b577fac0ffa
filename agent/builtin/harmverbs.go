package builtin

import "strings"

// verb is a destructive English verb: what it would change and the
// object it needs to mean that ("open port 80" changes the firewall,
// "open the file" reads).
type verb struct {
	kind harmKind
	// object reports whether the words after the verb name an object it
	// acts on.
	object func(rest []string) bool
	// phrase is the particle the verb needs ("shut" → "down"), or "".
	phrase string
}

// verbs are the destructive English verbs, by their plain form;
// verbsByLetter the same names by first letter, for typo repair. Both
// are read only.
var verbs, verbsByLetter = verbTable()

// verbTable builds verbs and verbsByLetter.
func verbTable() (map[string]verb, map[byte][]string) {
	verbs, byLetter := map[string]verb{}, map[byte][]string{}
	add := func(k harmKind, obj func([]string) bool, phrase string, names string) {
		for _, n := range strings.Fields(names) {
			verbs[n] = verb{k, obj, phrase}
			byLetter[n[0]] = append(byLetter[n[0]], n)
		}
	}
	add(harmDelete, someObj, "", "delete del remove erase wipe purge nuke torch prune trim shred trash zap unlink rm rmdir clean clear empty tidy truncate flush cleanup declutter rotate vacuum")
	add(harmDelete, dropObj, "", "drop")
	add(harmDelete, someObj, "rid", "get")
	add(harmDelete, anyObj, "up", "free")
	add(harmDelete, someObj, "away", "blow")
	add(harmDelete, someObj, "out", "knock")
	add(harmDelete, someObj, "", "bin scrap")
	add(harmProcess, procObj, "", "end")
	add(harmProcess, anyObj, "", "kill pkill killall terminate")
	add(harmService, someObj, "", "stop halt disable mask start enable unmask suspend scale")
	add(harmService, someObj, "off", "turn switch")
	add(harmMachine, anyObj, "", "reboot shutdown poweroff")
	add(harmMachine, anyObj, "down off", "shut")
	add(harmService, someObj, "down offline", "take")
	add(harmService, someObj, "up down offline", "spin")
	add(harmService, unitObj, "up down online offline", "bring")
	add(harmService, unitObj, "up", "fire")
	add(harmDelete, someObj, "down", "tear")
	add(harmService, lifeObj, "", "pause unpause freeze unfreeze")
	add(harmContainer, containerObj, "up", "stand")
	add(harmContainer, containerObj, "", "provision recreate")
	add(harmDelete, someObj, "", "destroy")
	add(harmMove, moveObj, "up", "back")
	add(harmMove, moveObj, "", "backup")
	add(harmEdit, swapObj, "", "swap")
	add(harmEdit, systemObj, "", "rebuild reindex regenerate")
	add(harmMachine, anyObj, "off", "power")
	add(harmService, someObj, "", "restart reload bounce")
	add(harmPackage, someObj, "", "install uninstall reinstall upgrade downgrade update patch deploy rollback revert")
	add(harmPackage, someObj, "back", "roll")
	add(harmPackage, moduleObj, "", "load unload modprobe insmod rmmod")
	add(harmEdit, setObj, "", "set")
	add(harmEdit, someObj, "", "edit modify alter tweak bump change replace overwrite rewrite comment uncomment configure reconfigure restore")
	add(harmEdit, toObj, "", "write append insert save put")
	add(harmEdit, amountObj, "", "raise increase lower decrease reduce")
	add(harmEdit, someObj, "", "force")
	add(harmCreate, createObj, "", "add create setup")
	add(harmAccess, anyObj, "", "chmod chown chgrp chattr setfacl")
	add(harmAccess, accessObj, "", "grant give elevate")
	add(harmAccess, revokeObj, "", "revoke")
	add(harmAccess, makeObj, "", "make")
	add(harmCron, someObj, "", "schedule")
	add(harmUser, userObj, "", "lock unlock expire")
	add(harmDisk, diskObj, "", "format partition repartition resize extend shrink grow fsck mkfs")
	add(harmDisk, lifeObj, "", "split")
	add(harmDisk, anyObj, "", "lvextend lvresize lvreduce resize2fs xfs_growfs growpart")
	add(harmDisk, mountObj, "", "mount unmount umount")
	add(harmNetwork, netObj, "", "open close block unblock allow deny ban whitelist blacklist expose forward")
	add(harmMove, moveObj, "", "move mv copy cp rename relocate")
	add(harmRun, scriptObj, "", "run execute exec launch source invoke trigger")
	add(harmEdit, someObj, "", "compress gzip gunzip zip unzip bzip2 decompress renew")
	add(harmService, someObj, "", "drain cordon uncordon")
	add(harmMachine, someObj, "", "decommission retire")
	add(harmEdit, pointObj, "", "point repoint")
	add(harmDisk, attachObj, "", "attach detach")
	add(harmPackage, someObj, "", "checkout")
	return verbs, byLetter
}

// Word sets of the English reading.
var (
	// politeWords may precede a request's verb: "could you kindly …",
	// "i need you to …", "small thing: …".
	politeWords = words(`please pls plz pleaz kindly just quickly quick now then also so ok okay hey hi yo
		u you ya can could would will mind i i'd id we we'd need want like love to go ahead and help me us
		let's lets let be as kind possible able it for real small thing one more favor favour sure
		right away asap gonna gotta try maybe perhaps if think guess hope hoping proceed allowed`)
	// laterModals are politeness only after the clause's first word: "i
	// think we should just drop …"; first, "should we …?" asks.
	laterModals = words(`should must ought`)
	// questionWords open a clause that asks rather than requests.
	questionWords = words(`how what what's whats why when where which who whom whose is are was were did
		does do should has have had shall may`)
	// notObjects after a verb mean it acts on nothing of the system:
	// "start with the logs", "update me on …".
	notObjects = words(`me us you with by from at on over of about is are was were or when if because so
		to as than into do does did`)
	// stateWords alone after a verb tell how it went: "deploy done, …".
	stateWords = words(`done finished complete completed succeeded failed ok over`)
	// articles are skipped before an object.
	articles    = words(`the a an this that these those my our your all some any old new`)
	userNouns   = words(`user users account accounts group groups password passwords passwd pubkey key keys ssh sudo sudoer sudoers authorized_keys login logins token tokens credential credentials`)
	cronNouns   = words(`cron crontab crontabs cronjob cronjobs job jobs timer timers`)
	systemNouns = words(`file files dir dirs directory directories folder folders log logs logfile logfiles
		cache caches tmp temp junk backup backups trash data disk config configs configuration conf line lines
		entry entries symlink symlinks link links swap swapfile partition volume port ports rule rules route
		routes alias hosts script scripts everything package packages service services container containers
		index record records table tables database databases db executable mode maintenance`)
	accessNouns = words(`sudo root admin administrator access rights right permission permissions privileges privilege wheel ownership owner`)
	diskNouns   = words(`disk disks drive drives partition partitions volume volumes filesystem filesystems fs device devices lv lvm swap raid`)
	netNouns    = words(`port ports firewall iptables ip ips traffic address addresses ufw nftables`)
	dropNouns   = words(`cache caches table tables database databases db schema index connections packets`)
	moduleNouns = words(`module modules kmod`)
	procNouns   = words(`process processes proc pid pids task tasks session sessions job jobs`)
	// serviceNouns name a service a shutdown is aimed at.
	serviceNouns = words(`service services container containers daemon daemons unit units`)
	dbNouns      = words(`table tables database databases db schema`)
	makeNouns    = words(`sudoer sudoers admin administrator executable owner root`)
	mountNouns   = words(`point points info options table`)
	scriptNouns  = words(`script scripts installer binary executable migration migrations playbook cleanup`)
	scriptExts   = []string{".sh", ".py", ".pl", ".rb", ".bash", ".ps1", ".php", ".js", ".run", ".bin"}
)

func anyObj([]string) bool { return true }

// shareNouns are network shares attached like disks.
var shareNouns = words(`share shares nfs nas smb cifs samba bucket`)

// attachObj: a disk or a share attached or detached ("attach the shared
// drive from the NAS to /mnt/share"), not "attach it to the ticket".
func attachObj(rest []string) bool { return diskObj(rest) || hasWord(rest, shareNouns) }

// pointPreps point a name somewhere.
var pointPreps = words(`to at`)

// pointObj: a name pointed to or at an address or another name ("point
// db.internal to 10.2.3.4"), not "point me to the docs".
func pointObj(rest []string) bool {
	return someObj(rest) && hasWord(rest[1:], pointPreps)
}

// someObj: the verb acts on something, not "with …" or "me", nor is
// it told done ("deploy done").
func someObj(rest []string) bool {
	return len(rest) > 0 && !notObjects[rest[0]] && !(len(rest) == 1 && stateWords[rest[0]])
}

// systemObj: a system object or a path is named.
func systemObj(rest []string) bool {
	for _, w := range rest {
		if systemNouns[w] || userNouns[w] || cronNouns[w] || isPathWord(w) {
			return true
		}
	}
	return false
}

// createObj: a system object or path among the first words ("add a
// cron job", "create a user called deploy2").
// "add up the sizes of /var/log" sums.
func createObj(rest []string) bool {
	return !(len(rest) > 0 && rest[0] == "up") && systemObj(rest[:min(len(rest), 5)])
}

// makeObj: "make deploy a sudoer", "make run.sh executable", "make a
// new directory".
func makeObj(rest []string) bool {
	return len(rest) > 0 && !notMade[rest[0]] && (hasWord(rest, makeNouns) || createObj(rest))
}

// setObj: something set, not a view set up ("set up a quick view of
// disk io").
func setObj(rest []string) bool {
	if len(rest) > 0 && rest[0] == "up" && hasWord(rest[1:min(len(rest), 5)], words(`view look dashboard peek glance watch`)) {
		return false
	}
	return someObj(rest)
}

// notMade after "make" is no object made: "make sure the log is there".
var notMade = words(`sure certain it that me us`)

// mountObj: something mounted, not "mount points".
func mountObj(rest []string) bool { return someObj(rest) && !mountNouns[rest[0]] }

// moduleObj: a kernel module ("load the br_netfilter kernel module").
func moduleObj(rest []string) bool { return hasWord(rest, moduleNouns) }

func procObj(rest []string) bool { return hasWord(rest, procNouns) }
func userObj(rest []string) bool { return hasWord(rest, userNouns) }

func accessObj(rest []string) bool { return hasWord(rest, accessNouns) }

// revokeObj: an access right, or a user's keys or password ("revoke all
// ssh keys of the intern account").
func revokeObj(rest []string) bool { return hasWord(rest, accessNouns) || hasWord(rest, userNouns) }

// netObj: a network object or an address ("block 203.0.113.7").
func netObj(rest []string) bool {
	for _, w := range rest {
		if netNouns[w] || reAddress.MatchString(w) {
			return true
		}
	}
	return false
}

// containerNouns name containers and virtual machines.
var containerNouns = words(`container containers vm vms pod pods replica replicas snapshot snapshots`)

// containerObj: a container or a virtual machine ("stand up two more
// worker containers").
func containerObj(rest []string) bool { return hasWord(rest, containerNouns) }

// unitNouns are what is brought up or fired up: a service, a unit, a
// machine, a container, a network link.
var unitNouns = words(`service services daemon daemons unit units server servers machine machines box boxes host hosts node nodes
	instance instances vm vms container containers pod pods replica replicas cluster interface interfaces nic link tunnel vpn site website`)

// unitStops end the object brought up: what follows is whose it is.
var unitStops = words(`for of from on in about with`)

// unitReadings are what a look brings up: "bring up the nginx status
// page".
var unitReadings = words(`page pages status log logs stats statistics usage graph graphs chart charts list output dashboard report
	metrics version versions info details config`)

// unitObj: a service, a unit, a machine or a container is named ("bring
// up eth1", "fire up the api service"), not "bring up the logs".
func unitObj(rest []string) bool {
	for _, w := range rest {
		if w = strings.Trim(w, ".,;:!?"); unitStops[w] {
			break
		}
		if unitReadings[w] {
			return false // "bring up the nginx status page", "bring up the logs for nginx"
		}
	}
	for _, w := range rest {
		w = strings.Trim(w, ".,;:!?")
		if unitStops[w] {
			return false
		}
		if unitNouns[w] || harmServiceNames[w] || strings.HasSuffix(w, ".service") || strings.HasPrefix(w, "eth") || strings.HasPrefix(w, "ens") {
			return true
		}
	}
	return false
}

// measureNouns after a disk or volume name a figure of it, not the
// thing: "split the disk usage by directory".
var measureNouns = words(`usage use space stats statistics io metrics size sizes report numbers output`)

// lifeObj: a virtual machine, a container, a disk or a volume is what is
// paused, frozen, split or snapshotted ("pause the redis container",
// "split /dev/sdb into two partitions"), not "pause the output" or
// "split the disk usage by directory".
func lifeObj(rest []string) bool {
	for i, w := range rest {
		if unitStops[w] || w == "by" || w == "per" || w == "after" {
			return false // "split the log output by service"
		}
		if (containerNouns[w] || strings.HasPrefix(w, "vm") && len(w) > 2 && strings.Trim(w[2:], "0123456789-") == "" || diskNouns[w] || strings.HasPrefix(w, "/dev/") || harmServiceNames[w] || serviceNouns[w] || procNouns[w]) &&
			!(i+1 < len(rest) && measureNouns[rest[i+1]]) {
			return true
		}
	}
	return false
}

// swapObj: one thing swapped for another in a file or setting ("swap
// the conn string in config.yaml to db2.internal"), not "swap usage".
func swapObj(rest []string) bool {
	if !someObj(rest) || !hasWord(rest[1:], swapPreps) {
		return false
	}
	for _, w := range rest {
		if systemNouns[w] || isPathWord(w) || strings.Contains(strings.Trim(w, "."), ".") {
			return true // a file, a host or an address
		}
	}
	return false
}

// swapPreps join what is swapped to what replaces it.
var swapPreps = words(`to for with in`)

func dropObj(rest []string) bool { return hasWord(rest, dropNouns) }

func diskObj(rest []string) bool {
	for _, w := range rest {
		if diskNouns[w] || strings.HasPrefix(w, "/dev/") {
			return true
		}
	}
	return false
}

// toObj: written to or into a file or path ("append my key to
// ~/.ssh/authorized_keys").
func toObj(rest []string) bool {
	for i, w := range rest {
		if (w == "to" || w == "into" || w == "in") && i+1 < len(rest) && systemObj(rest[i+1:]) {
			return true
		}
	}
	return false
}

// amountObj: a setting raised or lowered to or by an amount ("raise the
// open files limit to 65535", "lower the swappiness to 10").
func amountObj(rest []string) bool {
	for i, w := range rest {
		if (w == "to" || w == "by") && i+1 < len(rest) && rest[i+1] != "" && rest[i+1][0] >= '0' && rest[i+1][0] <= '9' {
			return true
		}
	}
	return false
}

// toTheUser are places in the conversation: "copy the output of free -m
// into your answer" shows it.
var toTheUser = words(`chat answer reply response message here conversation`)

// moveObj: a path moved, or moved to somewhere, not into the chat.
func moveObj(rest []string) bool {
	for i, w := range rest {
		if (w == "to" || w == "into" || w == "in") && hasWord(rest[i+1:min(len(rest), i+4)], toTheUser) {
			return false
		}
	}
	for _, w := range rest {
		if isPathWord(w) || w == "to" || w == "into" {
			return len(rest) > 0 && !notObjects[rest[0]]
		}
	}
	return false
}

// trivialPrograms are programs of shellKinds that are also words run
// asks about in everyday English ("run at midnight", "run the batch").
var trivialPrograms = words(`at batch source eval exec init route service install touch mount`)

// scriptObj: what runs is a script or a program file the planner cannot
// see: a path first, a program that changes the system first, or a
// script named within three words.
func scriptObj(rest []string) bool {
	n := 0
	for _, w := range rest {
		if articles[w] {
			continue
		}
		if _, prog := shellKinds[w]; prog && n == 0 && !trivialPrograms[w] {
			return true // "run logrotate on the syslog config"
		}
		if scriptNouns[w] || containerNouns[w] || n == 0 && (strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") ||
			strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~/")) {
			return true
		}
		for _, e := range scriptExts {
			if strings.HasSuffix(w, e) && len(w) > len(e) {
				return true
			}
		}
		if n++; n == 3 {
			return false // "run the deploy script": a script within three words
		}
	}
	return false
}

func hasWord(rest []string, set map[string]bool) bool {
	for _, w := range rest {
		if set[w] {
			return true
		}
	}
	return false
}

// isPathWord reports whether w is a path ("/var/log", "~/x", "./y").
func isPathWord(w string) bool {
	return strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") || strings.HasPrefix(w, "./") || strings.Contains(w, "/")
}
