// Package eval measures a planner's tool selection: for each case of a
// JSON Lines file it asks the planner for the first step of a turn and
// compares the first tool call with the case's expectation — the tool's
// name and a subset of its arguments, or, for a refusal case, no call.
//
// Load reads the cases, Run runs them against any agent.Planner, and the
// Report lists the misses, the refusals kept, per-tool precision and
// recall, a confusion matrix and the accuracy (Report.Write). The
// builtin planner's accuracy and refusals on
// testdata/evals/tool_selection.jsonl are enforced by this package's
// tests; the "opsassist eval" command only reports.
//
// LoadChains reads multi-step cases (Chain): uploads and messages in
// one conversation and expectations on the whole chain and the last
// answer (Chain.Check). The e2e package plays them through a whole
// daemon.
package eval
