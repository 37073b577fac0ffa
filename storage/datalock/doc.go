// Package datalock keeps two daemons off one data directory: the first
// holds an exclusive lock on <data>/.lock for its life, a second one is
// refused with ErrHeld. The holder records where it listens in
// <data>/daemon.json (Lock.Publish; removed by Unpublish, first thing
// in its shutdown, and by Release; a previous holder's is removed by
// Acquire), so a local client that finds the directory held (opsassistd
// mcp-stdio) reaches exactly that daemon (ReadRecord), and nothing else:
// the record carries the random nonce the holder wrote into the lock
// file, and is refused unless the two match, so a record left by an
// earlier daemon is never taken for the holder's, even under the same
// pid.
package datalock
