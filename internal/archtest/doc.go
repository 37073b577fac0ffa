// Package archtest holds no code, only the test that keeps the module's
// layout: which packages may import the transports, the configuration and
// the composition root, and what the command-line program links. It reads
// the import graph with `go list`, so it skips where no go command is on
// PATH.
package archtest
