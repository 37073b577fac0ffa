package policy

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"opsassist/tools"
)

// Rule is one configured permission rule. Every field set must match
// for the rule to apply.
type Rule struct {
	// Name is how the configuration names the rule, for Verdict.Rule and
	// the audit log: the daemon sets "permissions.rules[2]" or
	// "roles.deployer.rules[0]". Default "rules[i]" for Config.Rules,
	// "roles.<role>.rules[i]" for a role's.
	Name string
	// Tool is the tool's name, "*" wildcards allowed: "command_executor",
	// "file_*", an MCP tool "server:tool" or "server:*", "*". Required.
	Tool string
	// Command, for command_executor, is the command and the leading
	// arguments it must start with: "systemctl restart", "journalctl -u".
	Command string
	// ArgsPrefix are more leading arguments, after Command's, separated
	// by spaces: "nginx".
	ArgsPrefix string
	// Path is a glob matched against the files the call names: "*" does
	// not cross "/", and a pattern ending in "/**" matches the directory
	// and everything under it ("/var/log/**"). A deny or ask rule
	// applies when ANY file matches, as written or resolved; an allow
	// rule only when EVERY file matches once resolved (links followed
	// by the path guard, as the command will open it): a call naming
	// one file inside and one outside, or a link inside pointing
	// outside, is not allowed by it.
	Path string
	// Decision is tools.Allow, tools.Ask or tools.Deny.
	Decision tools.Decision
}

// ParseDecision returns the decision named "allow", "ask" or "deny".
func ParseDecision(s string) (tools.Decision, error) {
	switch s {
	case "allow":
		return tools.Allow, nil
	case "ask":
		return tools.Ask, nil
	case "deny":
		return tools.Deny, nil
	}
	return 0, fmt.Errorf("policy: decision %q is not allow, ask or deny", s)
}

// validate checks that the rule's patterns are well formed.
func (r Rule) validate() error {
	if r.Tool == "" {
		return fmt.Errorf("policy: rule without a tool")
	}
	if _, err := path.Match(r.Tool, ""); err != nil {
		return fmt.Errorf("policy: rule tool %q: %w", r.Tool, err)
	}
	if r.Path != "" {
		if _, err := path.Match(strings.TrimSuffix(r.Path, "/**"), ""); err != nil {
			return fmt.Errorf("policy: rule path %q: %w", r.Path, err)
		}
	}
	if r.Decision != tools.Allow && r.Decision != tools.Ask && r.Decision != tools.Deny {
		return fmt.Errorf("policy: rule for %q has no valid decision", r.Tool)
	}
	return nil
}

// matches reports whether the rule applies to a call of tool whose
// target is t (zero if the tool is not inspected).
func (r Rule) matches(tool string, t Target) bool {
	if ok, _ := path.Match(r.Tool, tool); !ok {
		return false
	}
	if want := strings.Fields(r.Command + " " + r.ArgsPrefix); len(want) > 0 {
		got := append([]string{t.Command}, t.Args...)
		if t.Command == "" || len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
			return false
		}
	}
	if r.Path != "" {
		if r.Decision == tools.Allow {
			return len(t.Paths) > 0 && !slices.ContainsFunc(t.Paths, func(p Path) bool {
				return p.Resolved == "" || !matchPath(r.Path, p.Resolved)
			})
		}
		return slices.ContainsFunc(t.Paths, func(p Path) bool {
			return matchPath(r.Path, p.Arg) || p.Resolved != "" && matchPath(r.Path, p.Resolved)
		})
	}
	return true
}

// matchPath matches a rule's path glob against p.
func matchPath(glob, p string) bool {
	p = filepath.Clean(p)
	if dir, ok := strings.CutSuffix(glob, "/**"); ok {
		if dir == "" {
			return true
		}
		for q := p; ; q = filepath.Dir(q) {
			if ok, _ := path.Match(dir, q); ok {
				return true
			}
			if q == "/" || q == "." {
				return false
			}
		}
	}
	ok, _ := path.Match(glob, p)
	return ok
}
