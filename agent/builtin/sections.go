package builtin

import (
	"fmt"
	"strings"
	"unicode"
)

// wordGroup is one thing a question asks about, in the words a config
// file may use for it: a word of the question itself ("port"), or a
// glossary entry's words ("数据库" → database, db, mysql, postgres).
type wordGroup []string

// scopedLines answers "the database's port" in YAML-, INI- or TOML-like
// text: the lines that mention one group themselves and another group in
// the line or in the sections around them ("port: 5432" under
// "database:" or "[mysql]"), each after the header lines of its
// sections, numbered from 1. It returns nil when no line ties two groups
// together; the caller then quotes every line that mentions one.
func scopedLines(content string, groups []wordGroup, limit int) []string {
	if len(groups) < 2 {
		return nil
	}
	type section struct {
		indent int
		line   int    // 0-based
		name   string // lower case
	}
	var yaml []section // open YAML mappings, outermost first
	var ini *section   // the current [section] of INI/TOML text
	lines := strings.Split(content, "\n")
	var out []string
	shown := map[int]bool{}
	show := func(i int) {
		if !shown[i] {
			shown[i] = true
			out = append(out, fmt.Sprintf("%d: %s", i+1, strings.TrimSpace(lines[i])))
		}
	}
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		if t[0] == '[' && strings.HasSuffix(t, "]") {
			ini, yaml = &section{line: i, name: strings.ToLower(strings.Trim(t, "[] "))}, nil
			continue
		}
		for len(yaml) > 0 && yaml[len(yaml)-1].indent >= indent {
			yaml = yaml[:len(yaml)-1]
		}
		key, value, isKey := strings.Cut(strings.TrimPrefix(t, "- "), ":")
		if isKey && strings.TrimSpace(value) == "" {
			yaml = append(yaml, section{indent: indent, line: i, name: strings.ToLower(key)})
			continue
		}
		own := matchedGroups(groups, strings.ToLower(t))
		if len(own) == 0 {
			continue
		}
		var around []section
		if ini != nil {
			around = append(around, *ini)
		}
		around = append(around, yaml...)
		tied := len(own) > 1
		for _, s := range around {
			for g := range matchedGroups(groups, s.name) {
				tied = tied || !own[g]
			}
		}
		if !tied {
			continue
		}
		for _, s := range around {
			show(s.line)
		}
		show(i)
		if len(out) >= limit {
			break
		}
	}
	return out
}

// matchedGroups returns the indexes of the groups s mentions: a word of
// three or more letters anywhere in s, a shorter one ("db") as a whole
// word.
func matchedGroups(groups []wordGroup, s string) map[int]bool {
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	m := map[int]bool{}
	for gi, g := range groups {
		for _, w := range g {
			if stop[w] {
				continue
			}
			if len(w) > 2 && strings.Contains(s, w) || len(w) <= 2 && containsWord(words, w) {
				m[gi] = true
				break
			}
		}
	}
	return m
}

func containsWord(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}
