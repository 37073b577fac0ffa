package config

import "flag"

// Load builds the configuration for a command line: defaults, then the
// YAML file named by --config (or OPSASSIST_CONFIG), then OPSASSIST_*
// variables, then the flags; then it adds the servers of the .mcp.json
// named by mcp_config (--mcp-config) to mcp_servers. It validates the
// result, and reads through lookup the users' token_env variables
// (Directory), so that a missing or weak token stops the start naming
// the user, and checks the mcp_servers' ${VAR} references
// (ResolveMCPServers): a malformed one stops the start naming the
// server and the field; an unset one only makes that server unavailable
// once running. opts adjust the result before the checks.
func Load(fs *flag.FlagSet, args []string, lookup func(string) (string, bool), opts ...Option) (Config, error) {
	var (
		file                       string
		nplt, rdt, http, data, llm string
		logFormat, logLevel        string
		mcpConfig                  string
	)
	fs.StringVar(&file, "config", "", "YAML config file (env OPSASSIST_CONFIG)")
	fs.StringVar(&nplt, "nplt", "", "NPLT TCP listen address (default 127.0.0.1:9999)")
	fs.StringVar(&rdt, "rdt", "", "RDT UDP listen address (default 127.0.0.1:9998)")
	fs.StringVar(&http, "http", "", "HTTP listen address (default 127.0.0.1:8080)")
	fs.StringVar(&data, "data", "", "data directory for uploads, history and vectors (default ./data)")
	fs.StringVar(&llm, "llm", "", "model for new sessions: builtin or a configured provider (default builtin)")
	fs.StringVar(&logFormat, "log-format", "", "log format: console or json (default console)")
	fs.StringVar(&mcpConfig, "mcp-config", "", "Claude-style .mcp.json whose mcpServers are added to mcp_servers (env OPSASSIST_MCP_CONFIG)")
	fs.StringVar(&logLevel, "log-level", "", "log level: debug, info, warn, error (default info)")
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if file == "" {
		file, _ = lookup("OPSASSIST_CONFIG")
	}
	return build(file, lookup, func(c *Config) {
		for _, f := range []struct {
			dst *string
			val string
		}{{&c.NPLT, nplt}, {&c.RDT, rdt}, {&c.HTTP, http}, {&c.Data, data}, {&c.LLM, llm}, {&c.Log.Format, logFormat}, {&c.Log.Level, logLevel}, {&c.MCPConfig, mcpConfig}} {
			if f.val != "" {
				*f.dst = f.val
			}
		}
		for _, o := range opts {
			o(c)
		}
	})
}

// Option adjusts the configuration Load or Reload builds, before its
// checks.
type Option func(*Config)

// WithUnsetTokens sets Config.AllowUnsetTokens: a user whose token_env is
// unset or empty is kept, unable to sign in, instead of stopping the
// load.
func WithUnsetTokens(c *Config) { c.AllowUnsetTokens = true }

// Reload reads the configuration again as Load builds it, without the
// flags: defaults, the YAML file (if file is not empty), OPSASSIST_*
// variables, the .mcp.json named by mcpFile (if not empty, else by the
// file or environment), then the same checks. The daemon calls it when
// the files change; it compares two results of Reload, so the flags,
// which do not change, do not matter; opts must be Load's.
func Reload(file, mcpFile string, lookup func(string) (string, bool), opts ...Option) (Config, error) {
	return build(file, lookup, func(c *Config) {
		if mcpFile != "" {
			c.MCPConfig = mcpFile
		}
		for _, o := range opts {
			o(c)
		}
	})
}

// build is Load's and Reload's one sequence: defaults, the file, the
// environment, the flags (flags), the .mcp.json, the checks.
func build(file string, lookup func(string) (string, bool), flags func(*Config)) (Config, error) {
	c := Defaults()
	if file != "" {
		if err := c.LoadFile(file); err != nil {
			return Config{}, err
		}
		c.File = file
	}
	if err := c.ApplyEnv(lookup); err != nil {
		return Config{}, err
	}
	flags(&c)
	if c.MCPConfig != "" {
		if err := c.MergeMCPJSON(c.MCPConfig); err != nil {
			return Config{}, err
		}
	}
	if err := c.Validate(); err != nil {
		return c, err
	}
	if _, err := c.Directory(lookup); err != nil {
		return c, err
	}
	if _, err := c.ResolveMCPServers(lookup); err != nil {
		return c, err
	}
	return c, nil
}
