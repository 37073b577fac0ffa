package builtin

import "strings"

// readOnlyForm reports whether argv, a program of shellKinds with its
// arguments, only reads: "route -n", "crontab -l", "iptables -L -n",
// "sysctl -a", "mount", "ufw status". Such a line is outside the tiers
// but changes nothing, so its refusal says the command is not offered
// (refuseCommand), not that it would change the system.
func readOnlyForm(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	args := argv[1:]
	first := ""
	if len(args) > 0 {
		first = strings.ToLower(args[0])
	}
	switch strings.ToLower(argv[0]) {
	case "route":
		return allOptions(args)
	case "crontab":
		return hasArg(args, "-l") && !hasArg(args, "-r") && !hasArg(args, "-e")
	case "iptables", "ip6tables":
		return listsRules(args)
	case "nft":
		return first == "list"
	case "ufw":
		return first == "status" || first == "show"
	case "sysctl":
		for _, a := range args {
			if strings.Contains(a, "=") || a == "-w" || a == "-p" || a == "--write" || a == "--load" || a == "--system" {
				return false
			}
		}
		return true
	case "mount":
		return len(args) == 0 || len(args) == 1 && first == "-l"
	case "swapon":
		return first == "--show" || first == "-s" || first == "--summary"
	case "hostnamectl", "timedatectl":
		return len(args) == 0 || first == "status" || first == "show" || first == "list-timezones"
	case "dpkg":
		return first == "-l" || first == "-L" || first == "-s" || first == "-S" || first == "--list" || first == "--status" || first == "--get-selections"
	case "rpm":
		return strings.HasPrefix(first, "-q")
	case "apt", "yum", "dnf":
		return first == "list" || first == "show" || first == "search" || first == "info" || first == "policy" || first == "repolist"
	case "pip", "pip3":
		return first == "list" || first == "show" || first == "freeze"
	case "npm":
		return first == "ls" || first == "list" || first == "view" || first == "outdated"
	case "fdisk", "sfdisk", "parted":
		return first == "-l" || first == "--list"
	case "chage":
		return first == "-l"
	}
	return false
}

// allOptions reports whether every argument is an option.
func allOptions(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

func hasArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

// listsRules reports whether iptables arguments list the rules (-L, -S,
// -nvL, --list) and change none (-A, -D, -I, -F, -X, -P, -R, -N, -Z, -E).
func listsRules(args []string) bool {
	list := false
	for _, a := range args {
		switch {
		case a == "--list" || a == "--list-rules":
			list = true
		case strings.HasPrefix(a, "--"):
			if a != "--numeric" && a != "--verbose" && a != "--line-numbers" && a != "--table" {
				return false
			}
		case strings.HasPrefix(a, "-"):
			if strings.ContainsAny(a[1:], "ADIFXPRNZE") {
				return false
			}
			list = list || strings.ContainsAny(a[1:], "LS")
		}
	}
	return list
}
