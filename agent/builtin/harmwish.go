package builtin

import "strings"

// Requests in English that name the object before the action: a wish or
// a need with the result ("I need /var/log/app emptied", "I'd like
// nginx stopped"), a causative ("have the logs deleted", "get someone
// to delete the backups"), and an object that needs or must undergo the
// action ("the old logs need to be deleted", "nginx needs restarting",
// "those backups should be removed").

// wishWords in a clause's politeness make the participle after the
// object the action asked for.
var wishWords = words(`need want like love wish`)

// agentWords are who a causative has act: "have someone delete …".
var agentWords = words(`someone somebody them him her you ops the team it`)

// modalWords after an object say it must undergo an action.
var modalWords = words(`need needs must should has have gotta ought`)

// wishHarm reads words[i:], the clause after politeness, as a wish,
// causative or need whose action is destructive. wished reports whether
// the politeness asked for something (need, want, like).
func wishHarm(words []string, i int, wished bool) refusal {
	causative := words[i] == "get" || words[i] == "have" || words[i] == "make" || words[i] == "let"
	if causative && i+2 < len(words) && agentWords[words[i+1]] {
		j := i + 2
		if words[j] == "team" && j+1 < len(words) {
			j++
		}
		if words[j] == "to" && j+1 < len(words) {
			j++
		}
		if v, ok := verbOf(words[j], false); ok {
			if r := objectHarm(v, words[j], words[j+1:]); !r.none() {
				return r
			}
		}
	}
	if causative {
		i++
	} else if !wished || asksNot[words[i]] {
		if i > 0 && modalWords[words[i]] {
			i-- // "it needs to be deleted": the object was taken for politeness
		}
		return needHarm(words[i:])
	}
	for j := i + 1; j < len(words) && j <= i+6 && !asksNot[words[j-1]]; j++ {
		if v, ok := participleAt(words, j); ok && !attributive(words, j) {
			if r := objectHarm(v, words[j], words[i:j]); !r.none() {
				return r
			}
		}
	}
	return needHarm(words[i:])
}

// needHarm reads an object followed by what it must undergo: "the logs
// need to be deleted", "nginx needs restarting", "the backups should be
// removed", "the cache has to get flushed".
func needHarm(words []string) refusal {
	for k := 1; k < len(words) && k <= 7; k++ {
		if !modalWords[words[k]] {
			continue
		}
		j := k + 1
		for j < len(words) && (words[j] == "to" || words[j] == "be" || words[j] == "get" || words[j] == "got") {
			j++
		}
		if j >= len(words) {
			return refusal{}
		}
		if r := needsObject(words[:k], words[j:]); !r.none() {
			return r
		}
		w := words[j]
		v, ok := participleAt(words, j)
		if !ok {
			v, ok = verbOf(w, true)
			ok = ok && len(w) > 4 && w[len(w)-3:] == "ing"
		}
		if ok {
			return objectHarm(v, w, words[:k])
		}
		return refusal{}
	}
	return refusal{}
}

// neededNouns are what an object of the machine may be said to need:
// another object, or an action named as a noun ("nginx needs a restart").
var neededNouns = words(`rule rules restart reboot cleanup upgrade patch reinstall resize rebuild`)

// needsObject reads "the firewall needs a rule for 9090": an object of
// the machine that needs a new one, or an action, asks for the change.
func needsObject(subject, rest []string) refusal {
	if len(rest) < 2 || !(rest[0] == "a" || rest[0] == "an" || rest[0] == "another" || rest[0] == "new" || rest[0] == "more") {
		return refusal{}
	}
	kind, found := harmKind(0), false
	for _, w := range subject {
		if k, ok := objectKind(w); ok {
			kind, found = k, true
			break
		}
	}
	if !found {
		return refusal{}
	}
	for _, w := range rest[1:min(len(rest), 4)] {
		if _, ok := objectKind(w); ok || neededNouns[w] {
			return refuseHarm(kind, strings.Join(subject, " ")+" needs "+strings.Join(rest[:min(len(rest), 3)], " "))
		}
	}
	return refusal{}
}

// attributive reports whether the participle at words[j] describes the
// noun after it ("the deleted files"), not the action asked for.
func attributive(words []string, j int) bool {
	n := ""
	if j+1 < len(words) {
		n = words[j+1]
	}
	return systemNouns[n] || userNouns[n] || procNouns[n] || cronNouns[n] || diskNouns[n] || netNouns[n] || serviceNouns[n]
}

// irregulars are past participles that are no verb plus -ed: "I want
// every old kernel gone".
var irregulars = map[string]string{"gone": "delete", "shut": "shut"}

// asksNot in a wish's object make it a question or a wish to see: "I
// want to see which vhosts are configured", "what got upgraded".
var asksNot = words(`see know understand check find what which who why how whether if when where got been`)

// causativeHave reports whether a clause that starts with "have" asks
// for an action ("have the logs deleted", "have someone restart it"),
// not whether one happened ("have you deleted …", "have the logs been
// rotated?").
func causativeHave(words []string) bool {
	if len(words) < 3 || words[0] != "have" || pronouns[words[1]] {
		return false
	}
	return !hasWord(words, beenWord)
}

// pronouns after "have" make it a question: "have you …".
var pronouns = words(`you u i we they he she it there anyone anybody any`)

var beenWord = words(`been`)

// A wish that something never happen again or be gone for good ("make
// sure bluetooth.service never starts again", "make sure bob can't log
// into this machine anymore", "i'd rather not have that runaway process
// around anymore", "i'd prefer nothing on this box answers on port 8080
// from now on") asks for the change that makes it so: a service
// disabled, a user locked, a port closed, a process killed.
var (
	reAbsenceWish = compile(`(?i)\b(?:make\s+sure|ensure|i'?d\s+rather\s+not\s+have|rather\s+not\s+have|(?:do\s+not|don'?t|no\s+longer)\s+want|i'?d\s+prefer|prefer)\b` +
		`(?:[^.?!;]|\.\S){0,80}?\b(?:never|can'?t|cant|cannot|no\s+longer|nothing|nobody|no\s+one|anymore|any\s+more|ever\s+again|from\s+now\s+on)\b`)
	// absenceKinds are what the wish is about, by the words after it.
	absenceKinds = []struct {
		kind harmKind
		re   *rx
	}{
		{harmUser, compile(`(?i)\blog\s*(?:in|on)(?:to)?\b|\blogin\b|\bssh\b|\baccount\b`)},
		{harmNetwork, compile(`(?i)\bport\s+\d+|\banswers?\s+on\b|\blisten(?:s|ing)?\s+on\b|\bfirewall\b`)},
		{harmService, compile(`(?i)\b(?:starts?|runs?|boots?|comes?\s+back|come\s+up|comes\s+up)\b`)},
		{harmProcess, compile(`(?i)\bprocess(?:es)?\b`)},
	}
)

// absenceHarm refuses an English wish that something never happen
// again or be gone for good, by what it is about; a question asks none.
func absenceHarm(text string) refusal {
	if hasHan(text) || strings.ContainsAny(text, "?？") {
		return refusal{}
	}
	loc := reAbsenceWish.FindStringIndex(text)
	if loc == nil {
		return refusal{}
	}
	tail := text[loc[0]:min(len(text), loc[1]+80)]
	for _, a := range absenceKinds {
		if a.re.MatchString(tail) {
			return refuseHarm(a.kind, strings.TrimSpace(text[loc[0]:loc[1]]))
		}
	}
	return refusal{}
}
