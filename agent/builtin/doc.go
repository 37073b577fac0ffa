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
// key path (keyvalue.go, through internal/confkv), two configuration
// files compared key by key (compare.go), a log's errors grouped and
// counted (logerrors.go, errorkey.go) and the top processes from ps
// (processes.go).
//
// Classify (intent.go) tries the intents from the most specific to the
// most general; the rules live with their concern: command lines,
// command phrases and refusals in command.go, downloads, uploads and
// search in files.go, resources in monitor.go, English typo repair in
// typo.go. Plan (planner.go) turns an intent into tool calls and chains;
// answer.go writes the reply. Accuracy on testdata/evals is enforced by
// package agent/eval.
//
// Which commands run is not the planner's to say: Config.Commands is the
// command_executor tool's own command.Tiers, and the planner runs what
// they whitelist, refuses the rest and lists the whitelist when it
// refuses. The rules are regular expressions behind a cheap gate
// (gate.go), compiled when first used: a program that links the planner
// but never plans (the CLI) pays nothing for them at start.
package builtin
