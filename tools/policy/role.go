package policy

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"opsassist/tools"
)

// The built-in roles (chat's built-in role names, spelled again here so
// the policy imports no chat).
const (
	// RoleAdmin may use every tool under the permission policy's
	// defaults and rules; what else an admin may do (the audit log,
	// conversations without an owner) is not the policy's business.
	RoleAdmin = "admin"
	// RoleOperator is the default role: every tool, the policy's
	// defaults and rules.
	RoleOperator = "operator"
	// RoleViewer is read-only: a call runs only when the policy's
	// default without rules is Allow; what would be asked is denied.
	RoleViewer = "viewer"
)

// Role is what a role may do.
type Role struct {
	// Tools maps "source:tool" patterns to the role's decision for the
	// tools they match: Allow leaves the call to the permission policy,
	// Ask makes it at least Ask, Deny denies it. A tool no pattern
	// matches is denied; a role without Tools may use no tool. Must be
	// empty for a built-in role's name.
	//
	// Each half is a path.Match glob; a pattern without a colon is
	// "*:pattern". The source half matches the tool's Spec.Source
	// (SourceBuiltin when empty), the tool half its name or, for an MCP
	// tool registered as "mcp__<source>__<name>" or "<source>:<name>",
	// that <name>. The most specific matching pattern decides: a source
	// without wildcards before one with, then a tool without wildcards
	// before one with ("src:tool", "src:*", "*:tool", "*:*"), then
	// fewer wildcards, then more literal characters, then the stricter
	// decision, then the pattern text.
	Tools map[string]tools.Decision
	// Rules are the role's own permission rules, merged with
	// Config.Rules for its calls (the strictest match wins). For a
	// built-in role's name they are added to the built-in role.
	Rules []Rule
	// ReadOnly makes the role read-only, as the viewer: a call runs only
	// when the default decision without rules is Allow; what would be
	// asked is denied, never asked, and no allow rule widens it. Must be
	// false for a built-in role's name.
	ReadOnly bool
}

// builtinRoles are the built-in roles.
func builtinRoles() map[string]Role {
	all := map[string]tools.Decision{"*:*": tools.Allow}
	return map[string]Role{
		RoleAdmin:    {Tools: all},
		RoleOperator: {Tools: all},
		RoleViewer:   {Tools: all, ReadOnly: true},
	}
}

// role is a Role ready to decide: its patterns compiled and ordered,
// most specific first, and its rules named.
type role struct {
	name     string
	key      string // "roles.<name>", the Verdict.Rule of its decisions
	patterns []pattern
	rules    []Rule
	readOnly bool
}

// compileRoles merges the configured roles into the built-in ones.
func compileRoles(cfg map[string]Role) (map[string]*role, error) {
	merged := builtinRoles()
	for name, r := range cfg {
		if name == "" || strings.TrimSpace(name) != name {
			return nil, fmt.Errorf("policy: role name %q is empty or padded", name)
		}
		b, builtin := merged[name]
		if !builtin {
			merged[name] = r
			continue
		}
		if len(r.Tools) > 0 || r.ReadOnly {
			return nil, fmt.Errorf("policy: roles.%s: %w", name, ErrBuiltinRole)
		}
		b.Rules = r.Rules
		merged[name] = b
	}
	out := make(map[string]*role, len(merged))
	for name, r := range merged {
		c := &role{name: name, key: "roles." + name, readOnly: r.ReadOnly}
		for text, d := range r.Tools {
			pt, err := compilePattern(text, d)
			if err != nil {
				return nil, fmt.Errorf("policy: roles.%s.tools: %w", name, err)
			}
			c.patterns = append(c.patterns, pt)
		}
		slices.SortFunc(c.patterns, comparePatterns)
		rules, err := nameRules(r.Rules, c.key+".rules")
		if err != nil {
			return nil, err
		}
		c.rules = rules
		out[name] = c
	}
	return out, nil
}

// nameRules validates rules and returns a copy in which each rule
// without a Name is named prefix[i].
func nameRules(rules []Rule, prefix string) ([]Rule, error) {
	out := make([]Rule, len(rules))
	for i, r := range rules {
		if r.Name == "" {
			r.Name = fmt.Sprintf("%s[%d]", prefix, i)
		}
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		out[i] = r
	}
	return out, nil
}

// decide is the role's decision for a call of spec, and whether any of
// its patterns matched.
func (r *role) decide(spec tools.Spec) (tools.Decision, bool) {
	source := spec.Source
	if source == "" {
		source = tools.SourceBuiltin
	}
	bare := spec.SourceName
	if bare == "" {
		bare = bareName(source, spec.Name)
	}
	for _, pt := range r.patterns {
		if pt.matches(source, spec.Name, bare) {
			return pt.decision, true
		}
	}
	return tools.Deny, false
}

// bareName is an MCP tool's own name, without the source its registered
// name carries ("mcp__<source>__<name>" or "<source>:<name>"); "" when
// name carries none.
func bareName(source, name string) string {
	if n, ok := strings.CutPrefix(name, "mcp__"+source+"__"); ok && n != "" {
		return n
	}
	if n, ok := strings.CutPrefix(name, source+":"); ok && n != "" {
		return n
	}
	return ""
}

// Role configuration errors, wrapped with the role's name by New.
var (
	// ErrBuiltinRole is a configured role named like a built-in one with
	// its own tools or read-only flag: a built-in role's entry may only
	// add rules.
	ErrBuiltinRole = errors.New("policy: a built-in role takes only rules, not tools or read_only")
	// ErrBadPattern is a malformed "source:tool" pattern.
	ErrBadPattern = errors.New("policy: malformed tool pattern")
	// ErrUnknownRole is a default role that is neither built in nor
	// configured.
	ErrUnknownRole = errors.New("policy: unknown role")
)

// pattern is one compiled "source:tool" pattern of a role.
type pattern struct {
	text         string
	source, tool string
	// srcWild, toolWild: the half has a wildcard; wild counts the
	// wildcards of both halves, literal their other characters.
	srcWild, toolWild bool
	wild, literal     int
	decision          tools.Decision
}

// compilePattern parses and checks one pattern: "source:tool", each half
// a path.Match glob; no colon means "*:tool".
func compilePattern(text string, d tools.Decision) (pattern, error) {
	source, tool, ok := strings.Cut(text, ":")
	if !ok {
		source, tool = "*", text
	}
	if source == "" || tool == "" {
		return pattern{}, fmt.Errorf("%q: %w: empty source or tool", text, ErrBadPattern)
	}
	for _, half := range []string{source, tool} {
		if _, err := path.Match(half, ""); err != nil {
			return pattern{}, fmt.Errorf("%q: %w: %w", text, ErrBadPattern, err)
		}
	}
	if d != tools.Allow && d != tools.Ask && d != tools.Deny {
		return pattern{}, fmt.Errorf("%q: %w: no valid decision", text, ErrBadPattern)
	}
	sw, sl := wildcards(source)
	tw, tl := wildcards(tool)
	return pattern{text: text, source: source, tool: tool, srcWild: sw > 0, toolWild: tw > 0,
		wild: sw + tw, literal: sl + tl, decision: d}, nil
}

// wildcards counts the wildcards of a glob ("*", "?", a "[…]" class
// counting once) and its other characters (an escaped one counting as
// one).
func wildcards(glob string) (wild, literal int) {
	for i := 0; i < len(glob); i++ {
		switch glob[i] {
		case '\\':
			i++
			literal++
		case '*', '?':
			wild++
		case '[':
			wild++
			for i++; i < len(glob) && glob[i] != ']'; i++ {
				if glob[i] == '\\' {
					i++
				}
			}
		default:
			literal++
		}
	}
	return wild, literal
}

// matches reports whether the pattern covers a tool of source named name
// (or bare, an MCP tool's own name).
func (pt pattern) matches(source, name, bare string) bool {
	if ok, _ := path.Match(pt.source, source); !ok {
		return false
	}
	if ok, _ := path.Match(pt.tool, name); ok {
		return true
	}
	if bare == "" {
		return false
	}
	ok, _ := path.Match(pt.tool, bare)
	return ok
}

// comparePatterns orders patterns most specific first, a total order:
//
//  1. a source without wildcards before one with;
//  2. then a tool without wildcards before one with
//     (so "src:tool" < "src:*" < "*:tool" < "*:*");
//  3. then fewer wildcards;
//  4. then more literal characters ("builtin:file_*" before "builtin:f*");
//  5. then the stricter decision (deny, ask, allow);
//  6. then the pattern text, byte by byte.
func comparePatterns(a, b pattern) int {
	return cmp.Or(
		boolCmp(a.srcWild, b.srcWild),
		boolCmp(a.toolWild, b.toolWild),
		cmp.Compare(a.wild, b.wild),
		cmp.Compare(b.literal, a.literal),
		cmp.Compare(b.decision, a.decision),
		strings.Compare(a.text, b.text),
	)
}

// boolCmp orders false before true.
func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
