// Package pathguard decides whether a tool may touch a file path.
//
// A Validator resolves a path the way the kernel will when a command opens
// it — relative paths against a base directory, every symbolic link
// replaced by its target, every ".." applied to the already resolved
// parent — and only then checks it: the result must lie inside one of the
// configured roots (compared segment by segment, so /data/uploads-evil is
// not inside /data/uploads) and neither the path as given nor the resolved
// path may match a deny pattern such as .ssh, .env or *.pem.
//
// A path that does not exist yet is resolved up to its deepest existing
// parent; the missing rest is appended as written. A dangling symbolic link
// is followed to its (missing) target, so a link inside a root cannot be
// used to create a file outside it.
//
// Checking a name is a snapshot: a path accepted now can be replaced by
// a link a moment later by anyone who can write to its directories. Open
// and Pin close that gap: they open the resolved path one component at a
// time without following any link, then check the file they opened — its
// type, its hard link count (a hard link planted in a root can be another
// name for /etc/shadow; refused unless Config.AllowHardlinks) and, on
// Linux, the path /proc/self/fd reports for the descriptor. Callers read
// the descriptor, or hand it to a child process (FDPath), never the name.
//
// Classify tells the permission policy (package tools/policy) where a
// path falls — inside the roots, outside them, secret (a deny pattern) or
// unusable — by the same rules Check enforces; Approved returns the
// Validator a tool uses for a call the user approved, which accepts paths
// outside the roots and keeps every other check.
//
// Refusals are *Error values whose message is written for the person who
// named the path; code matches the sentinel kinds with errors.Is.
package pathguard
