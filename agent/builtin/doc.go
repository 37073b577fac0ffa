// Package builtin is the offline planner: deterministic, bilingual
// (Chinese and English) intent recognition and argument extraction for the
// five tools, including the tool contract's chains, with answers composed
// from the tools' real results. It needs no model and no network.
//
// What it can do: system resource questions, whitelisted commands, finding
// and reading uploaded files, downloads, document search, small talk and
// refusals. What it cannot: free-form reasoning over arbitrary text; its
// answers quote and summarise tool results rather than interpret them,
// except the common ops answers it computes: a setting's value by its
// key path (keyvalue.go, through internal/confkv; a key written as the
// file writes it, and file names in the question, keypath.go), two
// configuration files compared key by key (compare.go), a log's errors
// grouped and counted (logerrors.go, errorkey.go), the last or first
// lines of an upload (filelines.go) and the top processes from ps
// (processes.go).
//
// Classify (intent.go) runs stages. Typo repair (typo.go) fixes the
// vocabulary's typos in both languages: English words within an edit
// distance that grows with their length (the tiers' command names
// included), Chinese pinyin-IME and voice-input homophones, and reads
// traditional characters, Cantonese and pinyin words as simplified
// Mandarin (dialect.go). A fenced code block asked to be run is read
// line by line like a chain, one asked about is set aside (block.go); a
// paste, then a request, is planned from its last line, the pasted lines
// read only for destructive requests (paste.go). The safety stage, rules and
// first, runs what a command line asks through the tiers (a leading
// plain sudo is dropped, sudo.go: the command after it is what is
// judged), proposes the
// ask tier's restart of a named service or container (restart.go, the
// rule's one owner) or a service's status (service.go) and refuses destructive or system-changing requests by
// meaning — an action that changes the system asked of a system object,
// in either language, politely or not, with typos, the result named after
// the object ("I need /tmp emptied", "have the logs deleted", harmwish.go),
// or a shell line that changes the system, each command of a chain read
// as a line of its own (harm.go, harmverbs.go, harmzh.go, after inert.go
// masks mentions that ask for nothing — everyday checks of what happened
// included, "帮我查查是谁重启了 nginx" — and procedure.go a procedure named
// as the means, "按运维手册把 … 删掉", and plan.go the speaker's own plan
// beside a check; a request relayed from someone else is a request, and
// programs whose subcommand changes a cluster, a cloud account, a queue,
// a database or a checkout are refused, harmtools.go, and so are
// changes to containers, virtual machines and snapshots, harmlife.go; a
// read-only form of a program the
// tiers do not offer, "route -n", is refused as not offered,
// readonly.go), then by the older word rules
// (command.go) — saying what it refused and what it can do instead
// (harmkind.go); greetings and help need no tool. Everything else is decided by
// learned scores (decide.go), after two plain cases — a command line
// with prose after it, or a program's output asked by name (leadcmd.go),
// a verbless count of a log or "ports?" (verbless.go), and a message
// that names only the uploads (shortmsg.go): the
// hand-written intent rules' answers
// (files.go, monitor.go, command.go), the concepts a message names read
// from its prose (features.go: a viewed file, a document or procedure
// governing a resource word, uploads and their scope, downloads, the
// tiers' commands named in prose) and its words are features; a softmax
// model (model.go, model.weights, trained on
// testdata/evals/tool_selection.jsonl and train2–train22.jsonl by `go generate`)
// scores every tool with its main slot value and "no tool"; slot
// extraction (slots.go) fills the best class whose arguments the message
// gives: commands described in words (prosecmd.go), settings and last
// lines of uploads (uploadkey.go), a setting of a server file as grep
// of its key (settinggrep.go); an elliptical follow-up reads the
// upload the previous question read (followup.go). Every slot that
// takes a path reads it through package internal/pathtext, the one
// owner of where a path starts and ends: names in any script kept
// whole, Chinese glued after a name ending in ASCII cut off as prose
// ("/var/log下的文件" is /var/log), a quoted path taken whole; and the
// path reaches the tool as the message wrote it, though the planner
// reads the message with traditional characters as simplified and
// typos repaired (pathslot.go). Where the learned
// stage gives no tool, the backstop (backstop.go, backstopzh.go) refuses
// a message that asks for an action on an object of the machine with a
// verb that is not a look: by the request's shape, the object's class
// and the verb, never by phrasing; it cannot turn a call into a
// refusal. Plan marks a
// refusal's step (agent.Step.Refusal). No score can turn a refusal into
// a call, and what the learned stage runs is a command of the tiers. Plan (planner.go) turns an intent into tool
// calls and chains; answer.go writes the reply. Accuracy on
// testdata/evals is enforced by package agent/eval; docs/evals.md
// ("Planner") says how the model is trained and measured.
//
// Which commands run is not the planner's to say: Config.Commands is the
// command_executor tool's own command.Tiers, and the planner runs what
// they whitelist, refuses the rest and lists the whitelist when it
// refuses. The rules are regular expressions behind a cheap gate
// (gate.go), compiled when first used: a program that links the planner
// but never plans (the CLI) pays nothing for them at start.
package builtin
