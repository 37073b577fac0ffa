// Package policy is the permission policy: it decides, before every tool
// call, whether the call runs (allow), runs only once the user confirmed
// it (ask) or never runs (deny). It implements tools.Policy, the hook the
// tools.Registry consults after argument validation; the daemon builds
// one from the configuration's permissions section (mapped onto this
// package's own Config: it imports no config package) and hands it to
// the Registry through toolset.
//
// A decision is made in these steps:
//
//  1. What the call touches, as the tool that runs it reads its
//     arguments: a tool that implements Inspector (command_executor,
//     file_download) says which command tier the call falls in and
//     where each file it names lies (pathguard.Class). A denied
//     command (the deny list) or a secret path is Deny, final: no rule
//     or role allows it and the user is never asked.
//  2. The caller's role (tools.Call.Role, Config.DefaultRole when
//     empty; an unknown role is Deny): its Tools patterns ("source:tool",
//     the most specific match deciding, see Role.Tools)
//     say whether it may use the tool at all. No match or deny is Deny;
//     ask makes the final decision at least Ask; allow leaves it to the
//     next steps.
//  3. The default: Ask for an ask-tier command or a path outside the
//     allowed roots, Allow for the rest; a tool without an Inspector
//     gets its default from its risk level: read_only is Allow,
//     sensitive and dangerous are Ask.
//  4. The configured rules and the role's rules that match the call (by
//     tool name with "*" wildcards, by command and argument prefix, by
//     path glob) replace the default, the strictest winning: deny > ask
//     > allow. An allow rule for what the default would ask about runs
//     the call as if confirmed (Verdict.Approved).
//  5. A read-only role (the built-in viewer) is never asked: a call runs
//     only when the default of step 3 is Allow, no allow rule widens
//     that, and whatever ends at Ask is Deny.
//
// The built-in roles are admin and operator (every tool, steps 3 and 4
// alone) and viewer (every tool, read-only). A configured role named
// like one of them only adds rules to it.
//
// Every Verdict says what decided (By: tools.DecidedByDefault for the
// defaults and hard denials, DecidedByRule for a rule, DecidedByRole for
// the role) and which rule or role (Rule: the rule's Name, or
// "roles.<name>").
//
// The Verdict carries a short reason in Chinese and in English, each on
// its own (Verdict.ReasonText) and both at once (Verdict.Reason), the scope
// an "allow for this session" answer covers (the tool, the command and
// its first operand or the directory of the path, never more), and the
// arguments as the user is shown them, secrets redacted.
package policy
