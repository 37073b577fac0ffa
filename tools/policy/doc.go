// Package policy will hold the permission policy: allow/ask/deny rules per
// tool (by name, by risk level, by argument such as a command or a path)
// and the roles of the users they apply to. It is empty today; the
// permission work (issue 12) brings it.
//
// It plugs into the hook that already exists: its policy implements
// tools.Policy, whose Decide is consulted by the tools.Registry before
// every call, after argument validation. The daemon sets it as the
// Registry's Config.Policy (through toolset); until then the Registry
// uses tools.AllowAll. An Ask decision needs the user-interaction tool
// (package askuser); the Registry refuses it with an explanation until
// that exists. Rules come from the daemon's configuration, mapped onto
// this package's own Config: it imports no config package.
package policy
