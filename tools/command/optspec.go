package command

import (
	"fmt"
	"slices"
	"strings"
)

// optSpec describes how a command parses its arguments, so that file
// arguments can be found and checked and dangerous options refused. The
// GNU tools use getopt_long: options may come after operands, "--" ends
// them, short options cluster ("-rn"), a short option's value may be
// attached ("-n5") or the next argument, and a long option may be
// abbreviated to any unambiguous prefix ("--fol" is --follow).
type optSpec struct {
	// name is the command, for error messages.
	name string
	// shortValue lists the short options that take a value.
	shortValue string
	// longValue lists the long options that require a value ("--lines=5"
	// or "--lines 5"). Options with an optional value ("--color[=WHEN]")
	// take it only attached and are not listed.
	longValue []string
	// pathValue lists options, short or long, whose value names a file
	// the command reads. Their values are checked like file operands.
	pathValue []string
	// patternValue lists options, short or long, that supply grep's
	// patterns; when one is given, no operand is a pattern.
	patternValue []string
	// deny lists refused options, short or long. A long option written
	// as any prefix of a denied name is refused too, even where getopt
	// would call it ambiguous.
	deny []string
	// denyInCluster lists letters refused anywhere in a short option
	// cluster, even inside an attached value: tail's -n and -c values
	// never contain an "f", so "-nf" is refused with "-f" and "-fn10".
	denyInCluster string
	// obsoleteFollow refuses tail's obsolete forms that follow a file,
	// "+f", "+5f", "-10lf", "-cf" (see isObsoleteFollow).
	obsoleteFollow bool
	// operandsArePaths means every operand names a file and is always
	// checked. Otherwise an operand is checked when it looks like a path.
	operandsArePaths bool
	// patternFirst means the first operand is grep's pattern, not a file,
	// unless a patternValue option is given.
	patternFirst bool
	// check, if set, replaces the table: it checks all the arguments
	// and returns them as the command is to run them (ps, see checkPS).
	check func(args []string) ([]string, error)
	// generic marks a command without a table: every suffix of a short
	// option cluster is treated as a possible attached file value.
	generic bool
	// why says, for the user, why the denied options are refused.
	why string
	// derefPinned is the option that makes the command follow links
	// named on its command line, added when files are pinned: ls shows
	// /proc/self/fd/N itself, a link, without it.
	derefPinned string
}

// optSpecFor returns the parsing rules for a command. The denied options,
// and why:
//
//	grep  -r -R --recursive --dereference-recursive -d --directories
//	      recursion reads every file under a directory, past the deny list
//	      (.env, *.pem, .ssh …) and, with -R, through links out of the roots.
//	      -f/--file and --exclude-from read a file: checked as paths.
//	tail  -f -F --follow (=name, =descriptor) and "f" anywhere in a short
//	      cluster ("-nf", "-fn10", "-Fq"); the obsolete "+f", "+5f", "-cf",
//	      "-10lf"; and -s --sleep-interval --pid --retry
//	      --max-unchanged-stats, which only matter when following: any of
//	      them keeps the command running until its timeout.
//	free  -s --seconds -c --count: repeat the report forever or N times.
//	ls    -L --dereference: with -R follows links out of the roots.
//	      --dereference-command-line-symlink-to-dir: would undo the -H
//	      the executor adds so that pinned operands are listed as files.
//	ps    everything but the options listed at checkPS: BSD "e" prints
//	      the environment of other processes, which for the server itself
//	      holds its API keys, and procps reads "-ex" as BSD options.
//	      procps ps has no option that repeats.
//	cat, head, df, pwd, whoami: nothing denied; none of them
//	      executes, writes or reads a file other than its operands.
//
// A command without a table (added to the whitelist by configuration) gets
// a generic spec: no options denied, and any argument or attached value
// that looks like a path is checked.
func optSpecFor(name string) optSpec {
	s := optSpecTable(name)
	s.name = name
	return s
}

// optSpecTable holds the tables documented at optSpecFor.
func optSpecTable(name string) optSpec {
	switch name {
	case "cat":
		return optSpec{operandsArePaths: true}
	case "head":
		return optSpec{shortValue: "cn", longValue: []string{"bytes", "lines"}, operandsArePaths: true}
	case "tail":
		return optSpec{
			why:              "it would keep tail running until it is killed (following the file)",
			shortValue:       "cn",
			longValue:        []string{"bytes", "lines"},
			deny:             []string{"f", "F", "s", "follow", "sleep-interval", "pid", "retry", "max-unchanged-stats"},
			denyInCluster:    "fF",
			obsoleteFollow:   true,
			operandsArePaths: true,
		}
	case "grep":
		return optSpec{
			shortValue: "efmABCD",
			longValue: []string{"regexp", "file", "max-count", "label", "binary-files", "devices",
				"include", "exclude", "exclude-from", "exclude-dir", "before-context",
				"after-context", "context", "group-separator"},
			why:              "recursion would read files past the secret deny list",
			pathValue:        []string{"f", "file", "exclude-from"},
			patternValue:     []string{"e", "regexp", "f", "file"},
			deny:             []string{"r", "R", "d", "recursive", "dereference-recursive", "directories"},
			operandsArePaths: true,
			patternFirst:     true,
		}
	case "ls":
		return optSpec{
			shortValue: "ITw",
			longValue: []string{"block-size", "format", "hide", "ignore", "indicator-style",
				"quoting-style", "sort", "tabsize", "time", "time-style", "width"},
			why:              "it follows symbolic links out of the allowed directories",
			derefPinned:      "--dereference-command-line",
			deny:             []string{"L", "dereference", "dereference-command-line-symlink-to-dir"},
			operandsArePaths: true,
		}
	case "df":
		return optSpec{shortValue: "Btx", longValue: []string{"block-size", "type", "exclude-type"}, operandsArePaths: true}
	case "free":
		return optSpec{deny: []string{"s", "c", "seconds", "count"}, why: "it repeats the report instead of printing it once"}
	case "ps":
		// No ps argument names a file.
		return optSpec{check: checkPS}
	case "pwd", "whoami":
		return optSpec{}
	}
	return optSpec{generic: true}
}

// argKind says how to check one argument.
type argKind int

const (
	// argFile names a file: always checked.
	argFile argKind = iota + 1
	// argMaybeFile is checked if it looks like a path.
	argMaybeFile
	// argPattern is grep's pattern operand: never a file.
	argPattern
)

// classified is an argument, or the value part of one, to check.
type classified struct {
	arg  string
	kind argKind
	// idx is the index of the argument holding arg; prefix is what
	// precedes arg in it ("--file=", "-f", or "" for a whole argument),
	// so that arg can be replaced.
	idx    int
	prefix string
}

// parse checks a command line against the spec, once, and returns the
// arguments as the command is to run them (as given, or as check
// rewrote them: ps) and the arguments and option values to check as
// files (none for a spec with check). An error wraps ErrOptionDenied.
func (s optSpec) parse(args []string) (run []string, items []classified, err error) {
	if s.check != nil {
		run, err = s.check(args)
		return run, nil, err
	}
	items, err = s.classify(args)
	return args, items, err
}

// classify walks args as the command will parse them and returns the
// arguments and option values to check, or an error wrapping
// ErrOptionDenied. Options and values that cannot name a file are left
// out. When unsure whether an argument is a value or an operand it errs
// towards checking it.
func (s optSpec) classify(args []string) ([]classified, error) {
	var out []classified
	var operands []int // indexes into out
	patternGiven := false
	operand := func(i int) {
		operands = append(operands, len(out))
		out = append(out, classified{arg: args[i], kind: argMaybeFile, idx: i})
	}
	value := func(i int, prefix string, kind argKind) {
		out = append(out, classified{arg: args[i][len(prefix):], kind: kind, idx: i, prefix: prefix})
	}
	if s.check != nil {
		_, err := s.check(args)
		return nil, err
	}
	start := 0
	if s.obsoleteFollow && obsoleteTail(args) {
		// "tail +5 x": the first argument is an option, not a file.
		if isObsoleteFollow(args[0]) {
			return nil, s.denied(args[0])
		}
		start = 1
	}
	for i := start; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			for j := i + 1; j < len(args); j++ {
				operand(j)
			}
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, val, attached := strings.Cut(a[2:], "=")
			if s.denies(name) {
				return nil, s.denied(a)
			}
			exact, isPath, isPattern, known := s.long(name)
			switch {
			case attached && isPath:
				value(i, a[:len(a)-len(val)], argFile)
			case attached && !known:
				value(i, a[:len(a)-len(val)], argMaybeFile)
			case attached:
			case isPath && i+1 < len(args):
				i++
				value(i, "", argFile)
			case exact && i+1 < len(args):
				i++ // a required value that cannot name a file
			default:
				// A flag, or an abbreviation getopt may read differently:
				// the next argument stays an operand and is checked.
				isPattern = false
			}
			patternGiven = patternGiven || isPattern
		case len(a) > 1 && a[0] == '-' && s.generic:
			// Without a table any suffix may be an attached value.
			for j := 1; j < len(a); j++ {
				value(i, a[:j], argMaybeFile)
			}
		case len(a) > 1 && a[0] == '-':
			opt, val, err := s.short(a)
			if err != nil {
				return nil, err
			}
			if opt == "" {
				continue
			}
			patternGiven = patternGiven || slices.Contains(s.patternValue, opt)
			idx, prefix := i, a[:len(a)-len(val)]
			if val == "" && i+1 < len(args) {
				i++
				idx, prefix = i, ""
			}
			if slices.Contains(s.pathValue, opt) && idx < len(args) {
				value(idx, prefix, argFile)
			}
		default:
			if s.obsoleteFollow && isObsoleteFollow(a) {
				return nil, s.denied(a)
			}
			operand(i)
		}
	}
	for n, idx := range operands {
		switch {
		case n == 0 && s.patternFirst && !patternGiven:
			out[idx].kind = argPattern
		case s.operandsArePaths:
			out[idx].kind = argFile
		}
	}
	return out, nil
}

// denies reports whether the long option name, or the option it
// abbreviates, is denied.
func (s optSpec) denies(name string) bool {
	for _, d := range s.deny {
		if len(d) > 1 && name != "" && strings.HasPrefix(d, name) {
			return true
		}
	}
	return false
}

// long resolves a long option name against the table. exact means name
// is a listed value option; isPath and isPattern mean it is, or may
// abbreviate, an option whose value is a file or a pattern; known means
// it matches at least one listed value option.
func (s optSpec) long(name string) (exact, isPath, isPattern, known bool) {
	for _, o := range slices.Concat(s.longValue, s.pathValue) {
		if len(o) < 2 || !strings.HasPrefix(o, name) {
			continue
		}
		known = true
		exact = exact || o == name
		isPath = isPath || slices.Contains(s.pathValue, o)
		isPattern = isPattern || slices.Contains(s.patternValue, o)
	}
	if exact {
		isPath = slices.Contains(s.pathValue, name)
		isPattern = slices.Contains(s.patternValue, name)
	}
	return exact, isPath, isPattern, known
}

// short walks a short option cluster such as "-rn", "-n5" or "-f/x" and
// returns the option that takes a value, if any, with the rest of the
// cluster: its value, or "" if the value is the next argument.
func (s optSpec) short(a string) (opt, val string, err error) {
	if k := strings.IndexAny(a, s.denyInCluster); s.denyInCluster != "" && k > 0 {
		return "", "", s.denied("-" + a[k:k+1])
	}
	for j := 1; j < len(a); j++ {
		c := string(a[j])
		if slices.Contains(s.deny, c) {
			return "", "", s.denied("-" + c)
		}
		if strings.Contains(s.shortValue, c) {
			return c, a[j+1:], nil
		}
	}
	return "", "", nil
}

// denied returns the error for a refused option.
func (s optSpec) denied(opt string) error {
	return &refusal{msg: fmt.Sprintf("option %s of %s is not allowed: %s", opt, s.name, s.why), err: ErrOptionDenied}
}

// obsoleteTail reports whether GNU tail reads args[0] as its obsolete
// option [+-][NUM][b|c|l][f] rather than as a file: only when it is
// followed by at most one file, or by "--" and at most one file
// (parse_obsolete_option in coreutils' tail.c).
func obsoleteTail(args []string) bool {
	n := len(args)
	if !(n == 1 ||
		n == 2 && !(strings.HasPrefix(args[1], "-") && len(args[1]) > 1) ||
		(n == 2 || n == 3) && args[1] == "--") {
		return false
	}
	a := args[0]
	switch {
	case a == "" || a[0] != '+' && a[0] != '-':
		return false
	case a == "-" || a == "-c":
		// Standard input, and -c waiting for its value.
		return false
	}
	rest := strings.TrimLeft(a[1:], "0123456789")
	if rest != "" && strings.IndexByte("bcl", rest[0]) >= 0 {
		rest = rest[1:]
	}
	return rest == "" || rest == "f"
}

// isObsoleteFollow reports whether a is GNU tail's obsolete option
// [+-][NUM][b|c|l]f, which follows the file. tail accepts it as its first
// argument ("tail +f x" follows x); it is refused anywhere.
func isObsoleteFollow(a string) bool {
	if len(a) < 2 || a[0] != '+' && a[0] != '-' {
		return false
	}
	rest := strings.TrimLeft(a[1:], "0123456789")
	if rest != "" && strings.IndexByte("bcl", rest[0]) >= 0 {
		rest = rest[1:]
	}
	return rest == "f"
}
