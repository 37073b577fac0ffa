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
		"https://bob:s3cr/et%zz@h.example/mcp":      "https://bob:***@h.example/mcp",
		"https://bob:p@ss:w/rd@h/mcp x@y":           "https://bob:***@h/mcp x@y",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRedactArgsSecretNames: an option named like a secret hides the
// next argument whatever its prefix (--access-token, --db-password),
// as its "--x=value" form does — one list of names (secretName) for
// both; options that only look alike (--passive, --max-tokens,
// --tokenizer, --author) keep their values.
func TestRedactArgsSecretNames(t *testing.T) {
	for _, opt := range []string{"--access-token", "--client-secret", "--db-password", "--github-token", "--bearer",
		"--password", "--passwd", "--pass", "--db-pass", "--token", "-token", "--api-key", "--apikey", "--access-key",
		"--secret-key", "--private-key", "--auth", "--auth-token", "--credentials", "--db-pwd", "--pwd", "--GITHUB_TOKEN", "--token2"} {
		if got := RedactArgs("npx", []string{opt, "hunter2x"}); !slices.Equal(got, []string{opt, "***"}) {
			t.Errorf("%s X: %q", opt, got)
		}
		if got := RedactArgs("npx", []string{opt + "=hunter2x"}); !slices.Equal(got, []string{opt + "=***"}) {
			t.Errorf("%s=X: %q", opt, got)
		}
	}
	for _, opt := range []string{"--passive", "--bypass", "--compass", "--max-tokens", "--tokenizer", "--tokens", "--author",
		"--authority", "--keyboard", "--port"} {
		if got := RedactArgs("npx", []string{opt, "value1"}); !slices.Equal(got, []string{opt, "value1"}) {
			t.Errorf("%s X: %q", opt, got)
		}
		if got := RedactArgs("npx", []string{opt + "=value1"}); !slices.Equal(got, []string{opt + "=value1"}) {
			t.Errorf("%s=X: %q", opt, got)
		}
	}
	if got := RedactString("GITHUB_PERSONAL_ACCESS_TOKEN=hunter2x DB_PASS=hunter3x PWD=/srv max_tokens=100"); got != "GITHUB_PERSONAL_ACCESS_TOKEN=*** DB_PASS=*** PWD=/srv max_tokens=100" {
		t.Errorf("RedactString: %q", got)
	}
}
