package builtin

import (
	"maps"
	"strings"
)

// slots fills the arguments of class for text: the command and its
// arguments, the metric, the search's query and scope, the upload
// reference and action, the file to download. hits are the intent
// rules' answers, whose arguments are used where a rule recognised the
// request; ok is false when text does not give what class needs.
func (c *commands) slots(class, text string, hasUploads bool, hits *[len(ruleNames)]Intent) (Intent, bool) {
	hit := func(name string) Intent {
		for i, n := range ruleNames {
			if n == name {
				return hits[i]
			}
		}
		return Intent{}
	}
	kind, slot, _ := strings.Cut(class, "/")
	switch kind {
	case "none":
		return noUpload(text, hasUploads), true
	case "command":
		return c.commandSlots(text, hits)
	case "monitor":
		return Intent{Kind: "monitor", Tool: "sys_monitor", Args: map[string]any{"metric": metric(slot, text)}}, true
	case "search":
		in, upRule := hit("search"), false
		if slot == "uploads" {
			if up := hit("uploadsearch"); up.Kind != "" {
				in, upRule = up, true
			}
		}
		q, _ := in.Args["query"].(string)
		if m := reQuoted.FindStringSubmatch(text); m != nil {
			q = m[1] // a quoted phrase is what to look for
		} else if slot == "uploads" && !upRule || q == "" {
			q = cleanQuery(strings.TrimSpace(reUploadRef.ReplaceAllString(text, " ")))
		}
		if q == "" {
			q = cleanQuery(text) // the message is all reference: "找一下我上传的日志"
		}
		return Intent{Kind: "search", Tool: "semantic_search", Args: map[string]any{"query": q, "scope": slot, "top_k": 3}}, true
	case "upload":
		if in := hit("uploadkey"); in.Kind != "" && slot == "read" {
			return in, true // a setting or the last lines: read that upload
		}
		slot = uploadAction(slot, text)
		return uploadSlots(slot, text, hit("uploadq"))
	case "download":
		if in := hit("download"); in.Kind != "" {
			return in, true
		}
	}
	return Intent{}, false
}

// reUploadRef names the user's uploads as the place to search, which is
// the scope, not part of the query.
var reUploadRef = compile(`(?i)\b(in|through|across|within|among|from)?\s*(all\s+)?(my|the)\s+(uploaded\s+)?(files|uploads|documents|docs|logs)(\s+(that\s+)?i('ve|\s+have)?\s+(just\s+)?(uploaded|sent|shared))?\s*(for|about)?\b|(在|从)?我?(上传|传)的(文件|日志|文档)?(里|中|里面)?`)

// commandSlots is the command a request names or describes: the rules'
// command if one named it, else a command of the tiers the request
// describes in words (proseCommand), else the other rules' command,
// else a file command on a file the message names ("显示
// workspace/app.log 的最后20行"), else a command of the tiers named in
// prose ("show me the uptime"), with its default arguments.
func (c *commands) commandSlots(text string, hits *[len(ruleNames)]Intent) (Intent, bool) {
	rule := func(names ...string) (Intent, bool) {
		for _, name := range names {
			for i, n := range ruleNames {
				if n == name && hits[i].Tool == "command_executor" {
					return hits[i], true
				}
			}
		}
		return Intent{}, false
	}
	if argv, ok := quotedGrep(text); ok {
		return commandIntent(argv), true // the quote is the pattern, whatever words it holds
	}
	if in, ok := rule("namedpath", "specific"); ok {
		return in, true
	}
	if argv, concept := c.proseCommand(text); argv != nil && !restartConcepts[concept] {
		return commandIntent(argv), true // a command described in words; restarts are restartIntent's
	}
	if in, ok := rule("pathcmd", "phrase"); ok {
		return in, true
	}
	if argv, ok := fileCommand(text); ok {
		return commandIntent(argv), true
	}
	if d := relDir(text); d != "" && reDirWord.MatchString(names(text)) {
		return commandIntent(c.argv("ls", d)), true // "show me the files in workspace/"
	}
	if name, _ := c.tierWord(text); name != "" {
		if argv, ok := c.pathCommand(text, name); ok {
			return commandIntent(argv), true
		}
		return commandIntent(c.argv(name)), true
	}
	if running(names(text)) || reProcess.MatchString(names(text)) || reCulprit.MatchString(names(text)) {
		return commandIntent(c.argv("ps")), true // is it running, what runs
	}
	return Intent{}, false
}

// quotedGrep is grep of a quoted pattern in a file named by its path,
// when the prose (the quote blanked) asks to search it: "search
// /var/log/kern.log for 'Out of memory: Killed process'" looks for the
// words, it does not ask about processes.
func quotedGrep(text string) ([]string, bool) {
	p, q := absPath(text), reQuoted.FindStringSubmatch(text)
	if p == "" || strings.HasSuffix(p, "/") || q == nil || q[1] == p || !reGrep.MatchString(names(text)) {
		return nil, false
	}
	if argv, ok, handled := lineCommandArgv("grep", text, p); handled && ok {
		return argv, true
	}
	return []string{"grep", q[1], p}, true
}

// fileCommand is head, tail, grep or cat on a file the message names by
// a relative path or a file name: "请给我看 README.md 的前 10 行" → head
// -n 10 README.md, "在 app.log 里 grep 一下 ERROR" → grep ERROR app.log.
func fileCommand(text string) ([]string, bool) {
	f := absPath(text)
	if f == "" || f == "/" {
		f = relPath(text)
	}
	if f == "" {
		if f = reFile.FindString(text); f == "" {
			return nil, false
		}
	}
	cmd := namedCommand(text)
	if cmd == "" || cmd == "ls" {
		switch {
		case reTail.MatchString(text):
			cmd = "tail"
		case reHead.MatchString(text):
			cmd = "head"
		case reGrep.MatchString(text) && grepPattern(text, f) != "":
			cmd = "grep"
		case reContent.MatchString(text) || reViewVerb.MatchString(reSearchVerb.ReplaceAllString(text, " ")):
			cmd = "cat" // to find a file by its name is a search, not a read
		default:
			return nil, false
		}
	}
	if argv, ok, handled := lineCommandArgv(cmd, text, f); handled {
		return argv, ok
	}
	return []string{"cat", f}, true
}

// reEveryUpload asks about every upload: a read of them all.
var reEveryUpload = compile(`(?i)所有|全部|每个|每一个|\b(all|every|each|everything)\b`)

// uploadSlots is a list or read of the uploads: the reference rule's
// arguments if it fired, with the class's action; else the newest
// upload to read, or all of them to list.
func uploadSlots(action, text string, hit Intent) (Intent, bool) {
	args := map[string]any{}
	if hit.Tool == "file_upload" {
		args = maps.Clone(hit.Args)
	}
	if _, ok := args["reference"]; !ok {
		args["reference"] = "all"
		if action == "read" && !reEveryUpload.MatchString(text) {
			args["reference"] = "this"
		}
		if ft := fileType(text); ft != "" {
			args["file_type"] = ft
		}
	}
	if args["reference"] != "these" {
		args["action"] = action
	}
	return Intent{Kind: "upload_ref", Tool: "file_upload", Args: args}, true
}

// uploadAction is the action on every upload the message asks about:
// what they say is a read ("所有上传的文件分别讲了什么", "a summary of
// each file I uploaded"), what they are (names, sizes, times) a list;
// otherwise, or for other references, the class's.
func uploadAction(class, text string) string {
	if !reEveryUpload.MatchString(text) || reThis.MatchString(text) || reCount.MatchString(text) {
		return class
	}
	content, meta := reContentAsk.MatchString(names(text)), reMeta.MatchString(text)
	switch {
	case content && !meta:
		return "read"
	case meta && !content:
		return "list"
	}
	return class
}

// metric is the monitor's metric: the class's, or "all" when the prose
// names more than one resource ("内存和磁盘分别用了多少").
func metric(class, text string) string {
	prose := strings.ToLower(names(text))
	n := 0
	for _, re := range []*rx{reCPU, reMem, reDisk} {
		if re.MatchString(prose) {
			n++
		}
	}
	if n > 1 {
		return "all"
	}
	return class
}
