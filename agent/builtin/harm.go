package builtin

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// destructive is the safety stage's verdict on a request in prose: why
// it will not be acted on, or the zero refusal. Mentions that ask for
// nothing ("since the upgrade", "connection reset", "被覆盖了") are
// masked first (inert), and so is a procedure named as the means
// ("按运维手册把 … 删掉", procedure.go); then the request is read by meaning (harm): a
// destructive or system-changing action asked of a system object, in
// either language, politely or not, or a shell line that changes the
// system (a program the tiers run is not one). What harm does not
// refuse is refused by the older word rules (dangerous, command.go),
// except a question about documents or policy, and a text that only
// asks to see something or what happened, in which only a destructive
// program with arguments is refused (programHarm).
func (c *commands) destructive(text string) refusal {
	t := planAside(procedureAside(inert(reModalPassive.ReplaceAllString(reSudoLine.ReplaceAllString(text, "$1$2"), "$1"))))
	if r := c.harm(t); !r.none() {
		return r
	}
	if r := c.stepHarm(t); !r.none() {
		return r // "步骤：\n1. 停掉 nginx\n2. 清理日志"
	}
	if isQuestion(t) && !reShellMeta.MatchString(t) &&
		(reDocQuestion.MatchString(t) || reDocWord.MatchString(names(t))) {
		return refusal{}
	}
	if asksOnly(t) || zhQuestion(t) {
		return programHarm(t) // "show me the install log"
	}
	return dangerous(t)
}

// reModalPassive is a passive that asks for the action: "这个用户要被禁用"
// is "要禁用" (a request), "被禁用了" tells what happened (inert).
var reModalPassive = compile(`(要|得|需要|必须|应该|应当)被`)

// asksWhether reports whether text is English whose every clause is a
// question ("did anyone delete files in /tmp?", "why did nginx stop?"):
// a question about what happened, not a request; polite requests
// phrased as questions ("could you …", "do you mind …", "is it possible
// to …") were read by harm before.
func asksWhether(text string) bool {
	if hasHan(text) || reShellMeta.MatchString(text) {
		return false
	}
	cls := clauses(text)
	for _, words := range cls {
		if !questionWords[words[0]] || politeQuestion(words) {
			return false
		}
	}
	return len(cls) > 0
}

// asksOnly reports whether text is English whose every clause asks to
// see something or asks a question ("which processes would I kill to
// free memory? just list them by memory").
func asksOnly(text string) bool {
	if hasHan(text) || reShellMeta.MatchString(text) {
		return false
	}
	cls := clauses(text)
	for _, words := range cls {
		if !(questionWords[words[0]] && !politeQuestion(words) && !causativeHave(words)) && !asksToSee(strings.Join(words, " ")) &&
			!relayedQuestion(words) {
			return false
		}
	}
	return len(cls) > 0
}

// askVerbs relay a question: "the security team asked who has sudo".
var askVerbs = words(`asked asks wonders wondered wondering inquired`)

// relayedQuestion reports whether a clause relays someone's question:
// up to four words naming who asks, a verb of asking, then a question
// word. A relayed question is a question.
func relayedQuestion(ws []string) bool {
	for k := 1; k < len(ws)-1 && k <= 4; k++ {
		if askVerbs[ws[k]] || (ws[k] == "wants" || ws[k] == "wanted") && ws[k+1] == "to" && k+3 < len(ws) && ws[k+2] == "know" {
			j := k + 1
			if !askVerbs[ws[k]] {
				j = k + 3
			}
			for j < len(ws) && (ws[j] == "me" || ws[j] == "us" || ws[j] == "you") {
				j++
			}
			return hasWord(ws[:k], relayers) && j < len(ws) && (questionWords[ws[j]] || ws[j] == "whether" || ws[j] == "if")
		}
	}
	return false
}

// readVerbs open a clause that asks to see something.
var readVerbs = words(`show display list print cat grep search find look check view read count summarize
	summarise explain tell give get fetch what's whats tail head`)

// asksToSee reports whether text is English whose every clause asks to see
// something: its destructive words are what it wants to see ("show me
// the install log", "explain the reset in the log"), not requests. A
// second action joined to a clause is read by harm before.
func asksToSee(text string) bool {
	if hasHan(text) || reShellMeta.MatchString(text) {
		return false
	}
	cls := clauses(text)
	for _, words := range cls {
		i := 0
		for i < len(words) && politeWords[words[i]] {
			i++
		}
		if i == len(words) || !readVerbs[words[i]] {
			return false
		}
	}
	return len(cls) > 0
}

// programHarm refuses a program of shellKinds the text names with
// arguments after it ("show me the output of rm -rf /tmp/x").
func programHarm(text string) refusal {
	f := strings.Fields(text)
	for i, w := range f {
		if k, ok := shellKinds[strings.ToLower(w)]; ok && !wordPrograms[strings.ToLower(w)] && i+1 < len(f) && argsLike(f[i+1]) {
			return refuseHarm(k, w+" "+f[i+1])
		}
	}
	return refusal{}
}

// harm reads a request by meaning: a shell line that changes the
// system, or a destructive action asked of a system object, in English
// (clause by clause, the action in the imperative or asked for
// politely) or in Chinese.
func (c *commands) harm(text string) refusal {
	if r := c.shellHarm(text); !r.none() {
		return r
	}
	if r := lifeHarm(text); !r.none() {
		return r
	}
	if r := englishHarm(text); !r.none() {
		return r
	}
	if r := absenceHarm(text); !r.none() {
		return r
	}
	return chineseHarm(text)
}

// englishHarm finds, clause by clause, an English request for a
// destructive action: the action's verb first in its clause, after
// politeness only ("could you kindly wipe …", "small thing: set …",
// "mind clearing out /tmp?"), with an object its kind needs. A clause
// that starts with a question word ("is nginx stopped?", "how do I clean
// up …") asks nothing to be done.
func englishHarm(text string) refusal {
	mixed := hasHan(text)
	var prev []string
	for _, cl := range clauses(text) {
		if mixed && len(cl) == 1 {
			continue // "kill 信号是什么意思": the Chinese around it decides
		}
		if r := clauseHarm(cl); !r.none() {
			return r
		}
		if len(prev) > 0 && len(cl) > 1 && modalWords[cl[0]] && !mixed {
			// "the account of the contractor who left, mike, should be
			// removed": the object was the clause before.
			if r := needHarm(append(append([]string{}, prev[max(0, len(prev)-6):]...), cl...)); !r.none() {
				return r
			}
		}
		prev = cl
	}
	return refusal{}
}

// maxClauseWords bounds the words of a clause read at once: a longer
// clause is read in pieces of at most this many words, each after the
// first opening with contWord and the last clauseOverlap words of the
// one before, so an action joined late ("… used by docker and then wipe
// /var/log") is still read, and such a piece never counts as asking
// only to see (asksToSee, asksWhether).
const (
	maxClauseWords = 24
	clauseOverlap  = 4
	contWord       = "…"
)

// clauseHarm reads one clause's words.
func clauseHarm(words []string) refusal {
	if len(words) == 0 || questionWords[words[0]] && !politeQuestion(words) && !causativeHave(words) {
		return refusal{}
	}
	if len(words) > 2 && (words[0] == "can" || words[0] == "could") && (words[1] == "i" || words[1] == "we") &&
		words[2] != "get" && words[2] != "have" {
		return refusal{} // "can i delete …?" asks for advice
	}
	i, mind, wished := 0, false, false
	if words[0] == "why" || questionWords[words[0]] && politeQuestion(words) {
		i = 3 // "why don't you just kill …", "are you allowed to repartition …": politeQuestion
	}
	if j := relayed(words); j > 0 {
		i, wished = j, true // "my manager wants the old backups deleted"
	}
	for i < len(words) && (politeWords[words[i]] || i > 0 && laterModals[words[i]]) {
		mind = mind || words[i] == "mind"
		wished = wished || wishWords[words[i]]
		i++
	}
	if i == len(words) {
		return refusal{}
	}
	// "get jq installed on the box", "I need /var/log/app emptied",
	// "the old logs need to be deleted": the participle is the action.
	if r := wishHarm(words, i, wished); !r.none() {
		return r
	}
	if v, ok := verbOf(words[i], mind); ok {
		if r := objectHarm(v, words[i], words[i+1:]); !r.none() {
			return r
		}
	}
	// "free up some disk by deleting the old logs": the means; "list
	// the files and remove the old ones": a second request.
	for j := i + 1; j+1 < len(words); j++ {
		if conjunctions[words[j]] || words[j] == "to" && words[i] == "use" { // "use at to run /opt/x.sh"
			if v, ok := verbOf(words[j+1], words[j] == "by"); ok {
				if r := objectHarm(v, words[j+1], words[j+2:]); !r.none() {
					return r
				}
			}
		}
	}
	return refusal{}
}

// machineWords name the machine or everything, never one unit:
// restarting it is a reboot. They are the one list of such words: the
// service rules' notUnits (service.go) and restart's unitName
// (restart.go) read it too.
const machineWordList = `server servers machine machines system computer box host hosts os linux vm vms node nodes
	everything cluster clusters instance instances`

var machineWords = words(machineWordList)

// conjunctions join a second action to a clause's first.
var conjunctions = words(`by and then also plus`)

// shortTypos are slips of short verbs that one edit rule would take too
// far.
var shortTypos = map[string]string{"kil": "kill", "klll": "kill", "rmv": "remove"}

// notTypos are everyday words one edit from a destructive verb.
var notTypos = words(`remote extent charge chance formal worker delegate`)

// politeQuestion reports whether a clause that starts with a question
// word is a polite request: "is it possible to …", "do you mind …".
func politeQuestion(words []string) bool {
	return len(words) > 2 && (words[0] == "is" && words[1] == "it" && words[2] == "possible" ||
		words[0] == "why" && (words[1] == "don't" || words[1] == "dont") && words[2] == "you" ||
		words[0] == "do" && (words[1] == "you" || words[1] == "u") && words[2] == "mind" ||
		words[0] == "are" && (words[1] == "you" || words[1] == "u") && (words[2] == "able" || words[2] == "allowed") ||
		words[0] == "would" && words[1] == "it" && words[2] == "be")
}

// verbOf is the destructive verb w is, typos and, after "mind" or "by",
// gerunds included ("clearing" → clear).
func verbOf(w string, gerund bool) (verb, bool) {
	if v, ok := verbs[w]; ok {
		return v, true
	}
	if gerund && strings.HasSuffix(w, "ing") && len(w) > 5 {
		s := w[:len(w)-3]
		for _, c := range []string{s, s + "e", s[:len(s)-1]} {
			if v, ok := verbs[c]; ok {
				return v, true
			}
		}
	}
	if len(w) == 4 && asciiOnly(w) {
		for _, name := range verbsByLetter[w[0]] {
			if len(name) == 4 && transposed(w, name) {
				return verbs[name], true // "stpo", "wpie"
			}
		}
	}
	if name, ok := shortTypos[w]; ok {
		return verbs[name], true
	}
	// A typo of a verb of six letters or more ("delte", "reboto"), not
	// an inflected form ("deleted files", "changes") nor an everyday
	// neighbour ("remote", "extent").
	if len(w) < 5 || !asciiOnly(w) || notTypos[w] ||
		strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing") {
		return verb{}, false
	}
	for _, name := range verbsByLetter[w[0]] {
		if len(name) >= 6 && oneEdit(w, name) {
			return verbs[name], true
		}
	}
	return verb{}, false
}

// participle is the verb whose past participle w is ("installed",
// "wiped", "stopped").
func participle(w string) (verb, bool) {
	if v, ok := irregulars[w]; ok {
		return verbs[v], true
	}
	if !strings.HasSuffix(w, "ed") || len(w) < 5 {
		return verb{}, false
	}
	s := w[:len(w)-2]
	cands := []string{s, s + "e", s[:len(s)-1]}
	if strings.HasSuffix(s, "i") {
		cands = append(cands, s[:len(s)-1]+"y") // "emptied"
	}
	for _, c := range cands {
		if v, ok := verbs[c]; ok && v.phrase == "" {
			return v, true
		}
	}
	return verb{}, false
}

// participleAt is the verb whose past participle is words[j], a phrasal
// verb's with its particle after it ("turned off", "shut down").
func participleAt(ws []string, j int) (verb, bool) {
	if v, ok := participle(ws[j]); ok || j+1 >= len(ws) {
		return v, ok
	}
	w := ws[j]
	cands := []string{w}
	if s, ok := strings.CutSuffix(w, "ed"); ok && len(w) >= 5 {
		cands = append(cands, s, s+"e", s[:len(s)-1])
	}
	for _, c := range cands {
		if v, ok := verbs[c]; ok && v.phrase != "" && hasWord(ws[j+1:j+2], words(v.phrase)) {
			v.phrase = ""
			return v, true
		}
	}
	return verb{}, false
}

// objectHarm is the refusal of verb v (spelt w) with the words after it,
// if they name an object its kind needs.
func objectHarm(v verb, w string, rest []string) refusal {
	if len(rest) > 8 {
		rest = rest[:8]
	}
	if v.phrase != "" {
		particle := words(v.phrase)
		if len(rest) > 1 && !particle[rest[0]] {
			// "roll the app back to v1.8": the particle after a short object.
			for j := 1; j < min(len(rest), 4); j++ {
				if particle[rest[j]] && !notObjects[rest[0]] {
					rest = append(append([]string{rest[j]}, rest[:j]...), rest[j+1:]...)
					break
				}
			}
		}
		if len(rest) == 0 || !particle[rest[0]] {
			return refusal{}
		}
		w, rest = w+" "+rest[0], rest[1:]
		if len(rest) > 0 && rest[0] == "of" {
			rest = rest[1:] // "get rid of"
		}
	}
	if !v.object(rest) {
		return refusal{}
	}
	k := v.kind
	switch {
	case hasWord(rest, containerNouns) && (k == harmService || k == harmMachine || k == harmCreate || k == harmRun || k == harmDelete || k == harmProcess):
		k = harmContainer // "spin up another worker container", "pause the redis container"
	case k == harmService && hasWord(rest, machineWords):
		k = harmMachine // "restart the server"
	case (k == harmMachine || k == harmService) && hasWord(rest, netNouns):
		k = harmNetwork // "shut off the firewall"
	case k == harmMachine && hasWord(rest, serviceNouns):
		k = harmService // "shut down the api service"
	case k != harmDelete && k != harmEdit && k != harmCreate:
	case hasWord(rest, dbNouns):
		// "drop table users": a table, not the users.
	case hasWord(rest, userNouns):
		k = harmUser
	case hasWord(rest, cronNouns):
		k = harmCron
	}
	return refuseHarm(k, w)
}

// clauses splits text into clauses of lower-case words: at sentence
// punctuation (a dot or colon only before a space or the end, so paths,
// file names and addresses stay whole) and at Chinese text, which the
// Chinese rules read. Its cost is linear in len(text).
func clauses(text string) [][]string {
	var out [][]string
	var cur []string
	var word strings.Builder
	flushWord := func() {
		if word.Len() > 0 {
			w := strings.Trim(word.String(), "\"'`“”‘’()[]{}<>*")
			if w != "" && len(cur) >= maxClauseWords {
				out = append(out, cur)
				cur = append([]string{contWord}, cur[len(cur)-clauseOverlap:]...)
			}
			if w != "" {
				cur = append(cur, strings.ToLower(w))
			}
			word.Reset()
		}
	}
	flush := func() {
		flushWord()
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		next, _ := utf8.DecodeRuneInString(text[i+size:])
		switch {
		case strings.ContainsRune(",;!?—–()（）、，。；！？：\n", r):
			flush()
		case (r == '.' || r == ':') && (next == utf8.RuneError || unicode.IsSpace(next)):
			flush()
		case r == '-' && word.Len() == 0 && unicode.IsSpace(next):
			flush() // "hotfix it - patch the typo …"
		case unicode.Is(unicode.Han, r):
			flushWord()
			if len(cur) > 0 && !politeHan(text[i:]) {
				flush()
			}
		case unicode.IsSpace(r):
			flushWord()
		default:
			word.WriteRune(r)
		}
		i += size
	}
	flush()
	return out
}

// politeHan reports whether Chinese text at s is a request's politeness
// ("帮我 delete 一下 …" is read as English from "delete").
func politeHan(s string) bool {
	for _, p := range []string{"帮我", "帮忙", "麻烦", "请", "给我", "能不能", "可以", "顺手", "劳驾", "拜托"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// isQuestion reports whether text asks rather than requests: a question
// mark, or a question word first.
func isQuestion(text string) bool {
	if strings.ContainsAny(text, "?？") || strings.Contains(text, "吗") {
		return true
	}
	cl := clauses(text)
	return len(cl) > 0 && questionWords[cl[0][0]]
}

// Relayed requests: someone else's request passed on ("my manager wants
// the old backups deleted", "the boss says reboot the db box", "our
// TL said to uninstall docker") is a request.
var (
	relayers = words(`boss manager managers lead tl team teams client clients customer customers cto ceo cio vp director
		architect security network ops devops sre dba owner pm supervisor head admin sysadmin colleague coworker senior`)
	relayVerbs = words(`says said wants wanted asked asks told tells needs insists insisted requested requests instructed
		would`)
	// reportWords make what is relayed a report, not a request.
	reportWords = words(`was were is are been got gets has had`)
	// relayFill may stand between the relaying verb and the request.
	relayFill = words(`me us you to that we i should must like have has`)
)

// relayed is the index of the request in a clause that relays it (the
// word after "my manager wants", "the boss says", "the client asked us
// to"), or 0: up to four words naming who asks, then a relaying verb.
func relayed(ws []string) int {
	for k := 1; k < len(ws) && k <= 4; k++ {
		if !relayVerbs[ws[k]] {
			continue
		}
		if !hasWord(ws[:k], relayers) {
			return 0
		}
		j := k + 1
		for j < len(ws) && relayFill[ws[j]] {
			j++
		}
		if j == len(ws) || hasWord(ws[j:], reportWords) {
			return 0 // "my lead said nginx was restarted twice": a report
		}
		return j
	}
	return 0
}
