package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestNonObjectSchemasNotOffered(t *testing.T) {
	reg := newRegistryForTest()
	s := &server{cfg: ServerConfig{Name: "s"}, m: &Manager{cfg: Config{Registry: reg}}}
	list := []*sdk.Tool{
		{Name: "str", InputSchema: map[string]any{"type": "string"}},
		{Name: "notype", InputSchema: map[string]any{"properties": map[string]any{"a": map[string]any{"type": "string"}}}},
		{Name: "boolean", InputSchema: true},
		{Name: "array", InputSchema: json.RawMessage(`[1]`)},
		{Name: "ok", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	ts, skipped := buildTools(s, list)
	if err := reg.ReplaceSource("s", ts); err != nil {
		t.Fatal(err)
	}
	specs, _ := reg.Offered()
	got := map[string]string{}
	for _, sp := range specs {
		got[sp.Name] = string(sp.Parameters)
	}
	if len(got) != 2 || got["mcp__s__ok"] == "" {
		t.Fatalf("offered %v; skipped %v", got, skipped)
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(got["mcp__s__notype"]), &p); err != nil || p["type"] != "object" || p["properties"] == nil {
		t.Errorf("notype offered with %s", got["mcp__s__notype"])
	}
	joined := strings.Join(skipped, "\n")
	for _, name := range []string{"str:", "boolean:", "array:"} {
		if !strings.Contains(joined, name) {
			t.Errorf("%s not among skipped %q", name, skipped)
		}
	}
}
