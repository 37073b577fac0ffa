package config

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"opsassist/tools"
	"opsassist/tools/mcp"
)

// ErrMCPVariable is matched (errors.Is) by ResolveMCPServers' errors
// about a malformed ${VAR} reference.
var ErrMCPVariable = errors.New("config: mcp_servers variable")

// mcpVarError names the server, the field and the variable of a bad
// ${VAR} reference, never a value.
type mcpVarError struct{ field, why string }

func (e *mcpVarError) Error() string { return e.field + ": " + e.why }

func (e *mcpVarError) Is(target error) bool { return target == ErrMCPVariable }

// ResolveMCPServers returns the enabled mcp_servers entries sorted by
// name, as the MCP client starts them (mcp.ServerConfig; they hold
// secrets: never log them), with ${VAR} and ${VAR:-default} in command,
// args, cwd, url and env and header values expanded through lookup
// (usually os.LookupEnv) and the default timeouts applied. Disabled
// entries are left out. What ${VAR} references put into command and
// cwd (each value, and the whole field) is in Hidden, so the errors of
// starting the child, which quote them, do not show it.
//
// An entry that cannot be started as expanded — a variable unset
// without a default, a url that is no http(s) URL or a command that is
// empty once expanded, a header value with a control character — is
// returned with only its Name and Unavailable set, saying why and
// naming the field and the variable, never a value
// ("mcp_servers.gh.headers.Authorization: environment variable GH_TOKEN
// is not set"): that server alone is shown unavailable, and the others
// run. A malformed reference ("${", "${1X}") is an error of the file
// (ErrMCPVariable). c itself is not changed, so the configuration that
// is logged never holds the values. It expects a configuration
// Validate accepted.
func (c *Config) ResolveMCPServers(lookup func(string) (string, bool)) ([]mcp.ServerConfig, error) {
	var (
		out  []mcp.ServerConfig
		errs []error
	)
	for _, name := range slices.Sorted(maps.Keys(c.MCPServers)) {
		s := c.MCPServers[name]
		if !s.IsEnabled() {
			continue
		}
		key := "mcp_servers." + name
		x := expander{lookup: lookup}
		r := mcp.ServerConfig{
			Name:            name,
			Command:         x.expandHidden(key+".command", s.Command),
			Cwd:             x.expandHidden(key+".cwd", s.Cwd),
			URL:             x.expand(key+".url", s.URL),
			StartupTimeout:  durationOr(s.StartupTimeout, DefaultMCPStartupTimeout),
			CallTimeout:     durationOr(s.CallTimeout, DefaultMCPCallTimeout),
			EnabledTools:    cloneNonEmpty(s.EnabledTools),
			DisabledTools:   cloneNonEmpty(s.DisabledTools),
			Risk:            risks(s.Risk),
			HealthCheckTool: s.HealthCheckTool,
		}
		for i, a := range s.Args {
			r.Args = append(r.Args, x.expand(fmt.Sprintf("%s.args[%d]", key, i), a))
		}
		r.Hidden = x.hidden
		r.Env = x.expandMap(key+".env", s.Env)
		r.Headers = x.expandMap(key+".headers", s.Headers)
		if x.errs != nil {
			errs = append(errs, x.errs...)
			continue
		}
		if x.unset == nil && s.URL != "" {
			if checkMCPURL(r.URL, false) != nil {
				// Not why: the parser's text quotes pieces of the URL,
				// which now holds the variables' values.
				x.unset = append(x.unset, key+".url: once expanded, not a valid http(s) URL")
			}
		}
		for _, k := range slices.Sorted(maps.Keys(r.Headers)) {
			if strings.ContainsFunc(r.Headers[k], func(c rune) bool { return c < ' ' && c != '\t' || c == 0x7f }) {
				x.unset = append(x.unset, fmt.Sprintf("%s.headers.%s: a control character once expanded", key, k))
			}
		}
		if x.unset == nil && s.Command != "" && r.Command == "" {
			x.unset = append(x.unset, key+".command: empty once expanded")
		}
		if x.unset != nil {
			// Nothing else: the rest may hold the values of variables
			// that are set.
			r = mcp.ServerConfig{Name: name, Unavailable: strings.Join(x.unset, "; ")}
		}
		out = append(out, r)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return out, nil
}

// cloneNonEmpty copies s, nil when empty: an empty enabled_tools is
// the same as none.
func cloneNonEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

func durationOr(d *time.Duration, def time.Duration) time.Duration {
	if d == nil {
		return def
	}
	return *d
}

// expander expands ${VAR} and ${VAR:-default} through lookup, collecting
// an error per malformed reference (errs) and a reason per variable
// unset without a default (unset). A "$" not followed by "{" is kept as
// is.
type expander struct {
	lookup func(string) (string, bool)
	errs   []error
	unset  []string
	// hidden collects what references gave the fields expandHidden
	// expanded: each variable's value or default, and the whole field.
	hidden []string
	// got collects the values references gave, in expand.
	got []string
}

// expandHidden is expand, also adding to hidden what came from
// references and, when there was one, the expanded field.
func (x *expander) expandHidden(field, s string) string {
	n := len(x.got)
	out := x.expand(field, s)
	if len(x.got) > n {
		for _, v := range append(x.got[n:], out) {
			if !slices.Contains(x.hidden, v) {
				x.hidden = append(x.hidden, v)
			}
		}
	}
	return out
}

func (x *expander) expandMap(field string, m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out[k] = x.expand(field+"."+k, m[k])
	}
	return out
}

// expand returns s with its references replaced; a bad reference is
// recorded, naming field and the variable.
func (x *expander) expand(field, s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			x.errs = append(x.errs, &mcpVarError{field: field, why: "unterminated ${"})
			return ""
		}
		ref := s[i+2 : i+end]
		s = s[i+end+1:]
		name, def, hasDef := strings.Cut(ref, ":-")
		if !validVarName(name) {
			shown := name // not the default: it may be a secret written in place
			if hasDef {
				shown += ":-…"
			}
			x.errs = append(x.errs, &mcpVarError{field: field, why: fmt.Sprintf("${%s} is not a variable name (want ${NAME} or ${NAME:-default})", shown)})
			continue
		}
		switch v, ok := x.lookup(name); {
		case ok && v != "":
			b.WriteString(v)
			x.got = append(x.got, v)
		case hasDef:
			b.WriteString(def)
			x.got = append(x.got, def)
		case ok:
			// set but empty, no default: empty, as a shell does
		default:
			x.unset = append(x.unset, fmt.Sprintf("%s: environment variable %s is not set", field, name))
		}
	}
}

// validVarName reports whether n is a shell variable name.
func validVarName(n string) bool {
	if n == "" {
		return false
	}
	for i, r := range n {
		if r != '_' && !(r >= 'A' && r <= 'Z') && !(r >= 'a' && r <= 'z') && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// risks maps the risk: overrides onto the tool layer's levels (Validate
// checked their values); nil when there are none.
func risks(in map[string]string) map[string]tools.Risk {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]tools.Risk, len(in))
	for tool, r := range in {
		out[tool] = tools.Risk(r)
	}
	return out
}
