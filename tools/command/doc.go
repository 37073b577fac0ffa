// Package command is the command_executor tool: it runs one whitelisted
// system command (ls, cat, grep, head, tail, ps, pwd, whoami, df, free by
// default) and returns its exit code, stdout and stderr.
//
// No shell is involved. The command is looked up in a fixed PATH and its
// arguments are passed to execve as they are, so globs, pipes,
// redirections and variables mean nothing; arguments containing shell
// metacharacters are refused all the same. Every argument that names a
// file must pass a pathguard.Validator, options that would read arbitrary
// files, recurse past the deny list, follow a file forever or print
// other processes' environments are refused (see optSpecFor), and the
// child runs in the workspace with a scrubbed environment, in its own
// process group, which is killed as a whole on timeout or cancellation.
// stdout and stderr are each capped; the child is drained past the cap so
// it never blocks on a full pipe.
package command
