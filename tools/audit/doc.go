// Package audit is the tamper-evident audit log of tool calls: who called
// which tool, in which conversation, with which arguments (secrets
// redacted), what the policy decided, who or what decided it, and how
// the call ended. A Log implements tools.Recorder; the daemon opens one
// on <data>/audit and hands it to the tools.Registry.
//
// Records are JSON lines in <dir>/YYYY-MM-DD.jsonl, one file per UTC day,
// written and fsynced one at a time. Each record carries a sequence
// number (1, 2, … across files) and "prev", the hex SHA-256 of the
// previous record's line, so that editing, reordering or deleting a line
// breaks the chain at the next record. <dir>/HEAD names the last record
// (sequence number and hash) so that deleting records from the end shows
// as well. Verify walks the whole chain; Open repairs a line torn by a
// crash and records the repair.
//
// The chain proves that the log is as it was written only against
// someone who cannot rewrite all of it: whoever can write the whole
// directory can forge a consistent log and HEAD. docs/security.md says
// how to ship the log (or HEAD's hash) off the host so that this does
// not go unnoticed.
package audit
