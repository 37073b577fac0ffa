package tools

import (
	"slices"
	"testing"
)

func TestRedactArgs(t *testing.T) {
	args := []string{"-y", "server-postgres", "postgres://app:pa55w0rd@db:5432/prod?sslmode=require&password=x", "--password=hunter2", "--token", "tok3n",
		"--api-key", "k", "/srv/docs", "https://h/mcp?sig=abc123&ref=${REF}", "--port", "5432"}
	got := RedactArgs("npx", args)
	want := []string{"-y", "server-postgres", "postgres://app:***@db:5432/prod?sslmode=***&password=***", "--password=***", "--token", "***",
		"--api-key", "***", "/srv/docs", "https://h/mcp?sig=***&ref=${REF}", "--port", "5432"}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
	if args[3] != "--password=hunter2" {
		t.Fatal("the caller's args changed")
	}
	if got := RedactArgs("mysql", []string{"-uroot", "-ps3cret", "db"}); !slices.Equal(got, []string{"-uroot", "-p***", "db"}) {
		t.Fatalf("mysql: %q", got)
	}
	if RedactArgs("x", nil) != nil {
		t.Fatal("nil args")
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://bob:s3cret@h.example/mcp":          "https://bob:***@h.example/mcp",
		"https://h/mcp?token=abc&team=${TEAM:-ops}": "https://h/mcp?token=***&team=${TEAM:-ops}",
		"https://bob@h/mcp":                         "https://bob@h/mcp",
		"${BASE}/mcp":                               "${BASE}/mcp",
		"not a url password=x":                      "not a url password=***",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
