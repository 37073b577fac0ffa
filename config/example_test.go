package config

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// examplePath is the sample configuration at the repository root.
const examplePath = "../opsassist.example.yaml"

// keyPaths lists every key of t as docs/configuration.md names them
// (limits.max_upload, mcp_servers.NAME.url, permissions.rules.tool),
// descending into sections, maps and lists of sections.
func keyPaths(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("yaml")
		if name == "" || name == "-" {
			continue
		}
		path := prefix + name
		out = append(out, path)
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Map {
			ft = ft.Elem()
			path += ".NAME"
		}
		if ft.Kind() == reflect.Struct && ft != reflect.TypeFor[time.Duration]() {
			out = append(out, keyPaths(ft, path+".")...)
		}
	}
	return out
}

// TestExampleListsEveryKey: every key of Config appears in
// opsassist.example.yaml, set or in a commented-out example, at the
// start of a line (a top-level key) or after its section's indentation.
func TestExampleListsEveryKey(t *testing.T) {
	b, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, path := range keyPaths(reflect.TypeFor[Config](), "") {
		parts := strings.Split(path, ".")
		leaf := regexp.QuoteMeta(parts[len(parts)-1])
		pat := `(?m)^#?\s*(- )?\{?.*\b` + leaf + `:`
		if len(parts) == 1 {
			pat = `(?m)^#?` + leaf + `:`
		}
		if !regexp.MustCompile(pat).MatchString(text) {
			t.Errorf("opsassist.example.yaml does not show %s", path)
		}
	}
}

// TestExampleLoads: the sample loads as it is, with every value it sets
// the default, and with its commented-out examples uncommented (their
// token and key variables set) it loads too.
func TestExampleLoads(t *testing.T) {
	c, err := load(t, []string{"--config", examplePath}, nil)
	if err != nil {
		t.Fatalf("opsassist.example.yaml: %v", err)
	}
	d := Defaults()
	d.File, d.AllowedRoots = c.File, c.AllowedRoots
	d.Commands, d.Permissions.CommandsAsk = c.Commands, c.Permissions.CommandsAsk
	d.Search.Dim = c.Search.Dim
	if c.String() != d.String() {
		t.Errorf("the example's values are not the defaults:\n got %s\nwant %s", c, d)
	}

	b, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	// Uncomment the examples (#key, #  key; prose is "# "), dropping the
	// empty placeholders they replace.
	placeholder := regexp.MustCompile(`^\s*(providers|rules|users|roles|rate_limits|mcp_servers): (\[\]|\{\})`)
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case placeholder.MatchString(l):
			continue
		case strings.HasPrefix(strings.TrimLeft(l, " "), "#") && !strings.HasPrefix(strings.TrimLeft(l, " "), "# "),
			strings.HasPrefix(strings.TrimLeft(l, " "), "#  "):
			i := strings.Index(l, "#")
			l = l[:i] + l[i+1:]
		}
		lines = append(lines, l)
	}
	file := writeFile(t, "c.yaml", strings.Join(lines, "\n"))
	c, err = load(t, []string{"--config", file}, map[string]string{
		"OPSASSIST_TOKEN_ALICE": "alice-0123456789abcdef",
		"OPSASSIST_TOKEN_CAROL": "carol-0123456789abcdef",
		"DEEPSEEK_API_KEY":      "sk-test",
		"GITHUB_TOKEN":          "gh-test",
	})
	if err != nil {
		t.Fatalf("the example uncommented: %v", err)
	}
	if len(c.Users) != 3 || len(c.Roles) != 2 || len(c.MCPServers) != 2 || len(c.RateLimits) != 2 || len(c.Permissions.Rules) != 4 || len(c.Providers) != 2 {
		t.Errorf("the uncommented examples did not all load: users %d roles %d mcp %d rate %d rules %d providers %d",
			len(c.Users), len(c.Roles), len(c.MCPServers), len(c.RateLimits), len(c.Permissions.Rules), len(c.Providers))
	}
}
