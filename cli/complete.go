package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"opsassist/client"
)

// maxCompletions bounds the candidates one Tab offers.
const maxCompletions = 200

// slashCommands returns the REPL's slash commands, read from replHelp so
// the help and the completion cannot disagree.
func slashCommands() []string {
	var cmds []string
	for _, l := range strings.Split(replHelp, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && strings.HasPrefix(f[0], "/") {
			cmds = append(cmds, f[0])
		}
	}
	return cmds
}

// complete is the REPL's Tab completion (liner's Completer): the slash
// commands; after /switch, /delete, /rename and /export the
// conversation ids the REPL knows (refreshCompletion's list, newest
// first, and the current one, but not after /switch); after /model the
// model names; after /upload file names. It returns whole lines.
func (r *repl) complete(line string) []string {
	if !strings.HasPrefix(line, "/") {
		return nil
	}
	cmd, arg, hasArg := strings.Cut(line, " ")
	if !hasArg {
		var out []string
		for _, c := range slashCommands() {
			if strings.HasPrefix(c, cmd) {
				out = append(out, c+" ")
			}
		}
		return out
	}
	arg = strings.TrimLeft(arg, " ")
	switch cmd {
	case "/switch", "/delete", "/rename", "/export":
		if strings.Contains(arg, " ") {
			return nil // past the id: a title, a format or a path
		}
		var out []string
		for _, id := range r.sessionCandidates(cmd) {
			if strings.HasPrefix(id, arg) {
				out = append(out, cmd+" "+id)
			}
		}
		return out
	case "/model":
		var out []string
		for _, m := range r.modelNames {
			if strings.HasPrefix(m, arg) {
				out = append(out, cmd+" "+m)
			}
		}
		return out
	case "/upload":
		return prefixAll(cmd+" ", r.completeFile(arg))
	}
	return nil
}

// completeWord is complete as liner's WordCompleter, so that with
// liner.TabPrints a second Tab lists the candidates (like bash) as the
// words they complete, not as whole lines: head is the command and its
// space ("" while the command itself is typed), completions the rest of
// each of complete's lines, tail the line after the cursor (pos, in
// runes).
func (r *repl) completeWord(line string, pos int) (head string, completions []string, tail string) {
	rs := []rune(line)
	pos = min(max(pos, 0), len(rs))
	before, tail := string(rs[:pos]), string(rs[pos:])
	if cmd, _, ok := strings.Cut(before, " "); ok {
		head = cmd + " "
	}
	for _, l := range r.complete(before) {
		if c, ok := strings.CutPrefix(l, head); ok {
			completions = append(completions, c)
		}
	}
	return head, completions, tail
}

// knownSessions returns the conversations of the last list (a
// /sessions or refreshCompletion's), newest first, then the current
// one if the list lacks it, without duplicates.
func (r *repl) knownSessions() []string {
	ids := slices.Clone(r.sessionIDs)
	if r.session != "" && !slices.Contains(ids, r.session) {
		ids = append(ids, r.session)
	}
	return ids
}

// noteSessions remembers the conversation ids of a /sessions result for
// Tab completion.
func (r *repl) noteSessions(res client.Result) {
	if res.Kind != client.KindSessionList {
		return
	}
	var l client.SessionList
	if err := res.Decode(&l); err != nil {
		return // printResult shows what came
	}
	r.rememberSessions(l)
}

// rememberSessions remembers the conversation ids of list for Tab
// completion.
func (r *repl) rememberSessions(l client.SessionList) {
	r.sessionIDs = r.sessionIDs[:0]
	for _, s := range l.Sessions {
		r.sessionIDs = append(r.sessionIDs, s.SessionID)
	}
}

// completeFile returns the paths starting with prefix (as typed, "~/"
// included), directories with a trailing separator.
func (r *repl) completeFile(prefix string) []string {
	matches, err := filepath.Glob(globEscape(r.expandHome(prefix)) + "*")
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range matches[:min(len(matches), maxCompletions)] {
		shown := m
		if strings.HasPrefix(prefix, "~/") {
			if rel, err := filepath.Rel(r.expandHome("~/"), m); err == nil {
				shown = "~/" + rel
			}
		}
		if st, err := os.Stat(m); err == nil && st.IsDir() {
			shown += string(filepath.Separator)
		}
		out = append(out, shown)
	}
	return out
}

// globEscape escapes filepath.Match's special characters in s.
func globEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`).Replace(s)
}

// prefixAll returns each of s with p before it.
func prefixAll(p string, s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = p + v
	}
	return out
}
