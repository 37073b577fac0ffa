// Package askuser holds the user-interaction tool ask_user: a question
// the model (or the offline planner) puts to the person in the
// conversation — free text, a choice among options, or yes/no — and
// waits for, from whichever client they use.
//
// The tool only validates its arguments and calls tools.Call.AskUser;
// the chat core owns the waiting (chat/question.go): a one-shot answer
// slot registered under a fresh id in the same registry as permission
// requests, before the question event goes out, with a deadline and ctx
// (house style rule 18). A timeout answers with the default, if any;
// otherwise, and on cancel or disconnect, the model is told nobody
// answered. Permission confirmations (the Policy's Ask) do not go
// through this tool: they are tools.Call.Confirm.
package askuser
