// Package loopguard is the doom-loop detector of one agent turn (seed
// 001 §3.5): a model that keeps calling the same tool with the same
// arguments, or swings between two calls, is stopped instead of being
// allowed to burn the turn's steps and the user's quota.
//
// The agent keeps one Guard per turn and checks every tool call, in
// order, before it starts. A call is stopped when it would be the third
// call of the same tool with the same arguments in the turn, or when it
// completes an A-B-A-B oscillation. The agent then sets tools.Call.Loop
// to the Verdict's Reason and tools.Call.LoopQuestion to its Question:
// the Registry asks the user the Question, whether to run the call
// anyway, and otherwise refuses it with the Reason, so the model is
// told why. When the user chooses to continue, the agent calls
// Allow and counting for that call starts over.
//
// Arguments are compared canonically (Canonical): key order and
// whitespace do not make two calls different.
package loopguard
