// Package command is the command_executor tool: it runs one whitelisted
// system command and returns its exit code, stdout and stderr. Tiers is
// the one definition of which commands run (the whitelist, its defaults
// and the deny list); the offline planner and the model's prompt read the
// same value.
//
// No shell is involved. The command is looked up in a fixed PATH and its
// arguments are passed to execve, so globs, pipes, redirections and
// variables mean nothing; arguments containing shell metacharacters are
// refused all the same. Every argument that names a file must pass a
// pathguard.Validator, and for the commands with an option table (the
// defaults) every file the command reads is opened by the executor first
// (pathguard.Validator.Pin: no symbolic link followed, the descriptor
// checked) and handed to the child as /proc/self/fd/N, so the command
// reads the file that was checked even if its name is swapped for a link
// a moment later; in the output, those paths are shown as the caller
// wrote them. Options that would read arbitrary files, recurse past the
// deny list, follow a file or repeat forever, or print other processes'
// environments are refused in every spelling (see optSpecFor), and
// commands that run other commands or never end cannot be whitelisted
// (NewTiers).
// The child runs in the workspace with a scrubbed environment, in its
// own process group, which is killed as a whole on timeout or
// cancellation. stdout and stderr are each capped; the child is drained
// past the cap so it never blocks on a full pipe.
//
// Two things stay checks of names: commands added to the whitelist
// without a table get their path-like arguments checked, not pinned; and
// the entries below a directory that ls -R lists are looked up by ls
// itself, so a directory swapped for a link during the listing can show
// names (never contents) from outside the roots.
package command
