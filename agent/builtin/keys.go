package builtin

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"opsassist/internal/confkv"
	"opsassist/internal/runecut"
)

// Bounds of what a question about a file is read for: the things it
// names and the label an answer repeats. A question names a few things;
// a pasted 64 KiB one must not make every line of the file be compared
// with thousands of words, nor be echoed back whole.
const (
	// maxQuestionGroups is how many of the things a question names are
	// looked for: the last ones, since the last is what is asked.
	maxQuestionGroups = 8
	// maxLabelBytes caps the label in bytes (about 60 Latin letters or
	// 20 Chinese characters), cut at a rune boundary with "…".
	maxLabelBytes = 60
)

// questionGroups are the things a question about a file asks for, in the
// order the question names them (the last is what is asked: "数据库端口"
// asks for a port), without stop words, at most maxQuestionGroups of
// them (the last); label names them for an answer in the user's language
// ("数据库端口", "database port"), at most maxLabelBytes long.
func questionGroups(q string, zh bool) (groups []wordGroup, label string) {
	type named struct {
		at    int
		group wordGroup
		zh    string
	}
	var found []named
	lower := strings.ToLower(q)
	for _, loc := range reWord.FindAllStringIndex(lower, -1) {
		if w := lower[loc[0]:loc[1]]; !stop[w] {
			found = append(found, named{loc[0], wordGroup{w}, w})
		}
	}
	for zhWord, words := range glossary {
		if i := strings.Index(q, zhWord); i >= 0 {
			found = append(found, named{i, words, zhWord})
		}
	}
	slices.SortStableFunc(found, func(a, b named) int { return a.at - b.at })
	if len(found) > maxQuestionGroups {
		found = found[len(found)-maxQuestionGroups:]
	}
	var zhLabel, enLabel []string
	for _, f := range found {
		groups = append(groups, f.group)
		zhLabel = append(zhLabel, f.zh)
		enLabel = append(enLabel, f.group[0])
	}
	if zh {
		return groups, capLabel(strings.Join(zhLabel, ""))
	}
	return groups, capLabel(strings.Join(enLabel, " "))
}

// capLabel cuts a label to maxLabelBytes at a rune boundary, marking the
// cut with "…".
func capLabel(s string) string {
	if len(s) <= maxLabelBytes {
		return s
	}
	return runecut.Head(s, maxLabelBytes) + "…"
}

// isConfigName reports whether a file's name says it holds settings
// (keys and values), where a question names a key.
func isConfigName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".ini", ".toml", ".conf", ".cfg", ".cnf", ".env", ".properties", ".json":
		return true
	}
	return false
}

// keyFile reports whether a file is read for settings (keyAnswer): a
// configuration file by its name (isConfigName, confkv.FormatOf: ".env.local"
// too), or a file without an extension or a .txt — what `cat
// config.yaml | opsassist ask` uploads as stdin.txt — whose keys look
// like keys (sniffedKeys); a log is not.
func keyFile(name string) bool {
	_, named := confkv.FormatOf(name)
	return named || isConfigName(name) || sniffedName(name)
}

// sniffedName reports whether a file's name says nothing of its format,
// so only its content can say it is a configuration file.
func sniffedName(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	_, named := confkv.FormatOf(name)
	return !named && (ext == "" || ext == ".txt")
}

// sniffedKeys reports whether settings read from a file of no telling
// name look like a configuration's: every key a word without spaces,
// as a log line read as YAML ("2024-06-10 ERROR: x") is not.
func sniffedKeys(entries []confkv.Entry) bool {
	for _, e := range entries {
		for _, k := range confkv.Segments(e.Path) {
			if k == "" || strings.ContainsAny(k, " \t") {
				return false
			}
		}
	}
	return true
}

// isComment reports whether a line is a comment in the usual config
// syntaxes: it never answers a question about a key.
func isComment(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";") || strings.HasPrefix(t, "//")
}

// keyLines are the numbered lines (at most limit) whose key — the text
// before ":" or "=" — mentions the group: the port keys of a file asked
// for a database port it does not have.
func keyLines(content string, g wordGroup, limit int) []string {
	var out []string
	for i, line := range strings.Split(content, "\n") {
		if isComment(line) {
			continue
		}
		t := strings.TrimPrefix(strings.TrimSpace(line), "- ")
		end := strings.IndexAny(t, ":=")
		if end <= 0 {
			continue
		}
		if len(matchedGroups([]wordGroup{g}, strings.ToLower(t[:end]))) == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("%d: %s", i+1, strings.TrimSpace(line)))
		if len(out) == limit {
			break
		}
	}
	return out
}

// noSuchKey says a file has no setting for what the question asks, and
// lists the keys of that kind it does have.
func noSuchKey(zh bool, name, label string, keys []string) string {
	t := lang(zh)
	s := fmt.Sprintf("No %[2]s setting found in %[1]s.", name, label)
	if zh {
		// The label is spaced from the Chinese around it; the file's
		// name is kept as written.
		s = name + spaceHanLatin(fmt.Sprintf(" 里没有找到%s的配置项。", label))
	}
	if len(keys) > 0 {
		s += t("\n文件里有这些相关的配置项：\n", "\nThe related settings it has:\n") + quotedBlock(keys)
	}
	return s
}

// isPortGroup reports whether a group asks for a port ("端口", "port").
func isPortGroup(g wordGroup) bool {
	return len(g) > 0 && g[0] == "port"
}
