package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigFileTooLarge: a YAML file or a .mcp.json larger than
// MaxFileSize is refused before it is parsed, naming the file and the
// limit; one of exactly MaxFileSize bytes is read.
func TestConfigFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := func(name string, size int, head string) string {
		p := filepath.Join(dir, name)
		b := []byte(head + strings.Repeat(" ", size-len(head)))
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	yamlFile := big("c.yaml", MaxFileSize+1, "limits:\n  max_clients: 7\n")
	jsonFile := big(".mcp.json", MaxFileSize+1, `{"mcpServers": {}}`)
	for _, args := range [][]string{{"--config", yamlFile}, {"--mcp-config", jsonFile}} {
		_, err := load(t, args, nil)
		if !errors.Is(err, ErrFileTooLarge) || !strings.Contains(err.Error(), args[1]+": file too large: more than 4194304 bytes (4 MiB)") {
			t.Errorf("%v: err = %v, want ErrFileTooLarge naming the file", args, err)
		}
	}
	c, err := load(t, []string{"--config", big("ok.yaml", MaxFileSize, "limits:\n  max_clients: 7\n")}, nil)
	if err != nil || c.Limits.MaxClients != 7 {
		t.Fatalf("a file of MaxFileSize bytes: %v, max_clients %d", err, c.Limits.MaxClients)
	}
}
