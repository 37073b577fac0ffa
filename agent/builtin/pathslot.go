package builtin

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"opsassist/internal/pathtext"
)

// The paths a message names are found by package internal/pathtext,
// the one owner of where a path starts and ends in prose (CJK names
// kept whole, Chinese glued after a path cut off, quoted paths taken
// whole); every slot that takes a path reads it through these.

// absPath is the first absolute or ~ path in text, "" when there is
// none; it may be "/" itself.
func absPath(text string) string {
	p, _ := pathtext.First(text, func(p pathtext.Path) bool { return p.Abs })
	return p.Text
}

// absRef is the first absolute or ~ path in text, with where it is.
func absRef(text string) (pathtext.Path, bool) {
	return pathtext.First(text, func(p pathtext.Path) bool { return p.Abs })
}

// relPath is the first relative path in text with a name after its
// directory (workspace/应用.log), "" when there is none.
func relPath(text string) string {
	p, _ := pathtext.First(text, func(p pathtext.Path) bool { return !p.Abs && !p.Dir() })
	return p.Text
}

// relDir is the first relative directory in text, written with its
// trailing slash (workspace/), "" when there is none.
func relDir(text string) string {
	p, _ := pathtext.First(text, func(p pathtext.Path) bool { return !p.Abs && p.Dir() })
	return p.Text
}

// namesPath reports whether text names a path of the server: an
// absolute one other than "/" itself, or a relative one with a name
// after its directory.
func namesPath(text string) bool {
	_, ok := pathtext.First(text, func(p pathtext.Path) bool { return p.Abs && p.Text != "/" || !p.Abs && !p.Dir() })
	return ok
}

// reSpacedName is the rest of a file name after one space, up to its
// extension: "2026.xlsx" in /home/deploy/报表 2026.xlsx.
var reSpacedName = compile(`^ ([\p{L}\p{N}_\-]+(?:\.[A-Za-z0-9]+)+)(?:$|[\s"'”’)）:：,，。.?？!！;；]|\p{Han})`)

// reNamePart is a name without dots.
var reNamePart = compile(`^[\p{L}\p{N}_\-]+$`)

// spacedFile is the file p names, read over one space when p ends in a
// name without an extension and a name with one follows ("/home/deploy/报表
// 2026.xlsx"): how a request names a file whose name has a space. The
// name before the space is not all ASCII, or the one after starts with
// a digit; "/var/log/messages app.log" names two files.
func spacedFile(text string, p pathtext.Path) string {
	if p.Quoted || p.End >= len(text) || p.Dir() {
		return p.Text
	}
	base := p.Text[strings.LastIndexByte(p.Text, '/')+1:]
	if base == "" || strings.Contains(base, ".") || !reNamePart.MatchString(base) {
		return p.Text
	}
	if m := reSpacedName.FindStringSubmatch(spacedTail(text[p.End:])); m != nil && (!asciiOnly(base) || m[1][0] >= '0' && m[1][0] <= '9') {
		return p.Text + " " + m[1] // not "/var/log/messages app.log": two files
	}
	return p.Text
}

// spacedTail is the start of rest that reSpacedName can match: a space,
// the letters, digits, _, - and dots after it, and the one rune after
// them. The match, from rest's start, lies within it: its name is such
// characters and one rune ends it; and $ can match at its end only where
// rest ends, as a name cannot take in the rune after them. Matching it
// instead of rest (all the message after a path) keeps each path's cost
// to its own words, not the message's.
func spacedTail(rest string) string {
	if !strings.HasPrefix(rest, " ") {
		return ""
	}
	i := 1
	for i < len(rest) {
		r, size := utf8.DecodeRuneInString(rest[i:])
		i += size
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_' && r != '-' && r != '.' {
			break // the rune after them, kept
		}
	}
	return rest[:i]
}

// restorePaths gives in's path arguments, and the other words it took
// from the message, back as the message wrote them. The planner reads
// a message with its traditional characters read as simplified,
// homophones and typos repaired (typo.go, dialect.go), but a path names
// a file and a pattern is looked for as written: "cat /srv/資料/記錄.log"
// must open 資料/記錄.log, "grep 錯誤 …" look for 錯誤. text is the
// message as normalize leaves it; each argument that is a path of text
// (pathtext), a word of it with a character beyond ASCII, or a quoted
// phrase, read that way, becomes what was written at the place the
// planner read it. On a command line that place is the argument's
// position (lineWords: "grep ERROR /srv/资料/a.log /srv/資料/a.log" keeps
// both). Elsewhere the planner does not say where it read an argument,
// so it is given back only when one thing written reads so; when two
// written differently read the same ("cat /srv/资料/a.log (not
// /srv/資料/a.log)", "grep 错误 …，别搜 錯誤") it stays as the planner
// read it, since restoring by value could put in the one the user
// excluded. The cost is linear in len(text) plus the arguments', and
// lineWords tries at most maxLineStarts places.
func (c *commands) restorePaths(in Intent, text string) Intent {
	if in.Tool != "command_executor" && in.Tool != "file_download" {
		return in
	}
	var written map[string]string // as the planner read it → as written, "" when two differ
	restores := false
	add := func(w string) {
		read := c.fixTypos(w)
		restores = restores || read != w
		if written == nil {
			written = map[string]string{}
		}
		if prev, seen := written[read]; seen && prev != w {
			written[read] = "" // two written forms read the same
			return
		}
		written[read] = w
	}
	pathtext.All(text, func(p pathtext.Path) bool {
		add(p.Text)
		add(spacedFile(text, p))
		return true
	})
	for _, w := range strings.Fields(text) {
		if !asciiOnly(w) {
			add(w) // a command line's argument: "tail /AAA0應用/#0", "grep 錯誤"
		}
	}
	for _, m := range reQuoted.FindAllStringSubmatch(text, -1) {
		add(m[1]) // a pattern: "search /x.log for '連線逾時'"
	}
	if !restores {
		return in
	}
	args := maps.Clone(in.Args)
	if list, ok := args["args"].([]any); ok {
		list = slices.Clone(list)
		if words, ok := c.lineWords(text, in.Args["command"], list); ok {
			// A command line: each argument is the word written where
			// the planner read it.
			for i, a := range list {
				if s, _ := a.(string); s != words[i] && (!asciiOnly(words[i]) || written[s] == words[i]) {
					list[i] = words[i]
				}
			}
		} else {
			for i, a := range list {
				if s, ok := a.(string); ok && written[s] != "" {
					list[i] = written[s]
				}
			}
		}
		args["args"] = list
	}
	if s, ok := args["file_path"].(string); ok && written[s] != "" {
		args["file_path"] = written[s]
		if in.Query == s {
			in.Query = written[s]
		}
	}
	in.Args = args
	return in
}

// maxLineStarts bounds the places lineWords tries a command line at.
const maxLineStarts = 4

// lineWords are the words text writes for args when it writes them as a
// command line — the command, then one word per argument, each read as
// the planner reads it (splitCommand, fixTypos) — so that an argument is
// given back from its own position, not from another word that reads
// the same. ok is false when text writes no such line.
func (c *commands) lineWords(text string, command any, args []any) ([]string, bool) {
	name, _ := command.(string)
	if name == "" {
		return nil, false
	}
	words := splitCommand(text)
	tries := 0
	for j, w := range words {
		if len(words)-j-1 < len(args) || tries == maxLineStarts {
			break
		}
		if w != name && c.fixTypos(w) != name {
			continue
		}
		tries++
		ok := true
		for i, a := range args {
			s, _ := a.(string)
			if w := words[j+1+i]; w != s && c.fixTypos(w) != s {
				ok = false
				break
			}
		}
		if ok {
			return words[j+1 : j+1+len(args)], true
		}
	}
	return nil, false
}
