package config

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"opsassist/tools"
)

// MCP server defaults, applied by ResolveMCPServers to an entry that
// leaves the key out.
const (
	DefaultMCPStartupTimeout = 30 * time.Second
	DefaultMCPCallTimeout    = 60 * time.Second
)

// MCP transport types (an entry's type:), as Claude Code's .mcp.json
// spells them.
const (
	mcpTypeStdio          = "stdio"
	mcpTypeHTTP           = "http"
	mcpTypeStreamableHTTP = "streamable-http"
	mcpTypeSSE            = "sse"
)

// mcpServerName is what an mcp_servers name may be: it becomes part of
// the tool names (mcp__<server>__<tool>).
var mcpServerName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// MCPServer is one external MCP server (mcp_servers: name → entry). Its
// command, args, env, cwd, url and headers are those of the de-facto
// mcpServers JSON (Claude Code's .mcp.json), so such a block pastes in;
// set exactly one of Command (a stdio child) or URL (streamable HTTP).
// The string fields may hold ${VAR} or ${VAR:-default}, expanded by
// ResolveMCPServers, never here: the configuration that is logged keeps
// the references, and Config.String redacts env and header values.
type MCPServer struct {
	// Type is stdio, http or streamable-http (the same as http); sse is
	// refused (not supported: use streamable HTTP). Default: stdio with
	// command, http with url.
	Type string `yaml:"type"`
	// Command is the program of a stdio server, looked up in PATH.
	Command string `yaml:"command"`
	// Args are its arguments. Default none.
	Args []string `yaml:"args"`
	// Env are variables set in the child's environment. Default none.
	// Values are redacted by Config.String.
	Env map[string]string `yaml:"env"`
	// Cwd is the child's working directory. Default: the daemon's.
	Cwd string `yaml:"cwd"`
	// URL is the endpoint of a streamable HTTP server, http or https.
	URL string `yaml:"url"`
	// Headers are sent with every HTTP request (Authorization …).
	// Default none. Values are redacted by Config.String.
	Headers map[string]string `yaml:"headers"`
	// Enabled: false keeps the entry but starts no server. Default true.
	Enabled *bool `yaml:"enabled"`
	// StartupTimeout bounds connecting and initializing. Default 30s;
	// must be positive.
	StartupTimeout *time.Duration `yaml:"startup_timeout"`
	// CallTimeout bounds one tool call. Default 60s; must be positive.
	CallTimeout *time.Duration `yaml:"call_timeout"`
	// EnabledTools, when set, are the only tools of the server offered
	// (the server's own names). Exclusive with DisabledTools. Default:
	// all; an empty list is the same.
	EnabledTools []string `yaml:"enabled_tools"`
	// DisabledTools are tools of the server never offered. Default none.
	DisabledTools []string `yaml:"disabled_tools"`
	// Risk overrides a tool's risk (the server's own tool name →
	// read_only, sensitive or dangerous). Default: from the tool's
	// annotations.
	Risk map[string]string `yaml:"risk"`
	// HealthCheckTool is a read-only tool without arguments called by
	// the periodic health check besides tools/list. Default none.
	HealthCheckTool string `yaml:"health_check_tool"`
}

// IsEnabled reports whether the server is to be started (enabled:
// absent or true).
func (s MCPServer) IsEnabled() bool { return s.Enabled == nil || *s.Enabled }

// validateMCP checks every mcp_servers entry, each error naming its key
// ("mcp_servers.fs.command: …").
func (c *Config) validateMCP() []error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(c.MCPServers)) {
		errs = append(errs, validMCPServer(name, c.MCPServers[name])...)
	}
	return errs
}

// validMCPServer checks one entry as written, before ${VAR} expansion.
func validMCPServer(name string, s MCPServer) []error {
	key := "mcp_servers." + name
	if !mcpServerName.MatchString(name) {
		return []error{fmt.Errorf("%s: the name must be 1 to 32 letters, digits, '_' or '-'", key)}
	}
	if strings.Contains(name, "__") || strings.HasPrefix(name, "_") || strings.HasSuffix(name, "_") {
		return []error{fmt.Errorf("%s: the name must not contain \"__\" nor start or end with '_' (tools are named mcp__<server>__<tool>)", key)}
	}
	if name == "builtin" {
		return []error{fmt.Errorf("%s: \"builtin\" names the built-in tools (role patterns builtin:*); choose another name", key)}
	}
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s.%s: %s", key, field, fmt.Sprintf(format, a...)))
	}
	switch s.Type {
	case "", mcpTypeStdio, mcpTypeHTTP, mcpTypeStreamableHTTP:
	case mcpTypeSSE:
		bad("type", "sse is not supported, use streamable HTTP (type: http)")
	default:
		bad("type", "%q is not stdio, http or streamable-http", s.Type)
	}
	switch {
	case s.Command != "" && s.URL != "":
		bad("command", "set either command (stdio) or url (HTTP), not both")
	case s.Command == "" && s.URL == "":
		bad("command", "set command (a stdio server) or url (an HTTP server)")
	case s.Type == mcpTypeStdio && s.Command == "":
		bad("command", "type stdio needs command")
	case (s.Type == mcpTypeHTTP || s.Type == mcpTypeStreamableHTTP) && s.URL == "":
		bad("url", "type %s needs url", s.Type)
	}
	if s.Command == "" && (len(s.Args) > 0 || len(s.Env) > 0 || s.Cwd != "") {
		bad("command", "args, env and cwd are for a stdio server (command)")
	}
	if s.URL == "" && len(s.Headers) > 0 {
		bad("headers", "headers are for an HTTP server (url)")
	}
	if s.URL != "" {
		if err := checkMCPURL(s.URL, true); err != nil {
			bad("url", "%v", err)
		}
	}
	for k := range s.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			bad("env", "%s is not a variable name (no '=' nor NUL)", badNameChar(k, "=\x00"))
		}
	}
	for k := range s.Headers {
		if k == "" || strings.ContainsAny(k, ": \t\r\n") {
			bad("headers", "%s is not a header name (no ':', spaces nor line breaks)", badNameChar(k, ": \t\r\n"))
		}
	}
	for field, d := range map[string]*time.Duration{"startup_timeout": s.StartupTimeout, "call_timeout": s.CallTimeout} {
		if d != nil && *d <= 0 {
			bad(field, "must be positive")
		}
	}
	if len(s.EnabledTools) > 0 && len(s.DisabledTools) > 0 {
		bad("enabled_tools", "set enabled_tools or disabled_tools, not both")
	}
	for _, tool := range slices.Sorted(maps.Keys(s.Risk)) {
		switch r := tools.Risk(s.Risk[tool]); r {
		case tools.RiskReadOnly, tools.RiskSensitive, tools.RiskDangerous:
		default:
			bad("risk."+tool, "%q is not %s, %s or %s", r, tools.RiskReadOnly, tools.RiskSensitive, tools.RiskDangerous)
		}
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errs
}

// checkMCPURL reports why u, as written in the file, is not an http or
// https URL with a host. With unexpanded set, a URL still holding ${…}
// is only checked for its scheme (the rest is known once expanded).
// The reason never quotes u nor the parser's text, which quotes pieces
// of it ("invalid port \":s3cr\" after host"): a URL may carry a
// password. Only a scheme of a URL with "//" after it is quoted.
func checkMCPURL(u string, unexpanded bool) error {
	if unexpanded && strings.Contains(u, "${") {
		if l := strings.ToLower(u); strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(u, "${") {
			return nil
		}
		return fmt.Errorf("not an http or https URL")
	}
	p, err := url.Parse(u)
	switch {
	case err != nil:
		return errors.New("not a valid URL (in a user name or password, '/', '%', ':', '@' and spaces must be percent-encoded)")
	case p.Opaque != "":
		// "user:password@host": the "scheme" is the user name.
		return errors.New("not an http or https URL (want http:// or https://)")
	case p.Scheme != "http" && p.Scheme != "https":
		return fmt.Errorf("scheme %q is not http or https", p.Scheme)
	case p.Host == "":
		return errors.New("no host")
	}
	return nil
}

// badNameChar returns a key (an env variable or header name) for an
// error: the part before its first byte in bad, then "…", so that a
// whole "TOKEN=value" or "Authorization: Bearer …" pasted as a key does
// not show its value.
func badNameChar(k, bad string) string {
	if i := strings.IndexAny(k, bad); i >= 0 {
		return fmt.Sprintf("%q…", k[:i])
	}
	return fmt.Sprintf("%q", k)
}

// redactMCP returns a copy of servers for logging, servers unchanged:
// env and header values are "<redacted>"; a url's password and query
// values, and the secrets in args (--password=…, --token …, a URL's
// password or query values: tools.RedactArgs), are "***". A url's
// query value that is a whole ${VAR} reference, no secret, is kept.
func redactMCP(servers map[string]MCPServer) map[string]MCPServer {
	if servers == nil {
		return nil
	}
	out := make(map[string]MCPServer, len(servers))
	for name, s := range servers {
		s.Env = redactValues(s.Env)
		s.Headers = redactValues(s.Headers)
		s.Args = tools.RedactArgs(s.Command, s.Args)
		if s.URL != "" {
			s.URL = tools.RedactURL(s.URL)
		}
		out[name] = s
	}
	return out
}

func redactValues(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k := range m {
		out[k] = "<redacted>"
	}
	return out
}
