// Package cli is the opsassist command line: flag parsing, the
// subcommands (ask, upload, download, eval, eval-retrieval), the
// interactive REPL with line editing and history, and the rendering of
// answers, statuses, errors and progress bars. It talks to the server
// only through package client.
//
// CLI runs the command. It writes only to the io.Writers it is given and
// reads the environment only through its Getenv, so tests drive it
// in-process. The eval commands score the planner and the search locally
// and so link the agent and storage packages, and package config for
// their --config flag; nothing else here needs them.
package cli
