// Package cli is the opsassist command line: flag parsing, the
// subcommands (ask, upload, download, tools, tool, eval, eval-retrieval,
// audit, completion, version, help), the interactive REPL with line
// editing, history and Tab completion, and the rendering of answers,
// statuses, errors and progress bars. It talks to the server only
// through package client.
//
// One table, commands in help.go, documents every subcommand: the
// global and per-command help and the shell completion scripts are
// built from it.
//
// CLI runs the command. It writes only to the io.Writers it is given and
// reads the environment only through its Getenv, so tests drive it
// in-process. The eval commands score the planner and the search locally
// and so link the agent and storage packages, and package config for
// their --config flag; nothing else here needs them.
package cli
