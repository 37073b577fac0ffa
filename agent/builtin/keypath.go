package builtin

import (
	"regexp"
	"strings"
	"unicode"
)

// reKeyPath is a key written as a configuration file writes it: words
// joined by dots, underscores or dashes, list indexes after them
// ("server.port", "DATABASE_PORT", "services.db.port", "servers[0].host").
var reKeyPath = compile(`[A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z0-9_\-]+|\[\d+\])*`)

// withoutFileNames is a question without the names of files in it: the
// file read (name, when it has an extension: a bare "redis" may be the
// key asked for too) and any configuration file it names (reConfName).
// "what's the database port in app.toml?" asks for database.port, not
// for a setting of "app"; "services.json 里 db 的端口" for db's port.
func withoutFileNames(q, name string) string {
	if strings.Contains(strings.Trim(name, "."), ".") && len(name) <= 255 {
		// The name as a word: "app.toml" is not stripped from
		// "myapp.toml_path".
		pat := regexp.QuoteMeta(name)
		if isWordByte(name[0]) {
			pat = `\b` + pat
		}
		if isWordByte(name[len(name)-1]) {
			pat += `\b`
		}
		q = regexp.MustCompile(`(?i)`+pat).ReplaceAllStringFunc(q, func(m string) string { return strings.Repeat(" ", len(m)) })
	}
	b := []byte(q)
	for off := 0; off < len(q); {
		m := reConfName.FindStringSubmatchIndex(q[off:])
		if m == nil {
			break
		}
		for k := off + m[2]; k < off+m[3]; k++ {
			b[k] = ' '
		}
		off += m[3]
	}
	return string(b)
}

// writtenKey reports whether a word of a question is written as a key
// is, not as a word of prose: with a dot, an underscore, a dash or a
// list index inside it, or in camelCase ("dbPort").
func writtenKey(w string) bool {
	if strings.ContainsAny(strings.Trim(w, "._-"), "._-[") {
		return true
	}
	rs := []rune(w)
	for i := 1; i < len(rs); i++ {
		if unicode.IsLower(rs[i-1]) && unicode.IsUpper(rs[i]) {
			return true
		}
	}
	return false
}

// namedPath is the settings a question names by their key as written
// ("what is services.db.port", "DATABASE_PORT 是多少"): the settings
// whose path is that key, letter case aside, else those whose path ends
// in it at a key's boundary ("db.port" → services.db.port). label is
// the key as the question writes it. A key written in the question that
// no setting has names nothing: the question's words are read then.
// Of a long question only the last maxQuestionGroups keys written are
// looked for, as of its words (keyTerms): the work is at most that many
// passes over the settings.
func namedPath(q string, entries []setting) (found []setting, label string) {
	var keys []string
	for _, w := range reKeyPath.FindAllString(q, -1) {
		if w = strings.Trim(w, ".-"); writtenKey(w) {
			keys = append(keys, w)
		}
	}
	if len(keys) == 0 {
		return nil, ""
	}
	keys = keys[max(0, len(keys)-maxQuestionGroups):]
	lower := make([]string, len(entries))
	for i, e := range entries {
		lower[i] = strings.ToLower(e.Path)
	}
	for _, w := range keys {
		lw := strings.ToLower(w)
		var exact, suffix []setting
		for i, p := range lower {
			switch {
			case p == lw:
				exact = append(exact, entries[i])
			case len(p) > len(lw) && p[len(p)-len(lw)-1] == '.' && strings.HasSuffix(p, lw):
				suffix = append(suffix, entries[i])
			}
		}
		switch {
		case len(exact) > 0:
			return exact, w
		case len(suffix) > 0:
			return suffix, w
		}
	}
	return nil, ""
}
