package config

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestReloadReadsFileEnvAndMCPJSON(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "opsassist.yaml")
	js := filepath.Join(dir, ".mcp.json")
	os.WriteFile(file, []byte("http: 127.0.0.1:8081\nmcp_servers:\n  a:\n    url: http://127.0.0.1:1/mcp\n    headers: {Authorization: \"Bearer ${TOK}\"}\n"), 0o600)
	os.WriteFile(js, []byte(`{"mcpServers":{"b":{"command":"srv"}}}`), 0o600)
	env := map[string]string{"TOK": "s3cret", "OPSASSIST_WORKSPACE": "ws"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	c, err := Reload(file, js, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if c.File != file || c.HTTP != "127.0.0.1:8081" || c.Workspace != "ws" || len(c.MCPServers) != 2 || c.MCPServers["b"].Command != "srv" {
		t.Fatalf("%+v", c)
	}
	// The same steps as Load: a malformed ${VAR} is an error naming it
	// (an unset one only makes its server unavailable).
	os.WriteFile(file, []byte("mcp_servers:\n  a:\n    url: http://127.0.0.1:1/mcp\n    headers: {Authorization: \"Bearer ${TOK\"}\n"), 0o600)
	if _, err := Reload(file, js, lookup); !errors.Is(err, ErrMCPVariable) {
		t.Fatalf("malformed variable: %v", err)
	}
	delete(env, "TOK")
	os.WriteFile(file, []byte("mcp_servers:\n  a:\n    url: http://127.0.0.1:1/mcp\n    headers: {Authorization: \"Bearer ${TOK}\"}\n"), 0o600)
	if _, err := Reload(file, js, lookup); err != nil {
		t.Fatalf("unset variable: %v", err)
	}
	env["TOK"] = "s3cret"
	// A duplicate between the files, a YAML syntax error.
	os.WriteFile(js, []byte(`{"mcpServers":{"a":{"command":"srv"}}}`), 0o600)
	if _, err := Reload(file, js, lookup); !errors.Is(err, ErrMCPDuplicate) {
		t.Fatalf("duplicate: %v", err)
	}
	os.WriteFile(file, []byte("mcp_servers: [\n"), 0o600)
	if _, err := Reload(file, "", lookup); err == nil {
		t.Fatal("a syntax error accepted")
	}
}

func TestReloadMatchesLoad(t *testing.T) {
	file := filepath.Join(t.TempDir(), "opsassist.yaml")
	os.WriteFile(file, []byte("limits: {max_tools: 7}\nmcp_servers:\n  a: {command: srv}\n"), 0o600)
	lookup := func(string) (string, bool) { return "", false }
	l, err := Load(flag.NewFlagSet("t", flag.ContinueOnError), []string{"--config", file}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Reload(file, "", lookup)
	if err != nil {
		t.Fatal(err)
	}
	if ch := Changed(l, r); len(ch) != 0 {
		t.Fatalf("Load and Reload differ in %v", ch)
	}
}

func TestChanged(t *testing.T) {
	a := Defaults()
	b := Defaults()
	b.HTTP = "127.0.0.1:1"
	b.Limits.MaxTools = 3 // applied by a reload: not listed
	b.Limits.MaxPlanInput = 7
	b.MCPServers = map[string]MCPServer{"x": {Command: "srv"}}
	b.File = "elsewhere"
	b.Roles = map[string]Role{"r": {}}
	if got, want := Changed(a, b), []string{"http", "limits.max_plan_input", "roles"}; !slices.Equal(got, want) {
		t.Fatalf("Changed = %v, want %v", got, want)
	}
}

// TestFileErrorHidesQuotedValues: a YAML type error names the line but
// not the value, which may be a secret in the wrong place; the
// decoder's error is still there for errors.As.
func TestFileErrorHidesQuotedValues(t *testing.T) {
	file := filepath.Join(t.TempDir(), "opsassist.yaml")
	os.WriteFile(file, []byte("limits: {max_tools: s3cretvalue}\n"), 0o600)
	_, err := Reload(file, "", func(string) (string, bool) { return "", false })
	var te *yaml.TypeError
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "line 1: cannot unmarshal !!str `***` into int") || !errors.As(err, &te) {
		t.Fatalf("error %v (TypeError %v)", err, te != nil)
	}
}
