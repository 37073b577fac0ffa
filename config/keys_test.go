package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestUnknownKeys: an unknown key in any section, at any depth, is
// refused naming its line and its key path, without the decoder's Go
// type names, and the error matches ErrUnknownKey.
func TestUnknownKeys(t *testing.T) {
	for body, want := range map[string]string{
		"nplt_addr: x\n": "line 1: nplt_addr: unknown key",
		"file: x\n":      "line 1: file: unknown key", // File is yaml:"-": not a key
		"mcp_servers:\n  b:\n    command: x\n    colour: red\n": "c.yaml: line 4: mcp_servers.b.colour: unknown key",
		"limits:\n  max_clientz: 3\n":                           "line 2: limits.max_clientz: unknown key",
		"log:\n  level: info\n  colour: true\n":                 "line 3: log.colour: unknown key",
		"search:\n  embeder: builtin\n":                         "line 2: search.embeder: unknown key",
		"permissions:\n  timout: 5s\n":                          "line 2: permissions.timout: unknown key",
		"permissions:\n  rules:\n    - {tool: x, decision: allow}\n    - {tool: y, decison: deny}\n": "line 4: permissions.rules[1].decison: unknown key",
		"providers:\n  - name: a\n    base_url: http://h\n    modle: m\n":                            "line 4: providers[0].modle: unknown key",
		"roles:\n  ops:\n    rules:\n      - {tool: x, decision: ask, pth: /etc}\n":                  "line 4: roles.ops.rules[0].pth: unknown key",
		"roles:\n  ops: {readonly: true}\n":                                                          "line 2: roles.ops.readonly: unknown key",
		"rate_limits:\n  \"*\": {per_minute: 1, per_day: 3}\n":                                       `line 2: rate_limits["*"].per_day: unknown key`,
		"users:\n  bob: {role: viewer, tokn: x}\n":                                                   "line 2: users.bob.tokn: unknown key",
		"users:\n  - {name: bob, role: viewer, token_env: X, pass: y}\n":                             "line 2: users[0].pass: unknown key",
		"users:\n  bob: {name: bob, role: viewer, token_env: X}\n":                                   "line 2: users.bob.name: unknown key", // the map form has no name:
		// An anchor's keys are checked where it is defined and where
		// it is merged.
		"x-base: &b {command: x, colr: 1}\n":                                         "line 1: x-base: unknown key",
		"mcp_servers:\n  a: &b\n    command: x\n  c:\n    <<: *b\n    colour: red\n": "line 6: mcp_servers.c.colour: unknown key",
		"mcp_servers:\n  a: &b\n    command: x\n    colr: 1\n  c:\n    <<: *b\n":     "line 4: mcp_servers.a.colr: unknown key",
		"\"a b\": 1\n":                    `line 1: ["a b"]: unknown key`,
		strings.Repeat("k", 70) + ": 1\n": `line 1: ["` + strings.Repeat("k", 64) + `…"]: unknown key`,
	} {
		file := writeFile(t, "c.yaml", body)
		_, err := load(t, []string{"--config", file}, nil)
		if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrUnknownKey) {
			t.Errorf("%q:\n err = %v\nwant %q", body, err, want)
			continue
		}
		if strings.Contains(err.Error(), "config.") || strings.Contains(err.Error(), "not found in type") {
			t.Errorf("%q: err names a Go type: %v", body, err)
		}
	}
}

// TestUnknownKeysMany: each unknown key is named, in the file's order,
// up to maxUnknownNamed; the rest are counted.
func TestUnknownKeysMany(t *testing.T) {
	file := writeFile(t, "c.yaml", "limits:\n  a: 1\nlog:\n  b: 1\n")
	_, err := load(t, []string{"--config", file}, nil)
	if want := "c.yaml: line 2: limits.a: unknown key; line 4: log.b: unknown key"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("err = %v, want suffix %q", err, want)
	}
	var b strings.Builder
	b.WriteString("limits:\n")
	for i := range maxUnknownNamed + 3 {
		fmt.Fprintf(&b, "  k%d: 1\n", i)
	}
	file = writeFile(t, "c.yaml", b.String())
	_, err = load(t, []string{"--config", file}, nil)
	if want := fmt.Sprintf("line %d: limits.k%d: unknown key; and 3 more", maxUnknownNamed+1, maxUnknownNamed-1); err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("err = %v, want suffix %q", err, want)
	}
}

// TestKnownKeysStillLoad: aliases, merge keys and a value of the wrong
// kind do not confuse the walk: known keys load, and a type error keeps
// the decoder's text (with its value hidden).
func TestKnownKeysStillLoad(t *testing.T) {
	file := writeFile(t, "c.yaml", "mcp_servers:\n  a: &b\n    command: x\n    args: [--v]\n  c:\n    <<: *b\n    cwd: /tmp\nlimits: &l\n  max_clients: 7\n")
	c, err := load(t, []string{"--config", file}, nil)
	if err != nil || c.MCPServers["c"].Command != "x" || c.MCPServers["c"].Cwd != "/tmp" || c.Limits.MaxClients != 7 {
		t.Fatalf("err = %v, %+v", err, c.MCPServers)
	}
	file = writeFile(t, "c.yaml", "limits: [1, 2]\n")
	if _, err := load(t, []string{"--config", file}, nil); err == nil || errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), "line 1: cannot unmarshal !!seq into config.Limits") {
		t.Fatalf("err = %v", err)
	}
}

// TestUnknownKeysAliasBomb: nested aliases are walked once per node, so
// a "billion laughs" file is answered at once.
func TestUnknownKeysAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("x0: &a0 {command: x}\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&b, "x%d: &a%d {", i, i)
		for j := range 10 {
			fmt.Fprintf(&b, "k%d: *a%d, ", j, i-1)
		}
		b.WriteString("}\n")
	}
	file := writeFile(t, "c.yaml", b.String()+"mcp_servers: *a29\nroles: *a29\n")
	if _, err := load(t, []string{"--config", file}, nil); err == nil {
		t.Fatal("loaded")
	}
}

// usersBomb is a users: block whose first user has m unknown keys and
// is named again by n-1 aliases (a reviewer's file: 70 KB for m=1000,
// n=5000 took 2.4 s and 665 MB when each alias was checked again).
func usersBomb(m, n int) string {
	var b strings.Builder
	b.WriteString("users:\n  u0: &u\n")
	for i := range m {
		fmt.Fprintf(&b, "    k%d: 1\n", i)
	}
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "  u%d: *u\n", i)
	}
	return b.String()
}

// TestUnknownKeysUsersAliasBomb: a user named by many aliases is checked
// once, and only maxUnknownNamed unknown keys are kept (the rest
// counted), so the walk's work and memory are bounded by the file's
// size, not by aliases × keys.
func TestUnknownKeysUsersAliasBomb(t *testing.T) {
	const m, n = 1000, 5000
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(usersBomb(m, n)), &doc); err != nil {
		t.Fatal(err)
	}
	w := keyWalker{seen: map[walked]bool{}}
	w.walk(&doc, reflect.TypeFor[Config](), "", 0)
	if got := len(w.found.named) + w.found.more; got != m {
		t.Errorf("unknown keys found: %d, want %d (each once, not once per alias)", got, m)
	}
	if len(w.found.named) != maxUnknownNamed {
		t.Errorf("unknown keys kept: %d, want %d", len(w.found.named), maxUnknownNamed)
	}
	if w.visited > 3 {
		t.Errorf("nodes walked: %d, want at most 3 (the document, users:, u0)", w.visited)
	}

	file := writeFile(t, "c.yaml", usersBomb(m, n))
	_, err := load(t, []string{"--config", file}, nil)
	if want := fmt.Sprintf("line 3: users.u0.k0: unknown key; line 4: users.u0.k1: unknown key; line 5: users.u0.k2: unknown key; line 6: users.u0.k3: unknown key; line 7: users.u0.k4: unknown key; and %d more", m-maxUnknownNamed); err == nil || !strings.HasSuffix(err.Error(), want) || !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("err = %.300v, want suffix %q", err, want)
	}
}

// TestUnknownKeysBoundedMemory: a file with very many unknown keys keeps
// at most maxUnknownNamed of them: checking 20000 unknown keys
// allocates about as much as checking 100 (the node tree aside).
func TestUnknownKeysBoundedMemory(t *testing.T) {
	allocs := func(keys int) float64 {
		var b strings.Builder
		b.WriteString("limits:\n")
		for i := range keys {
			fmt.Fprintf(&b, "  k%d: 1\n", i)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(b.String()), &doc); err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(3, func() { checkKeys(&doc) })
	}
	small, large := allocs(100), allocs(20000)
	if large > small+20 {
		t.Errorf("checkKeys allocations: %v for 100 unknown keys, %v for 20000; want no allocation per unknown key", small, large)
	}
}
