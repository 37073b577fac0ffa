package builtin

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"opsassist/internal/confkv"
)

// Bounds of a key answer.
const (
	// maxKeyCandidates is how many settings an answer lists.
	maxKeyCandidates = 10
	// maxValueBytes caps a value shown, cut at a rune boundary with "…".
	maxValueBytes = 160
)

// keyTerm is one thing a question about a setting names: its words in
// config files and how the answer says it.
type keyTerm struct {
	at    int // byte offset in the question
	words wordGroup
	label string // the question's own word ("数据库", "db")
}

// keyStop are English question words that never name a setting.
var keyStop = map[string]bool{
	"on": true, "at": true, "to": true, "do": true, "my": true, "me": true, "we": true, "an": true, "be": true, "by": true,
	"or": true, "if": true, "it": true, "so": true, "up": true, "no": true, "set": true, "value": true, "values": true,
	"setting": true, "settings": true, "config": true, "configured": true, "configuration": true, "current": true,
	"currently": true, "use": true, "uses": true, "used": true, "using": true, "give": true, "find": true, "key": true,
	"keys": true, "for": true, "our": true, "its": true, "there": true, "where": true, "which": true, "who": true,
	"please": true, "can": true, "you": true, "uploaded": true, "upload": true, "yaml": true, "json": true, "toml": true,
	"ini": true, "env": true, "properties": true, "yml": true,
	// Verbs a question about a setting uses ("what port does the server
	// listen on"): a key may hold them, but the question does not ask
	// for it.
	"listen": true, "listens": true, "listening": true, "run": true, "runs": true, "running": true, "connect": true,
	"connects": true, "point": true, "points": true, "talk": true, "talks": true, "configure": true,
	"allow": true, "allowed": true, "much": true, "number": true, "tell": true, "show": true, "get": true,
	"whats": true, "look": true, "check": true, "know": true, "want": true, "need": true, "here": true, "file": true,
	"files": true, "was": true, "were": true, "has": true, "have": true, "did": true, "will": true,
}

// keyTerms are the things a question names, in its order: glossary
// words (the longest at each place), then English words of two letters
// or more that are not stop words.
func keyTerms(q string) []keyTerm {
	var terms []keyTerm
	zhWords := make([]string, 0, len(glossary))
	for w := range glossary {
		zhWords = append(zhWords, w)
	}
	slices.SortFunc(zhWords, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	taken := make([]bool, len(q))
	for _, w := range zhWords {
		for off := 0; ; {
			i := strings.Index(q[off:], w)
			if i < 0 {
				break
			}
			i += off
			off = i + len(w)
			if slices.Contains(taken[i:i+len(w)], true) {
				continue
			}
			for k := i; k < i+len(w); k++ {
				taken[k] = true
			}
			terms = append(terms, keyTerm{at: i, words: glossary[w], label: w})
		}
	}
	lower := strings.ToLower(q)
	prevEnd, prevKept := -1, false
	for _, loc := range reKeyWord.FindAllStringIndex(lower, -1) {
		w := lower[loc[0]:loc[1]]
		// "key" names nothing alone ("which key holds the port") but is
		// part of a name after a word ("signing key", "api-key").
		compound := (w == "key" || w == "keys") && prevKept && loc[0]-prevEnd == 1 && strings.ContainsRune(" -_", rune(lower[prevEnd]))
		prevEnd = loc[1]
		if (stop[w] || keyStop[w]) && !compound {
			prevKept = false
			continue
		}
		prevKept = true
		terms = append(terms, keyTerm{at: loc[0], words: englishGroup(w), label: w})
	}
	slices.SortStableFunc(terms, func(a, b keyTerm) int { return a.at - b.at })
	// A thing named twice ("which port is the server port") is one
	// thing, where it is named last.
	later := map[string]bool{}
	for i := len(terms) - 1; i >= 0; i-- {
		if later[terms[i].label] {
			terms[i].label = ""
		}
		later[terms[i].label] = true
	}
	terms = slices.DeleteFunc(terms, func(t keyTerm) bool { return t.label == "" })
	if len(terms) > maxQuestionGroups {
		terms = terms[len(terms)-maxQuestionGroups:]
	}
	return terms
}

var reKeyWord = compile(`[a-z][a-z0-9]+`)

// englishGroup is the words config files use for an English word of a
// question: the glossary's group it heads ("database" → db, mysql,
// datasource …; the smallest when several do), else the word alone.
func englishGroup(w string) wordGroup {
	var best wordGroup
	for _, g := range glossary {
		if g[0] == w && (best == nil || len(g) < len(best) || len(g) == len(best) && strings.Join(g, " ") < strings.Join(best, " ")) {
			best = g
		}
	}
	if best == nil {
		return wordGroup{w}
	}
	return best
}

// pathTokens are the words of a key path, lower case: its keys split at
// "_", "-", spaces and camelCase ("dbPort" → db, port); leaf is those of
// its last key. List indexes are left out.
func pathTokens(path string) (all, leaf []string) {
	return keyWords{}.of(path)
}

// keyWords remembers the words of the keys split so far: a file's
// paths repeat the keys above them, and each is split once.
type keyWords map[string][]string

// of is pathTokens, each key split once.
func (kw keyWords) of(path string) (all, leaf []string) {
	split := func(k string) []string {
		w, ok := kw[k]
		if !ok {
			w = splitKey(k)
			kw[k] = w
		}
		return w
	}
	segs := confkv.Segments(path)
	for i := len(segs) - 1; i >= 0; i-- {
		if !strings.HasPrefix(segs[i], "[") {
			leaf = split(segs[i])
			break
		}
	}
	for _, s := range segs {
		if !strings.HasPrefix(s, "[") {
			all = append(all, split(s)...)
		}
	}
	return all, leaf
}

// splitKey splits one key into its lower-case words.
func splitKey(k string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(k)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// termMatches reports whether a term names one of the tokens: the same
// word, a longer form of it ("host" → hostname, "timeout" → timeouts)
// or its plural ("ports" → port).
func termMatches(t keyTerm, tokens []string) bool {
	for _, w := range t.words {
		for _, tk := range tokens {
			if tk == w || len(w) >= 3 && strings.HasPrefix(tk, w) || len(w) == len(tk)+1 && w[len(tk)] == 's' && strings.HasPrefix(w, tk) {
				return true
			}
		}
	}
	return false
}

// keyCandidate is a setting a question may ask for.
type keyCandidate struct {
	setting
	exact int // how many of the question's things it names word for word
	depth int // how many words its path has
}

// keyAnswer answers a question about a setting from a configuration
// file that parses (internal/confkv). The things the question names are
// its glossary words and its English words but stop words (keyTerms);
// the answer is the setting whose last key is one of them and whose
// path holds them all ("数据库端口", "db 的端口", "database port" →
// database.port), with its path and value; several such settings are
// listed, the best first (naming more of the question's words as they
// are written, then the shortest path); none is said, with the
// related settings (the thing asked, elsewhere) and the file's
// top-level keys. Secrets (settingsOf: by their keys, or as the
// argument a list hides) are named, never shown. ok is false when the
// file does not parse or the question names nothing to look for: the
// line-based reading answers then.
func keyAnswer(zh bool, q, name, content string) (string, bool) {
	_, parsed, err := confkv.Parse(name, content)
	if err != nil || len(parsed) == 0 || sniffedName(name) && !sniffedKeys(parsed) {
		return "", false
	}
	entries := settingsOf(parsed)
	// A key written as the file writes it ("server.port",
	// "DATABASE_PORT") is what was asked, whatever the words around it.
	if found, label := namedPath(q, entries); len(found) == 1 {
		return oneSetting(zh, name, label, found[0]), true
	} else if len(found) > 1 {
		list := make([]keyCandidate, len(found))
		for i, e := range found {
			list[i] = keyCandidate{setting: e}
		}
		return someSettings(zh, name, label, list), true
	}
	type tokens struct{ all, leaf []string }
	toks := make([]tokens, len(entries))
	kw := keyWords{}
	for i, e := range entries {
		toks[i].all, toks[i].leaf = kw.of(e.Path)
	}
	// Every thing the question names is looked for: a word no key uses
	// ("smtp port" of a file without smtp) makes the answer "not
	// found", with the related settings, never another setting.
	terms := keyTerms(q)
	if len(terms) == 0 {
		return "", false
	}
	var full, related []keyCandidate
	for i, e := range entries {
		if !slices.ContainsFunc(terms, func(t keyTerm) bool { return termMatches(t, toks[i].leaf) }) {
			continue
		}
		c := keyCandidate{setting: e, depth: len(toks[i].all)}
		for _, t := range terms {
			if slices.ContainsFunc(t.words, func(w string) bool { return slices.Contains(toks[i].all, w) }) {
				c.exact++
			}
		}
		if !slices.ContainsFunc(terms, func(t keyTerm) bool { return !termMatches(t, toks[i].all) }) {
			full = append(full, c)
		} else {
			related = append(related, c)
		}
	}
	if len(full) == 0 {
		// The thing asked may be a map whose keys are names, not the
		// thing: "log level" → logging.level.root = WARN (Spring's
		// logger levels). A setting under keys naming every term is
		// what was asked.
		for i, e := range entries {
			if !slices.ContainsFunc(terms, func(t keyTerm) bool { return !termMatches(t, toks[i].all) }) {
				full = append(full, keyCandidate{setting: e, depth: len(toks[i].all), exact: len(terms)})
			}
		}
	}
	rank := func(list []keyCandidate) {
		slices.SortStableFunc(list, func(a, b keyCandidate) int { return cmp.Or(b.exact-a.exact, a.depth-b.depth, a.Line-b.Line) })
	}
	rank(full)
	rank(related)
	// Settings that name fewer of the question's words as written than
	// the best are not what was asked: "servers host" is servers[*].host,
	// not server.host too.
	if len(full) > 1 {
		best := full[0].exact
		full = slices.DeleteFunc(full, func(c keyCandidate) bool { return c.exact < best })
	}
	var leaf []string
	if len(full) > 0 {
		_, leaf = pathTokens(full[0].Path)
	}
	label := keyLabel(zh, terms, leaf)
	switch {
	case len(full) == 1:
		return oneSetting(zh, name, label, full[0].setting), true
	case len(full) > 1:
		return someSettings(zh, name, label, full), true
	}
	if s, ok := portOfAddressAnswer(zh, name, terms, entries); ok {
		return s, true
	}
	if s, ok := urlPortAnswer(zh, name, label, terms, entries, func(i int) []string { return toks[i].all }); ok {
		return s, true
	}
	return noSetting(zh, name, label, related, entries), true
}

// keyLabel names what was asked in the question's words, in its order
// but the thing the answer's last key is (leaf) last: "database port"
// for "what port is the database on". Chinese words are written
// together, Latin ones apart ("db 端口").
func keyLabel(zh bool, terms []keyTerm, leaf []string) string {
	terms = slices.Clone(terms)
	slices.SortStableFunc(terms, func(a, b keyTerm) int {
		la, lb := termMatches(a, leaf), termMatches(b, leaf)
		switch {
		case la && !lb:
			return 1
		case lb && !la:
			return -1
		}
		return a.at - b.at
	})
	var b strings.Builder
	for i, t := range terms {
		word := t.words[0]
		if zh {
			word = t.label
		}
		if i > 0 && (!zh || isLatin(rune(word[0])) && isLatin(rune(terms[i-1].label[len(terms[i-1].label)-1]))) {
			b.WriteByte(' ')
		}
		b.WriteString(word)
	}
	if zh {
		return capLabel(spaceHanLatin(b.String()))
	}
	return capLabel(b.String())
}

// oneSetting answers with one setting: its value and path, or for a
// secret that it exists.
func oneSetting(zh bool, name, label string, e setting) string {
	v := shownValue(e)
	if e.secret {
		if zh {
			return name + spaceHanLatin(fmt.Sprintf(" 里有%s的配置项 ", label)) + codeSpan(shownPath(e.Path)) + fmt.Sprintf("（第 %d 行），它是密码或密钥，值不显示。", e.Line)
		}
		return fmt.Sprintf("%s has a %s setting, %s (line %d); it is a secret, so its value is not shown.", name, label, codeSpan(shownPath(e.Path)), e.Line)
	}
	if host, container, ok := portMapping(e); ok {
		// docker-compose's "5433:5432": two ports, each said.
		if zh {
			return name + spaceHanLatin(fmt.Sprintf(" 里%s：主机端口 %s 映射到容器端口 %s", label, host, container)) + "（" + codeSpan(shownPath(e.Path)+" = "+v) + fmt.Sprintf("，第 %d 行）。", e.Line)
		}
		return fmt.Sprintf("The %s in %s: host port %s maps to container port %s (%s, line %d).", label, name, host, container, codeSpan(shownPath(e.Path)+" = "+v), e.Line)
	}
	if zh {
		return name + spaceHanLatin(fmt.Sprintf(" 里%s是 ", label)) + v + "（" + codeSpan(shownPath(e.Path)+" = "+v) + fmt.Sprintf("，第 %d 行）。", e.Line)
	}
	return fmt.Sprintf("The %s in %s is %s (%s, line %d).", label, name, v, codeSpan(shownPath(e.Path)+" = "+v), e.Line)
}

// settingLines lists settings as "path = value" lines with their line
// numbers, at most maxKeyCandidates, and how many more there are.
func settingLines(zh bool, list []keyCandidate) string {
	t := lang(zh)
	var lines []string
	for _, c := range list[:min(len(list), maxKeyCandidates)] {
		lines = append(lines, fmt.Sprintf(t("%s = %s  # 第 %d 行", "%s = %s  # line %d"), shownPath(c.Path), shownValue(c.setting), c.Line))
	}
	s := codeBlock(strings.Join(lines, "\n"))
	if n := len(list) - maxKeyCandidates; n > 0 {
		s += fmt.Sprintf(t("\n（另有 %d 项未列出）", "\n(and %d more)"), n)
	}
	return s
}

// someSettings lists the settings that may be what was asked, the best
// first.
func someSettings(zh bool, name, label string, list []keyCandidate) string {
	if zh {
		return name + spaceHanLatin(fmt.Sprintf(" 里有 %d 个配置项可能是%s（最相关的在前）：\n", len(list), label)) + settingLines(zh, list)
	}
	return fmt.Sprintf("%d settings in %s may be the %s (best first):\n", len(list), name, label) + settingLines(zh, list)
}

// noSetting says no setting is what was asked, lists the related ones
// (the thing asked, elsewhere: the ports of a file asked for a database
// port) and the file's top-level keys.
func noSetting(zh bool, name, label string, related []keyCandidate, entries []setting) string {
	t := lang(zh)
	s := fmt.Sprintf("No %[2]s setting found in %[1]s.", name, label)
	if zh {
		s = name + spaceHanLatin(fmt.Sprintf(" 里没有找到%s的配置项。", label))
	}
	if len(related) > 0 {
		s += t("\n文件里有这些相关的配置项：\n", "\nThe related settings it has:\n") + settingLines(zh, related)
	}
	var top []string
	seen := map[string]bool{}
	for _, e := range entries {
		segs := confkv.Segments(e.Path)
		if len(segs) > 0 && !seen[segs[0]] && !strings.HasPrefix(segs[0], "[") {
			seen[segs[0]] = true
			top = append(top, shownPath(segs[0]))
		}
	}
	if len(top) > 0 {
		more := ""
		if len(top) > 20 {
			more = fmt.Sprintf(t(" 等 %d 个", " and %d more"), len(top)-20)
			if zh {
				more = fmt.Sprintf(" 等 %d 个", len(top))
			}
			top = top[:20]
		}
		s += fmt.Sprintf(t("\n文件的顶层配置项：%s%s。", "\nIts top-level keys: %s%s."), strings.Join(top, t("、", ", ")), more)
	}
	return s
}

// portOfAddressAnswer answers "X 的端口" from a setting that names X and
// holds an address when no setting is X's port: its key is X itself or
// X's address key (X.port, X_port, xPort, X.addr, X.address, X.listen:
// namesSubject), its value a host:port or a URL with a port ("http:
// 127.0.0.1:8080" → 8080). A bare number is a port only under a port
// key; a secret setting is never read.
func portOfAddressAnswer(zh bool, name string, terms []keyTerm, entries []setting) (string, bool) {
	if len(terms) < 2 || !isPortGroup(terms[len(terms)-1].words) {
		return "", false
	}
	for i := len(terms) - 2; i >= 0; i-- {
		for _, e := range entries {
			if e.secret {
				continue
			}
			key, ok := subjectKey(e.Path, terms[i].words)
			if !ok || isPort(e.Value) && !strings.HasSuffix(key, "port") {
				continue
			}
			if port := portOf(e.Value); port != "" {
				return portAnswer(zh, name, terms[i].words[0], port, shownPath(e.Path)+" = "+shownValue(e), e.Line), true
			}
		}
	}
	return "", false
}

// subjectKey is the key of a path that names a subject (namesSubject):
// its last key ("http"), or its last two joined by a dot ("web.port"),
// lower case.
func subjectKey(path string, subject wordGroup) (string, bool) {
	segs := confkv.Segments(path)
	if len(segs) == 0 || strings.HasPrefix(segs[len(segs)-1], "[") {
		return "", false
	}
	leaf := strings.ToLower(segs[len(segs)-1])
	if namesSubject(leaf, subject) {
		return leaf, true
	}
	if len(segs) > 1 && !strings.HasPrefix(segs[len(segs)-2], "[") {
		if two := strings.ToLower(segs[len(segs)-2]) + "." + leaf; namesSubject(two, subject) {
			return two, true
		}
	}
	return "", false
}

// urlPortAnswer answers "数据库端口" from a setting that names every
// other thing asked and holds an address with a port:
// spring.datasource.url = jdbc:postgresql://db.internal:5432/shop →
// 5432. A secret setting is never read.
func urlPortAnswer(zh bool, name, label string, terms []keyTerm, entries []setting, tokens func(int) []string) (string, bool) {
	if len(terms) < 2 || !isPortGroup(terms[len(terms)-1].words) {
		return "", false
	}
	others := terms[:len(terms)-1]
	for i, e := range entries {
		if e.secret || isPort(e.Value) || slices.ContainsFunc(others, func(t keyTerm) bool { return !termMatches(t, tokens(i)) }) {
			continue
		}
		port := portOf(e.Value)
		if port == "" {
			continue
		}
		shown := codeSpan(shownPath(e.Path) + " = " + shownValue(e))
		if zh {
			return name + spaceHanLatin(fmt.Sprintf(" 里%s是 %s", label, port)) + "（" + shown + fmt.Sprintf("，第 %d 行）。", e.Line), true
		}
		return fmt.Sprintf("The %s in %s is %s (%s, line %d).", label, name, port, shown, e.Line), true
	}
	return "", false
}

// rePortMapping is a container port published on the host, as
// docker-compose writes it: "5433:5432", "127.0.0.1:8080:80/tcp".
var rePortMapping = compile(`^(?:[0-9.]+:|\[[0-9a-fA-F:]+\]:)?(\d{1,5}):(\d{1,5})(?:/(?:tcp|udp))?$`)

// portMapping reads a setting under a "ports" key that publishes a
// container's port: its host and container ports.
func portMapping(e setting) (host, container string, ok bool) {
	m := rePortMapping.FindStringSubmatch(e.Value)
	if m == nil || !isPort(m[1]) || !isPort(m[2]) || !slices.Contains(confkv.Segments(e.Path), "ports") {
		return "", "", false
	}
	return m[1], m[2], true
}
