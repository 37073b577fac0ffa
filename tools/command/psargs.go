package command

import (
	"slices"
	"strings"
)

// PSEntry is the ask-tier entry Classify names for a ps call whose
// output would show every process's full command line (psShowsArgs):
// ps is whitelisted, but such a call runs only once the user approved
// it, and a read-only role is refused it.
const PSEntry = "ps"

// psWhyArgs and psWhyArgsZh say why a ps call that shows full command
// lines needs the user's confirmation: Target.Why and Target.WhyZh for
// the permission policy, and the tool's refusal.
const (
	psWhyArgs   = "it shows every process's full command line, which can hold other programs' secrets (passwords and tokens given as arguments)"
	psWhyArgsZh = "它会显示每个进程的完整命令行，其中可能含有其他程序的密钥（以参数传入的口令、令牌）"
)

// psDefaultArgs are ps's arguments when a request names no columns
// ("查看进程", "show processes"): every process's ID, user, CPU and
// memory share and command name — never its arguments — busiest first.
var psDefaultArgs = []string{"-eo", "pid,user,%cpu,%mem,comm", "--sort=-%cpu"}

// psArgFields are the procps format fields that print a process's
// arguments (ps(1), STANDARD FORMAT SPECIFIERS: args, cmd and command
// are one column under three names); comm, ucmd, ucomm and exe print
// its name or executable only.
var psArgFields = []string{"args", "cmd", "command"}

// psShowsArgs reports whether ps, run with args that checkPS accepted,
// may print a process's full command line:
//   - any BSD option (a letter cluster without a dash) or bare process
//     ID ("ps 1", "ps -A 1": a BSD process list) without "c" and
//     without a format list: the BSD formats (the default one, u, v, j,
//     l, s) end with the command line ("ps aux", "ps ax", "ps -e x");
//     "c" shows the command's name instead ("ps auxc"), and a format
//     list replaces them ("ps axo pid,user"; "ps aux o pid" is
//     refused by procps as conflicting formats);
//   - UNIX -f and -F (full formats) and -O and BSD O (preloaded with
//     the command column);
//   - a format list (-o, o, --format) naming args, cmd or command, in
//     any spelling procps accepts (a header "args=X", a width
//     "args:40", the AIX descriptor "%a").
//
// The width options (-w, ww, --width, --cols) only widen what is shown.
// It errs on the side of asking: a BSD "c" next to a full-argument
// format list still asks.
//
// procps reads the arguments a second time, every "-abc" as BSD
// options, when the first pass fails (see checkPS): "ps -ux" asks for
// the user "x", and when there is none runs as "ps ux", which shows
// full command lines. So a call whose second reading would show them
// asks too (psRetryShowsArgs), unless that reading cannot run.
func psShowsArgs(args []string) bool {
	run, err := checkPS(args)
	if err != nil {
		// Refused anyway; say what is safe.
		return true
	}
	return psFirstShowsArgs(args) || psRetryShowsArgs(run)
}

// psRetryShowsArgs reports whether procps's second pass over args (as
// checkPS rewrites them) would run and show full command lines: it
// fails at a letter of psRetryFail or at an argument without a dash
// (psRetryCheck), and otherwise reads every cluster as BSD options.
func psRetryShowsArgs(args []string) bool {
	bsd, bsdC, format := false, false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case isDigits(a):
			// A bare process ID is a BSD process list: the BSD
			// format unless "c" or a format list says otherwise.
			return !bsdC && !format
		case strings.HasPrefix(a, "--"):
			var isFormat, shows bool
			i, isFormat, shows = psLongFormat(args, i)
			if shows {
				return true
			}
			format = format || isFormat
		case len(a) > 1 && a[0] == '-' && isLetter(a[1]):
			bsd = true
			for j := 1; j < len(a); j++ {
				c := a[j]
				switch {
				case strings.IndexByte(psRetryFail, c) >= 0:
					return false
				case c == 'c':
					bsdC = true
				case strings.IndexByte(psRetryValue, c) >= 0:
					value := a[j+1:]
					if value == "" && i+1 < len(args) {
						i++
						value = args[i]
					}
					if c == 'O' || c == 'o' && psFormatShowsArgs(value) {
						return true
					}
					format = format || c == 'o'
					j = len(a)
				}
			}
		default:
			return false
		}
	}
	return bsd && !bsdC && !format
}

// psFirstShowsArgs is psShowsArgs for procps's first pass.
func psFirstShowsArgs(args []string) bool {
	bsd, bsdC, format := false, false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "" || isDigits(a):
			// Process IDs, and only they, follow (checkPS). A bare
			// process ID is a BSD process list, so ps picks its BSD
			// format ("ps 1", "ps -A 1" show full command lines)
			// unless "c" or a format list says otherwise.
			return !bsdC && !format
		case strings.HasPrefix(a, "--"):
			var isFormat, shows bool
			i, isFormat, shows = psLongFormat(args, i)
			if shows {
				return true
			}
			format = format || isFormat
		case a[0] == '-':
			for j := 1; j < len(a); j++ {
				c := a[j]
				if c == 'f' || c == 'F' || c == 'O' {
					return true
				}
				if strings.IndexByte(psUnixValue, c) >= 0 {
					value := a[j+1:]
					if value == "" && i+1 < len(args) {
						i++
						value = args[i]
					}
					if c == 'o' && psFormatShowsArgs(value) {
						return true
					}
					format = format || c == 'o'
					break
				}
			}
		default:
			bsd = true
			for j := 0; j < len(a); j++ {
				c := a[j]
				if c == 'O' {
					return true
				}
				if c == 'c' {
					bsdC = true
				}
				if strings.IndexByte(psBSDValue, c) >= 0 {
					value := a[j+1:]
					if value == "" && i+1 < len(args) {
						i++
						value = args[i]
					}
					if c == 'o' && psFormatShowsArgs(value) {
						return true
					}
					format = format || c == 'o'
					break
				}
			}
		}
	}
	return bsd && !bsdC && !format
}

// psFormatShowsArgs reports whether a format list names a field that
// prints arguments. Any word of it counts, headers and widths included:
// "pid=args" asks though procps reads "args" there as pid's header.
//
// An AIX field descriptor "%a" is args ("ps -o %a"); any spelling of it
// counts, "%A" included, whatever procps makes of it.
func psFormatShowsArgs(list string) bool {
	if strings.Contains(strings.ToLower(list), "%a") {
		return true
	}
	words := strings.FieldsFunc(strings.ToLower(list), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_'
	})
	return slices.ContainsFunc(words, func(w string) bool { return slices.Contains(psArgFields, w) })
}

// psLongFormat reads the GNU option args[i] and its value, if it takes
// one: the index of its last argument, whether it is --format, and
// whether that format list shows arguments.
func psLongFormat(args []string, i int) (last int, isFormat, showsArgs bool) {
	a := args[i]
	name, attached := psLong(a)
	value := ""
	if slices.Contains(psLongValue, name) {
		if attached {
			value = a[len(name)+3:]
		} else if i+1 < len(args) {
			i++
			value = args[i]
		}
	}
	return i, name == "format", name == "format" && psFormatShowsArgs(value)
}
