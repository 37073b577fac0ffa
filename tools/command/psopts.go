package command

import (
	"fmt"
	"slices"
	"strings"
)

// procps ps parses its arguments twice. The first pass reads "-abc" as
// UNIX options, "abc" as BSD options and "--name" as GNU options. If that
// pass fails for any reason (an unknown letter such as the "x" of "-ex", a
// user that does not exist, conflicting formats) it starts again and reads
// every "-abc" as BSD options, where "e" shows each process's environment:
// "ps -ex" prints the server's own API keys. The second pass gives up at
// the first argument without a dash that is not an option's value, at the
// first letter BSD syntax does not know, and treats a number and every
// argument after it as process IDs.
//
// checkPS accepts only the options below, in both passes, and rewrites
// the UNIX "-e" to "-A", which means the same to the first pass (select
// every process) and makes the second one fail: "ps -ef" runs as "ps -Af".
const (
	// psUnixFlags are the UNIX option letters accepted after a dash.
	psUnixFlags = "AadefFHjlLTcwy"
	// psUnixValue are the UNIX letters that take a value, the rest of the
	// argument or the next one: -C names, -o -O format, -p -q PIDs, -u -U users.
	psUnixValue = "CoOpquU"
	// psBSDFlags are the BSD option letters accepted without a dash.
	psBSDFlags = "acfhHjlmnrsSTuvwx"
	// psBSDValue are the BSD letters that take a value: k sort keys,
	// o O format, p q PIDs, U users.
	psBSDValue = "kOopqU"
	// psRetryFlags are the letters that BSD syntax reads as flags and
	// that may reach the second pass: psBSDFlags and the flags some
	// procps versions know.
	psRetryFlags = psBSDFlags + "gMXZ"
	// psRetryValue are the letters that take a value in BSD syntax in
	// any procps version (N was a namelist file before 4.0, t a tty).
	psRetryValue = "kNOopqtU"
	// psRetryFail are the letters every procps version refuses in BSD
	// syntax ("unsupported option", or L and V, which must stand alone):
	// the second pass fails when it reaches one.
	psRetryFail = "ACdFLVy"
)

// psLongFlags and psLongValue are the accepted GNU options; procps
// matches their names exactly and takes a value after "=", ":" or as the
// next argument.
var (
	psLongFlags = []string{"cumulative", "deselect", "forest", "headers", "no-headers", "noheaders"}
	psLongValue = []string{"Group", "User", "cols", "columns", "format", "group", "lines", "pid",
		"ppid", "quick-pid", "rows", "sid", "sort", "user", "width"}
)

// psWhyEnv says why BSD "e" is refused.
const psWhyEnv = "it prints the environment of other processes, which holds secrets"

// checkPS checks ps's arguments against the lists above and returns
// them as ps will run them: every UNIX "e" turned into "A". An error
// wraps ErrOptionDenied.
func checkPS(args []string) ([]string, error) {
	out := slices.Clone(args)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "":
			return nil, psRefused(`""`, "an empty argument")
		case isDigits(a):
			// ps reads this and every later argument as a process ID.
			for _, p := range args[i:] {
				if !isDigits(p) {
					return nil, psRefused(p, "after a process ID only process IDs may follow")
				}
			}
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, attached := psLong(a)
			switch {
			case slices.Contains(psLongFlags, name) && !attached:
			case slices.Contains(psLongValue, name):
				if !attached {
					i++
				}
			default:
				return nil, psRefused(a, psSupported)
			}
		case a[0] == '-' && len(a) > 1 && isLetter(a[1]):
			b, idx := []byte(a), i
		unix:
			for j := 1; j < len(a); j++ {
				c := a[j]
				switch {
				case c == 'e':
					b[j] = 'A'
				case strings.IndexByte(psUnixFlags, c) >= 0:
				case strings.IndexByte(psUnixValue, c) >= 0:
					if j+1 == len(a) {
						i++
					}
					break unix
				default:
					return nil, psRefused("-"+string(c), psSupported)
				}
			}
			out[idx] = string(b)
		case isLetter(a[0]):
		bsd:
			for j := 0; j < len(a); j++ {
				c := a[j]
				switch {
				case c == 'e':
					return nil, psRefused(string(c), psWhyEnv)
				case strings.IndexByte(psBSDFlags, c) >= 0:
				case strings.IndexByte(psBSDValue, c) >= 0:
					if j+1 == len(a) {
						i++
					}
					break bsd
				default:
					return nil, psRefused(string(c), psSupported)
				}
			}
		default:
			return nil, psRefused(a, psSupported)
		}
	}
	if err := psRetryCheck(out); err != nil {
		return nil, err
	}
	return out, nil
}

// psRetryCheck walks args as procps's second pass would and refuses them
// if it could reach a BSD "e". Letters it does not know are refused too:
// they could be read as options in some version.
func psRetryCheck(args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "--"):
			if name, attached := psLong(a); slices.Contains(psLongValue, name) && !attached {
				i++
			}
		case len(a) > 1 && a[0] == '-' && isLetter(a[1]):
		retry:
			for j := 1; j < len(a); j++ {
				c := a[j]
				switch {
				case c == 'e':
					return psRefused(a, `ps may read it as BSD options, where "e" prints the environment of other processes, which holds secrets`)
				case strings.IndexByte(psRetryFail, c) >= 0:
					return nil
				case strings.IndexByte(psRetryValue, c) >= 0:
					if j+1 == len(a) {
						i++
					}
					break retry
				case strings.IndexByte(psRetryFlags, c) >= 0:
				default:
					return psRefused(a, "ps may read it as BSD options; write an option's value as the next argument (-u NAME)")
				}
			}
		default:
			// A BSD option without a dash ends the second pass with an
			// error; a number starts the process IDs.
			return nil
		}
	}
	return nil
}

// psSupported lists the accepted options, for refusals.
const psSupported = "supported are the UNIX options -A -a -d -e -f -F -H -j -l -L -T -c -w -y -C -o -O -p -q -u -U, " +
	"the BSD options a c f h H j l m n r s S T u v w x k o O p q U (without a dash), " +
	"--format --sort --pid --ppid --quick-pid --sid --user --User --group --Group --cols --columns --width --rows --lines " +
	"--forest --headers --no-headers --deselect --cumulative, and process IDs"

// psLong returns the name of a GNU option "--name[=|:value]" and whether
// a value is attached.
func psLong(a string) (name string, attached bool) {
	name = a[2:]
	if k := strings.IndexAny(name, "=:"); k >= 0 {
		return name[:k], true
	}
	return name, false
}

// psRefused returns the refusal of a ps argument.
func psRefused(arg, why string) error {
	return &refusal{msg: fmt.Sprintf("option %s of ps is not allowed: %s", arg, why), err: ErrOptionDenied}
}

// isDigits reports whether a is a non-empty run of ASCII digits.
func isDigits(a string) bool {
	return a != "" && strings.Trim(a, "0123456789") == ""
}

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
