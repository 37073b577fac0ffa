// Package eval measures a planner's tool selection: for each case of a
// JSON Lines file it asks the planner for the first step of a turn and
// compares the first tool call with the case's expectation — the tool's
// name and a subset of its arguments.
//
// Load reads the cases, Run runs them against any agent.Planner, and the
// Report lists the misses and the accuracy. The builtin planner's
// accuracy on testdata/evals/tool_selection.jsonl is enforced by this
// package's tests; the "opsassist eval" command only reports.
package eval
