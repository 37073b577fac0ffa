// Package audit will hold the tamper-evident audit log of tool calls: who
// called which tool, in which conversation, with which arguments, what
// the policy decided and how the call ended, each record chained to the
// previous one by hash so that an edited or deleted record shows. It is
// empty today; a later issue (13) brings it.
//
// It plugs in beside the tools.Registry's Config.Observer hook, which
// today receives only the tool name, status and duration of each call
// (metrics use it); the audit log needs the tools.Call, the arguments and
// the policy's decision as well, so that hook grows or a second one joins
// it. Records live under the data directory, next to storage's own files.
package audit
