package command

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// defaultAsk is the default ask tier, comma-separated, in the order
// prompts and documents list it (DefaultAsk). uptime has a table but is
// not in it: asking before a harmless read is friction, and the default
// whitelist leaves it out on purpose; add it to the whitelist or the
// ask tier by configuration.
const defaultAsk = "systemctl status,systemctl --failed,systemctl list-units,systemctl restart,systemctl reload,journalctl,du,ss,netstat,docker ps,docker logs,docker restart"

// operandKind is what an ask-tier command's operands must be.
type operandKind int

const (
	// opNone: no operands.
	opNone operandKind = iota
	// opUnit: systemd unit names ("nginx", "nginx.service", "getty@tty1").
	opUnit
	// opName: container names or ids, and ss's filter words.
	opName
	// opPath: files, checked and pinned like the whitelist's.
	opPath
)

// askSpec is the table of the arguments an ask-tier command accepts:
// an allow list, stricter than the whitelist's deny lists, since these
// commands change the system or read beyond the roots. An argument not
// in it is refused: no option that writes a file, reads one not named
// as an operand, follows output forever or runs another program.
type askSpec struct {
	// sub is the subcommand, the first argument ("restart"), or "".
	sub string
	// prepend are arguments added before the caller's ("--no-pager").
	prepend []string
	// letters are the short flags accepted, alone or clustered.
	letters string
	// shortValue are the short options that require a value, attached
	// ("-u50") or the next argument.
	shortValue string
	// shortOptional are the short options whose value is optional
	// (getopt "n::"): the value is taken only attached ("-n50", "-b-1");
	// the next argument is never their value, since the program itself
	// would parse it as an option ("journalctl -n --disk-usage").
	shortOptional string
	// long are the long flags accepted; longValue the long options that
	// require a value ("--unit=x" or "--unit x"); longOptional those whose
	// value is optional, taken only attached ("--lines=50").
	long, longValue, longOptional []string
	// operands is what operands must be; min and max bound their number.
	operands operandKind
	min, max int
	// deref is the option that makes the command follow the pinned
	// descriptors given as operands (du -D).
	deref string
}

// askSpecs are the ask tier's tables, by entry. What each leaves out,
// and why:
//
//	systemctl  everything but the subcommand and unit names (no --host,
//	           --machine, --root, --now, --force): one unit action;
//	           --failed and list-units take only --plain, --no-legend,
//	           --all, --type, --state and unit patterns: they list units;
//	           restart and reload run with --no-ask-password (no
//	           password agent waits for a terminal). Restarting or
//	           reloading a target (reboot.target, rescue.target, any
//	           *.target) or a sleep/kexec/halt unit is on the deny list
//	           (Classify): it changes the machine's state, never asked.
//	journalctl -f --follow (never ends), --file -D --directory --root -M
//	           (read other journals), --vacuum-* --rotate --flush --sync
//	           --setup-keys --update-catalog --cursor-file (write).
//	           -n --lines -b --boot take an optional value in
//	           journalctl: accepted only attached ("-n50", "--boot=-1").
//	du         --files0-from -X --exclude-from (read a file named in an
//	           option), -L (follows every link out of the roots).
//	ss         -K --kill (closes sockets), -F --filter (reads a file),
//	           -D --diag (writes a file), -E --events (never ends), -N.
//	netstat    -c --continuous (never ends).
//	docker     logs -f --follow (never ends); every other subcommand.
var askSpecs = map[string]askSpec{
	"systemctl status": {sub: "status", prepend: []string{"--no-pager"}, long: []string{"full"}, letters: "l", shortValue: "n", longValue: []string{"lines"}, operands: opUnit, min: 1, max: 8},
	// "systemctl --failed" and "systemctl list-units --failed" list the
	// units that failed: read-only, and nothing but a state filter.
	"systemctl --failed":   {sub: "--failed", prepend: []string{"--no-pager"}, long: []string{"plain", "no-legend", "all"}, longValue: []string{"type"}, operands: opNone},
	"systemctl list-units": {sub: "list-units", prepend: []string{"--no-pager"}, long: []string{"failed", "plain", "no-legend", "all"}, longValue: []string{"type", "state"}, operands: opUnit, max: 8},
	"systemctl restart":    {sub: "restart", prepend: []string{"--no-ask-password"}, operands: opUnit, min: 1, max: 8},
	"systemctl reload":     {sub: "reload", prepend: []string{"--no-ask-password"}, operands: opUnit, min: 1, max: 8},
	"journalctl": {prepend: []string{"--no-pager"}, letters: "rkxqae", shortValue: "upo", shortOptional: "nb",
		long:         []string{"reverse", "dmesg", "catalog", "quiet", "all", "no-hostname", "utc", "pager-end"},
		longValue:    []string{"unit", "priority", "output", "since", "until", "grep", "identifier"},
		longOptional: []string{"lines", "boot"},
		operands:     opNone},
	"du": {letters: "shcaxbkmlP", shortValue: "dt", long: []string{"summarize", "human-readable", "total", "all", "one-file-system",
		"apparent-size", "si", "bytes", "count-links", "no-dereference"}, longValue: []string{"max-depth", "threshold"},
		operands: opPath, max: maxPinned, deref: "-D"},
	"ss":             {letters: "tulnpaxsieHrwo46mO", long: []string{"tcp", "udp", "listening", "numeric", "processes", "all", "summary", "extended", "info", "no-header", "resolve", "memory", "options", "ipv4", "ipv6", "oneline"}, operands: opName, max: 8},
	"netstat":        {letters: "tulnpaeriswxW46", long: []string{"tcp", "udp", "listening", "numeric", "programs", "all", "extend", "route", "interfaces", "statistics", "wide"}, operands: opNone},
	"uptime":         {letters: "ps", long: []string{"pretty", "since"}, operands: opNone},
	"docker ps":      {sub: "ps", letters: "aqsl", shortValue: "n", long: []string{"all", "quiet", "size", "latest", "no-trunc"}, longValue: []string{"last", "format"}, operands: opNone},
	"docker logs":    {sub: "logs", letters: "t", shortValue: "n", long: []string{"timestamps", "details"}, longValue: []string{"tail", "since", "until"}, operands: opName, min: 1, max: 1},
	"docker restart": {sub: "restart", shortValue: "t", longValue: []string{"time", "timeout"}, operands: opName, min: 1, max: 8},
}

var (
	// reUnit is a systemd unit name: never an option, never a path.
	reUnit = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9@._:-]*$`)
	// reOptional is an attached optional value (journalctl -n, -b): a
	// number, "all", or a boot id with an optional offset; or none.
	reOptional = regexp.MustCompile(`^(|all|[+-]?[0-9]+|[0-9a-fA-F]{32}([+-][0-9]+)?)$`)
	// reName is a container name or id, or one of ss's filter words.
	reName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._:=-]*$`)
)

// parse checks the arguments of the ask-tier entry, whose subcommand is
// args[0] if it has one, and returns them as the command is to run them
// and the operands to check and pin as files. An error wraps
// ErrOptionDenied.
func (s askSpec) parse(entry string, args []string) (run []string, items []classified, err error) {
	refuse := func(a, why string) error {
		return &refusal{msg: fmt.Sprintf("argument %q of %s is not allowed: %s", a, entry, why), err: ErrOptionDenied}
	}
	start := 0
	if s.sub != "" {
		start = 1
	}
	var operands []int
	for i := start; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			for j := i + 1; j < len(args); j++ {
				operands = append(operands, j)
			}
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, _, attached := strings.Cut(a[2:], "=")
			switch {
			case slices.Contains(s.longValue, name):
				if !attached {
					if i+1 == len(args) {
						return nil, nil, refuse(a, "it needs a value")
					}
					i++
				}
			case slices.Contains(s.longOptional, name):
				// The value only attached: "--lines" alone is a flag.
				if attached && !reOptional.MatchString(a[len(name)+3:]) {
					return nil, nil, refuse(a, "its value must be a number, \"all\" or a boot id")
				}
			case slices.Contains(s.long, name) && !attached:
			default:
				return nil, nil, refuse(a, "only "+s.options()+" are accepted")
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				c := a[j]
				if strings.IndexByte(s.shortOptional, c) >= 0 {
					// The rest of the cluster is its value, if any.
					if !reOptional.MatchString(a[j+1:]) {
						return nil, nil, refuse(a, "its value must be attached and be a number, \"all\" or a boot id")
					}
					break
				}
				if strings.IndexByte(s.shortValue, c) >= 0 {
					if j+1 == len(a) {
						if i+1 == len(args) {
							return nil, nil, refuse(a, "it needs a value")
						}
						i++
					}
					break
				}
				if strings.IndexByte(s.letters, c) < 0 {
					return nil, nil, refuse(a, "only "+s.options()+" are accepted")
				}
			}
		default:
			operands = append(operands, i)
		}
	}
	if len(operands) < s.min || len(operands) > s.max {
		why := fmt.Sprintf("it takes %d to %d operands", s.min, s.max)
		if s.shortOptional != "" && len(s.longOptional) > 0 {
			why += fmt.Sprintf("; -%s take their value attached (-%c50, --%s=50)", strings.Join(strings.Split(s.shortOptional, ""), ", -"), s.shortOptional[0], s.longOptional[0])
		}
		return nil, nil, refuse(strings.Join(args[start:], " "), why)
	}
	for _, i := range operands {
		a := args[i]
		switch s.operands {
		case opUnit:
			if !reUnit.MatchString(a) {
				return nil, nil, refuse(a, "it is not a unit name")
			}
		case opName:
			if !reName.MatchString(a) {
				return nil, nil, refuse(a, "it is not a name")
			}
		case opPath:
			items = append(items, classified{arg: a, kind: argFile, idx: i + len(s.prepend)})
		}
	}
	return append(slices.Clone(s.prepend), args...), items, nil
}

// options lists the accepted options, for refusals.
func (s askSpec) options() string {
	var out []string
	for _, c := range s.letters + s.shortValue + s.shortOptional {
		out = append(out, "-"+string(c))
	}
	for _, l := range slices.Concat(s.long, s.longValue, s.longOptional) {
		out = append(out, "--"+l)
	}
	if len(out) == 0 {
		return "no options"
	}
	return strings.Join(out, " ")
}
