// Package history stores conversations as append-only JSONL files, one per
// conversation, under a directory (normally <data>/history).
//
// Every change is one or more records appended to the conversation's file
// and fsynced before the call returns, so a turn that was acknowledged
// survives a crash. On open, a torn last line (a crash mid-write) is
// skipped with a warning and cut off; a corrupt line elsewhere is skipped
// with a warning. Neither is fatal.
package history
