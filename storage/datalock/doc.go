// Package datalock keeps two daemons off one data directory: the first
// holds an exclusive lock on <data>/.lock for its life, a second one is
// refused with ErrHeld. The holder records where it listens in
// <data>/daemon.json (Lock.Publish, removed by Release), so a local
// client that finds the directory held (opsassistd mcp-stdio) reaches
// exactly that daemon (ReadRecord), and nothing else.
package datalock
