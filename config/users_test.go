package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"opsassist/chat"
)

func hashHex(tok string) string { h := sha256.Sum256([]byte(tok)); return hex.EncodeToString(h[:]) }

func loadYAML(t *testing.T, body string, e map[string]string, args ...string) (Config, error) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return load(t, append([]string{"--config", file}, args...), e)
}

const accessYAML = `
users:
  bob:   {role: viewer, token_sha256: "%BOB%"}
  alice: {role: operator, token_env: OPSASSIST_TOKEN_ALICE}
  carol: {role: deployer, token_env: OPSASSIST_TOKEN_CAROL}
  dave:  {role: admin, token_env: OPSASSIST_TOKEN_DAVE}
roles:
  deployer:
    tools: {"builtin:*": allow, "builtin:command_executor": ask, "*:*": deny}
    rules: [{tool: command_executor, command: systemctl, args_prefix: "restart nginx", decision: allow}]
    read_only: false
    admin: true
  viewer:
    rules: [{tool: file_download, path: "/var/log/**", decision: deny}]
rate_limits:
  "*": {per_minute: 60, per_hour: 600}
  command_executor: {per_minute: 10}
`

var accessEnv = map[string]string{
	"OPSASSIST_TOKEN_ALICE": "alice-token-0123456789",
	"OPSASSIST_TOKEN_CAROL": "carol-token-0123456789",
	"OPSASSIST_TOKEN_DAVE":  "dave-token-0123456789",
}

// TestAccessKeys: users (map form, sorted by name), roles and
// rate_limits load from a file, and Directory resolves every user to
// its principal, the role's admin flag included.
func TestAccessKeys(t *testing.T) {
	c, err := loadYAML(t, strings.Replace(accessYAML, "%BOB%", hashHex("bob-token"), 1), accessEnv)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range c.Users {
		names = append(names, u.Name)
	}
	if strings.Join(names, " ") != "alice bob carol dave" {
		t.Fatalf("users in order %v", names)
	}
	if r := c.Roles["deployer"]; r.Tools["builtin:command_executor"] != "ask" || len(r.Rules) != 1 || r.Rules[0].ArgsPrefix != "restart nginx" || !r.Admin {
		t.Fatalf("roles.deployer = %+v", r)
	}
	if l := c.RateLimits["command_executor"]; l.PerMinute != 10 || l.PerHour != 0 || c.RateLimits["*"].PerHour != 600 {
		t.Fatalf("rate_limits = %+v", c.RateLimits)
	}
	d, err := c.Directory(env(accessEnv))
	if err != nil {
		t.Fatal(err)
	}
	for tok, want := range map[string]chat.Principal{
		"alice-token-0123456789": chat.UserPrincipal("alice", chat.RoleOperator, false),
		"bob-token":              chat.UserPrincipal("bob", chat.RoleViewer, false),
		"carol-token-0123456789": chat.UserPrincipal("carol", "deployer", true),
		"dave-token-0123456789":  chat.UserPrincipal("dave", chat.RoleAdmin, true),
	} {
		if p, ok := d.Authenticate(tok); !ok || p != want {
			t.Errorf("%s: %+v %v, want %+v", tok, p, ok, want)
		}
	}
	if s := c.String(); strings.Contains(s, hashHex("bob-token")) || strings.Contains(s, "alice-token") {
		t.Errorf("String shows a token or hash:\n%s", s)
	}
	if c.Users[1].TokenSHA256 != hashHex("bob-token") {
		t.Error("String redacted the caller's users")
	}
}

func TestUsersListForm(t *testing.T) {
	c, err := loadYAML(t, "users:\n  - {name: zed, role: viewer, token_sha256: \""+hashHex("z")+"\"}\n  - {name: amy, role: operator, token_sha256: \""+hashHex("a")+"\"}\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Users) != 2 || c.Users[0].Name != "amy" || c.Users[1].Name != "zed" || c.Users[1].Role != "viewer" {
		t.Fatalf("%+v", c.Users)
	}
}

// TestAccessErrors: each bad users/roles/rate_limits value is refused
// naming the key, and no error shows a token.
func TestAccessErrors(t *testing.T) {
	h := hashHex("x")
	for _, tc := range []struct {
		name, body string
		env        map[string]string
		args       []string
		want       string
	}{
		{"unknown role", "users:\n  bob: {role: boss, token_sha256: " + h + "}\n", nil, nil, `users.bob: role "boss"`},
		{"both tokens", "users:\n  bob: {role: viewer, token_env: X, token_sha256: " + h + "}\n", nil, nil, "users.bob: set exactly one of token_env and token_sha256"},
		{"no token", "users:\n  bob: {role: viewer}\n", nil, nil, "users.bob: set exactly one"},
		{"short hash", "users:\n  bob: {role: viewer, token_sha256: abcd}\n", nil, nil, "users.bob: token_sha256: want 64 hex digits"},
		{"non-hex hash", "users:\n  bob: {role: viewer, token_sha256: " + strings.Repeat("z", 64) + "}\n", nil, nil, "users.bob: token_sha256: want 64 hex digits"},
		{"unknown user key", "users:\n  bob: {role: viewer, token: secret}\n", nil, nil, "line 2: users.bob.token: unknown key"},
		{"unknown list key", "users:\n  - {name: bob, role: viewer, pass: x}\n", nil, nil, "line 2: users[0].pass: unknown key"},
		{"users scalar", "users: bob\n", nil, nil, "users: want a map"},
		{"bad name", "users:\n  \"a b\": {role: viewer, token_sha256: " + h + "}\n", nil, nil, `users: bad name "a b"`},
		{"local", "users:\n  local: {role: viewer, token_sha256: " + h + "}\n", nil, nil, `users: bad name "local"`},
		{"admin with auth_token", "users:\n  admin: {role: viewer, token_sha256: " + h + "}\n", map[string]string{"OPSASSIST_AUTH_TOKEN": "t"}, nil, "users.admin: the name is auth_token's holder"},
		{"duplicate in list", "users:\n  - {name: bob, role: viewer, token_sha256: " + h + "}\n  - {name: bob, role: viewer, token_sha256: " + hashHex("y") + "}\n", nil, nil, "users.bob: duplicate user"},
		{"duplicate token", "users:\n  bob: {role: viewer, token_sha256: " + h + "}\n  amy: {role: viewer, token_sha256: " + h + "}\n", nil, nil, "two users share one token"},
		{"token is auth_token", "users:\n  bob: {role: viewer, token_sha256: " + hashHex("root-token") + "}\n", map[string]string{"OPSASSIST_AUTH_TOKEN": "root-token"}, nil, "two users share one token"},
		{"env unset", "users:\n  bob: {role: viewer, token_env: BOB_TOKEN}\n", nil, nil, "users.bob: token_env BOB_TOKEN is not set"},
		{"env empty", "users:\n  bob: {role: viewer, token_env: BOB_TOKEN}\n", map[string]string{"BOB_TOKEN": ""}, nil, "users.bob: token_env BOB_TOKEN is not set"},
		{"weak env token in public", "users:\n  bob: {role: viewer, token_env: BOB_TOKEN}\n", map[string]string{"BOB_TOKEN": "s3cr3t"}, []string{"--http", "0.0.0.0:8080"}, "users.bob (BOB_TOKEN) is too weak for a listener off loopback: it has 6 characters"},
		{"builtin role with tools", "roles:\n  viewer: {tools: {\"*:*\": allow}}\n", nil, nil, "roles.viewer: a built-in role may only get rules"},
		{"builtin role admin", "roles:\n  operator: {admin: true}\n", nil, nil, "roles.operator: a built-in role may only get rules"},
		{"bad tools decision", "roles:\n  x: {tools: {\"builtin:*\": maybe}}\n", nil, nil, `roles.x.tools["builtin:*"]: decision "maybe"`},
		{"empty tools pattern", "roles:\n  x: {tools: {\"\": allow}}\n", nil, nil, `roles.x.tools: bad pattern "": empty source or tool`},
		{"empty tool half", "roles:\n  x: {tools: {\"builtin:\": allow}}\n", nil, nil, `roles.x.tools: bad pattern "builtin:": empty source or tool`},
		{"bad glob", "roles:\n  x: {tools: {\"builtin:[a\": allow}}\n", nil, nil, `roles.x.tools: bad pattern "builtin:[a": "[a" is not a glob`},
		{"bad role rule", "roles:\n  x: {rules: [{decision: allow}]}\n", nil, nil, "roles.x.rules[0]: no tool"},
		{"unknown role key", "roles:\n  x: {tool: {}}\n", nil, nil, "line 2: roles.x.tool: unknown key"},
		{"negative rate", "rate_limits:\n  \"*\": {per_minute: -1, per_hour: 5}\n", nil, nil, "rate_limits.*: per_minute and per_hour must not be negative"},
		{"zero rate", "rate_limits:\n  ls: {per_minute: 0}\n", nil, nil, "rate_limits.ls: set per_minute or per_hour"},
		{"unknown rate key", "rate_limits:\n  ls: {per_second: 1}\n", nil, nil, "line 2: rate_limits.ls.per_second: unknown key"},
	} {
		_, err := loadYAML(t, tc.body, tc.env, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "root-token") || strings.Contains(err.Error(), h) {
			t.Errorf("%s: error shows a secret: %v", tc.name, err)
		}
	}
}

func TestRoleToolDecisions(t *testing.T) {
	if d := (Role{}).ToolDecisions(); len(d) != 1 || d["*:*"] != "allow" {
		t.Fatalf("default %v", d)
	}
	if d := (Role{Tools: map[string]string{"builtin:*": "deny"}}).ToolDecisions(); len(d) != 1 || d["builtin:*"] != "deny" {
		t.Fatalf("set %v", d)
	}
	// tools: {} in the file: a role that may use no tool.
	c, err := loadYAML(t, "roles:\n  chatonly: {tools: {}}\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := c.Roles["chatonly"].ToolDecisions(); d == nil || len(d) != 0 {
		t.Fatalf("tools: {} gave %v, want an empty map", d)
	}
}

// TestPublicWithUsers: users alone (no auth_token) may expose a
// listener; their env tokens must then be strong.
func TestPublicWithUsers(t *testing.T) {
	body := "users:\n  bob: {role: viewer, token_env: BOB_TOKEN}\n"
	if _, err := loadYAML(t, body, map[string]string{"BOB_TOKEN": "bob-token-0123456789abcdef"}, "--nplt", "0.0.0.0:9999", "--http", "0.0.0.0:8080"); err != nil {
		t.Fatal(err)
	}
	// On loopback a short token guards nothing public and is accepted.
	if _, err := loadYAML(t, body, map[string]string{"BOB_TOKEN": "b"}); err != nil {
		t.Fatal(err)
	}
	_, err := loadYAML(t, body, map[string]string{"BOB_TOKEN": "bbbbbbbbbbbbbbbbbbbbbbbb"}, "--nplt", "0.0.0.0:9999")
	if !errors.Is(err, ErrWeakToken) {
		t.Fatalf("repeated token: %v", err)
	}
}

// TestNoUsersDirectory: without users and auth_token the directory is
// off; with auth_token alone it holds the admin.
func TestNoUsersDirectory(t *testing.T) {
	c := Defaults()
	d, err := c.Directory(env(nil))
	if err != nil || d.Enabled() {
		t.Fatalf("%v %v", d.Enabled(), err)
	}
	c.AuthToken = "root-token"
	d, err = c.Directory(env(nil))
	if p, ok := d.Authenticate("root-token"); err != nil || !ok || p != chat.TokenPrincipal("root-token", true) {
		t.Fatalf("%+v %v %v", p, ok, err)
	}
}

// TestWithUnsetTokens: with WithUnsetTokens (mcp-stdio), a user whose
// token_env is unset or empty no longer stops Load or Reload; the user
// is kept, enabling the directory, and cannot sign in (not with an
// empty token either), while the others can. Without it both refuse,
// as the daemon does.
func TestWithUnsetTokens(t *testing.T) {
	body := "users:\n  alice: {role: operator, token_env: A_TOKEN}\n  bob: {role: viewer, token_env: B_TOKEN}\n  carol: {role: viewer, token_env: C_TOKEN}\n"
	file := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	e := env(map[string]string{"B_TOKEN": "bob-token-0123456789", "C_TOKEN": ""})
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	if _, err := Load(fs, []string{"--config", file}, e); err == nil || !strings.Contains(err.Error(), "users.alice: token_env A_TOKEN is not set") {
		t.Fatalf("strict Load: %v", err)
	}
	if _, err := Reload(file, "", e); err == nil {
		t.Fatal("strict Reload succeeded")
	}
	if _, err := Reload(file, "", e, WithUnsetTokens); err != nil {
		t.Fatalf("lenient Reload: %v", err)
	}
	fs = flag.NewFlagSet("test", flag.ContinueOnError)
	c, err := Load(fs, []string{"--config", file}, e, WithUnsetTokens)
	if err != nil || !c.AllowUnsetTokens {
		t.Fatalf("lenient Load: %v (AllowUnsetTokens %v)", err, c.AllowUnsetTokens)
	}
	if got := c.UnsetTokenUsers(e); !slices.Equal(got, []string{"alice (A_TOKEN)", "carol (C_TOKEN)"}) {
		t.Errorf("UnsetTokenUsers: %q", got)
	}
	d, err := c.Directory(e)
	if err != nil || !d.Enabled() {
		t.Fatalf("Directory: %v (enabled %v)", err, d.Enabled())
	}
	if p, ok := d.Authenticate("bob-token-0123456789"); !ok || p.Name != "bob" {
		t.Errorf("bob: %+v %v", p, ok)
	}
	for _, tok := range []string{"", "A_TOKEN", "alice"} {
		if p, ok := d.Authenticate(tok); ok {
			t.Errorf("token %q signs in as %+v", tok, p)
		}
	}
}
