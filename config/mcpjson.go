package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// ErrMCPDuplicate is matched (errors.Is) by MergeMCPJSON's error for a
// server named both in the YAML file and in the .mcp.json, or twice in
// the .mcp.json.
var ErrMCPDuplicate = errors.New("config: mcp server defined twice")

// mcpJSONServer is one server of a Claude-style .mcp.json: a stdio
// child ({command, args, env, cwd}) or an HTTP endpoint ({type, url,
// headers}).
type mcpJSONServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

// MergeMCPJSON reads a Claude-style .mcp.json at path ({"mcpServers":
// {name: {command, args, env, cwd} | {type, url, headers}}}) and adds
// its servers to c.MCPServers, enabled, with the default timeouts. Keys
// beside mcpServers are ignored (Claude Desktop's file has its own
// settings there); an unknown key inside a server is an error, as in
// the YAML file. A server name already under mcp_servers is an error
// naming both files, and one given twice in the file is an error too.
// Validate then checks the entries like the YAML ones.
func (c *Config) MergeMCPJSON(path string) error {
	b, err := readFile(path)
	if err != nil {
		return fmt.Errorf("config: mcp_config: %w", err)
	}
	var top struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		return fmt.Errorf("config: %s: %w", path, err)
	}
	if top.MCPServers == nil {
		return fmt.Errorf("config: %s: no \"mcpServers\" object", path)
	}
	if name, ok := duplicateServer(b); ok { // encoding/json keeps the last silently
		return fmt.Errorf("%w: mcpServers.%s is defined twice in %s", ErrMCPDuplicate, name, path)
	}
	yamlFile := c.File
	if yamlFile == "" {
		yamlFile = "the configuration"
	}
	add := make(map[string]MCPServer, len(top.MCPServers))
	for _, name := range slices.Sorted(maps.Keys(top.MCPServers)) {
		if _, ok := c.MCPServers[name]; ok {
			return fmt.Errorf("%w: mcp_servers.%s is in both %s and %s", ErrMCPDuplicate, name, yamlFile, path)
		}
		var j mcpJSONServer
		dec := json.NewDecoder(bytes.NewReader(top.MCPServers[name]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&j); err != nil {
			return fmt.Errorf("config: %s: mcpServers.%s: %w", path, name, err)
		}
		add[name] = MCPServer{Type: j.Type, Command: j.Command, Args: j.Args, Env: j.Env, Cwd: j.Cwd, URL: j.URL, Headers: j.Headers}
	}
	if c.MCPServers == nil {
		c.MCPServers = make(map[string]MCPServer, len(add))
	}
	maps.Copy(c.MCPServers, add)
	return nil
}

// duplicateServer reports a name given twice in the mcpServers object of
// b, a JSON object that json.Unmarshal accepted.
func duplicateServer(b []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return "", false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return "", false
		}
		if k != "mcpServers" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return "", false
			}
			continue
		}
		if _, err := dec.Token(); err != nil { // {
			return "", false
		}
		seen := map[string]bool{}
		for dec.More() {
			name, err := dec.Token()
			if err != nil {
				return "", false
			}
			n, _ := name.(string)
			if seen[n] {
				return n, true
			}
			seen[n] = true
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return "", false
			}
		}
		return "", false
	}
	return "", false
}
