// Package agent answers user turns for the chat core with a ReAct loop:
// a Planner (an OpenAI-compatible model, or the built-in offline planner)
// decides the next step — text, tool calls, or both — the tools run
// through the tools.Registry, their results go back to the planner, and
// the loop ends when the planner answers without calling a tool or the
// step limit is reached.
//
// Placeholder, a responder without planners that the transports' tests
// use, is in placeholder.go.
package agent
