package policy

import (
	"encoding/json"

	"opsassist/tools"
	"opsassist/tools/pathguard"
)

// Target is what one call would touch, as the tool that runs it reads its
// arguments.
type Target struct {
	// Command and Args are command_executor's command line; empty for
	// other tools.
	Command string
	Args    []string
	// Tier is the command's tier (command.Tiers): Allow for the
	// whitelist, Ask for the ask tier, Deny for the deny list and every
	// other command; Why says why it is denied, or, for a call of a
	// whitelisted command that asks (ps showing full command lines),
	// why it needs confirmation. Allow for tools without commands.
	Tier tools.Decision
	Why  string
	// WhyZh is Why in Chinese, for an ask or a denied command; ""
	// when the tool has none.
	WhyZh string
	// Scope is the command line an "allow for this session" covers for
	// an ask-tier command: the command, its subcommand and arguments up
	// to the first operand ("systemctl restart nginx").
	Scope string
	// Paths are the files the call names, classified by the validator
	// the tool checks them with.
	Paths []Path
}

// Path is one file a call names.
type Path struct {
	// Arg is the path as written; Resolved the physical path it names
	// (empty when unusable).
	Arg, Resolved string
	// Class is where it lies.
	Class pathguard.Class
}

// Inspector is a tool that can say what a call would touch before it
// runs. An error means the arguments are malformed; the policy then
// leaves the refusal to the tool.
type Inspector interface {
	Inspect(args json.RawMessage) (Target, error)
}
