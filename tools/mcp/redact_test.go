package mcp

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"opsassist/tools"
)

func TestURLSecretNotInReason(t *testing.T) {
	reg := newRegistryForTest()
	ch := make(statuses, 64)
	m, err := New(Config{Servers: []ServerConfig{{Name: "h", URL: "http://user:pa55word@127.0.0.1:1/mcp?api_key=SUPERSECRET123"}},
		Registry: reg, Backoff: fastBackoff(), OnChange: ch.on})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Start(context.Background())
	st := ch.waitFor(t, "unavailable", func(s ServerStatus) bool { return s.State == StateUnavailable })
	for _, secret := range []string{"SUPERSECRET123", "pa55word", "api_key="} {
		if strings.Contains(st.Reason, secret) {
			t.Errorf("%q in reason %q", secret, st.Reason)
		}
	}
	if !strings.Contains(st.Reason, "127.0.0.1:1/mcp") {
		t.Errorf("reason %q does not name the endpoint", st.Reason)
	}
}

func TestStderrEnvSecretNotInReason(t *testing.T) {
	reg := newRegistryForTest()
	ch := make(statuses, 64)
	sc := childServer(t, "c", "leak")
	sc.Env["MYTOKEN"] = "correct-horse-battery-staple"
	m, err := New(Config{Servers: []ServerConfig{sc}, Registry: reg, Backoff: fastBackoff(), OnChange: ch.on})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Start(context.Background())
	st := ch.waitFor(t, "unavailable", func(s ServerStatus) bool {
		return s.State == StateUnavailable && strings.Contains(s.Reason, "auth failed")
	})
	if strings.Contains(st.Reason, "correct-horse") || !strings.Contains(st.Reason, "***") {
		t.Errorf("reason %q", st.Reason)
	}
}

func TestRedactorHidesHeadersAndKeepsChain(t *testing.T) {
	r := newRedactor(ServerConfig{Name: "x", URL: "https://h/mcp?k=v",
		Headers: map[string]string{"Authorization": "Bearer tok-1234567"}, Env: map[string]string{"SHORT": "yes"}})
	got := r.String(`GET "https://u:pw@h/mcp?k=v": Bearer tok-1234567 said yes; tok-1234567`)
	if want := `GET "https://h/mcp": *** said yes; ***`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	base := errors.New("token tok-1234567 refused")
	err := r.Error(base)
	if strings.Contains(err.Error(), "tok-1234567") || !errors.Is(err, base) {
		t.Errorf("Error: %v (Is %v)", err, errors.Is(err, base))
	}
}

func TestRedactorWholeWordsOnly(t *testing.T) {
	r := newRedactor(ServerConfig{Name: "x", Command: "x", Env: map[string]string{"MODE": "serve", "K": "s3cr3t"}})
	if got, want := r.String("the server said serve; key=s3cr3t, s3cr3tive"), "the server said ***; key=***, s3cr3tive"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestHidden(t *testing.T) {
	for _, tc := range []struct {
		orig string
		want []string
	}{
		{"--password=hunter2", []string{"hunter2"}},
		{"postgres://app:pa55@db/x?sslmode=require&password=zz", []string{"pa55", "require", "zz"}},
		{"tok3n", []string{"tok3n"}},
	} {
		red := tools.RedactArgs("x", []string{"--token", tc.orig})[1]
		if tc.orig != "tok3n" {
			red = tools.RedactArgs("x", []string{tc.orig})[0]
		}
		if got := hidden(tc.orig, red); !slices.Equal(got, tc.want) {
			t.Errorf("hidden(%q, %q) = %q, want %q", tc.orig, red, got, tc.want)
		}
	}
}

// TestRedactorPrefixedSecretOptions: the value after an option named
// like a secret with a prefix (--access-token X, --client-secret X) is
// one of the server's secrets, hidden in reasons and stderr lines.
func TestRedactorPrefixedSecretOptions(t *testing.T) {
	r := newRedactor(ServerConfig{Name: "x", Command: "npx", Args: []string{"-y", "server-x", "--access-token", "hunter2value",
		"--client-secret", "cl13ntvalue", "--db-password", "dbpa55", "--github-token", "ghvalue1", "--bearer", "b3arer", "--max-tokens", "4096"}})
	got := r.String("fatal: npx -y server-x --access-token hunter2value --client-secret cl13ntvalue --db-password dbpa55 --github-token ghvalue1 --bearer b3arer --max-tokens 4096")
	if want := "fatal: npx -y server-x --access-token *** --client-secret *** --db-password *** --github-token *** --bearer *** --max-tokens 4096"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
