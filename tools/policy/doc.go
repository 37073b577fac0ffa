// Package policy is the permission policy: it decides, before every tool
// call, whether the call runs (allow), runs only once the user confirmed
// it (ask) or never runs (deny). It implements tools.Policy, the hook the
// tools.Registry consults after argument validation; the daemon builds
// one from the configuration's permissions section (mapped onto this
// package's own Config: it imports no config package) and hands it to
// the Registry through toolset.
//
// A decision is made in three steps:
//
//  1. What the call touches, as the tool that runs it reads its
//     arguments: a tool that implements Inspector (command_executor,
//     file_download) says which command tier the call falls in and
//     where each file it names lies (pathguard.Class). A denied
//     command (the deny list) or a secret path is Deny, final: no rule
//     allows it and the user is never asked. Otherwise the default is
//     Ask for an ask-tier command or a path outside the allowed roots,
//     and Allow for the rest.
//  2. A tool without an Inspector gets its default from its risk level:
//     read_only is Allow, sensitive and dangerous are Ask.
//  3. The configured rules that match the call (by tool name with "*"
//     wildcards, by command and argument prefix, by path glob) replace
//     the default, the strictest winning: deny > ask > allow. An allow
//     rule for what the default would ask about runs the call as if
//     confirmed (Verdict.Approved).
//
// The Verdict carries a short reason in Chinese and English, the scope
// an "allow for this session" answer covers (the tool, the command and
// its first operand or the directory of the path, never more), and the
// arguments as the user is shown them, secrets redacted.
package policy
