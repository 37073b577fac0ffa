package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"opsassist/access"
	"opsassist/chat"
)

// User is one configured user (users:): a name, a role, and an access
// token given as the name of an environment variable holding it or as
// its SHA-256. The token itself never appears in the configuration.
type User struct {
	// Name is the user's name: the users: map key, or name: in the list
	// form. Letters, digits, '.', '_' and '-', at most 64 characters,
	// starting with a letter or digit; not "local", and not "admin"
	// while auth_token is set (that is auth_token's holder).
	Name string `yaml:"name"`
	// Role is a built-in role (admin, operator, viewer) or one
	// configured under roles:. Required.
	Role string `yaml:"role"`
	// TokenEnv names the environment variable holding the user's
	// token, read when the daemon starts. Exclusive with TokenSHA256.
	TokenEnv string `yaml:"token_env"`
	// TokenSHA256 is the SHA-256 of the user's token, 64 hex digits
	// (`printf %s "$TOKEN" | sha256sum`). Exclusive with TokenEnv.
	// Redacted by Config.String.
	TokenSHA256 string `yaml:"token_sha256"`
}

// Users are the configured users, sorted by name. In YAML they are a
// map from name to user, or a list of users with name:.
type Users []User

// userKeys are the keys a user may have; the list form adds name.
var userKeys = []string{"role", "token_env", "token_sha256"}

// UnmarshalYAML reads users: as a map (name → user) or a list, refusing
// unknown keys (a custom unmarshaler does not inherit the file
// decoder's strictness), and sorts the users by name.
func (u *Users) UnmarshalYAML(n *yaml.Node) error {
	var out Users
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			name := n.Content[i].Value
			var x User
			if err := decodeKnown(n.Content[i+1], &x, userKeys); err != nil {
				return fmt.Errorf("users.%s: %w", name, err)
			}
			x.Name = name
			out = append(out, x)
		}
	case yaml.SequenceNode:
		for i, e := range n.Content {
			var x User
			if err := decodeKnown(e, &x, append([]string{"name"}, userKeys...)); err != nil {
				return fmt.Errorf("users[%d]: %w", i, err)
			}
			out = append(out, x)
		}
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			*u = nil
			return nil
		}
		fallthrough
	default:
		return fmt.Errorf("line %d: users: want a map of name to user, or a list of users", n.Line)
	}
	slices.SortStableFunc(out, func(a, b User) int { return strings.Compare(a.Name, b.Name) })
	*u = out
	return nil
}

// decodeKnown decodes a mapping node into v, refusing keys not in known.
func decodeKnown(n *yaml.Node, v any, known []string) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: want a map with %s", n.Line, strings.Join(known, ", "))
	}
	for i := 0; i < len(n.Content); i += 2 {
		if k := n.Content[i].Value; !slices.Contains(known, k) {
			return fmt.Errorf("line %d: unknown key %q (want %s)", n.Content[i].Line, k, strings.Join(known, ", "))
		}
	}
	return n.Decode(v)
}

// Role is a configured role (roles:). A built-in role's name (admin,
// operator, viewer) may only be given Rules.
type Role struct {
	// Tools maps "source:tool" patterns ("builtin:*", "*:*",
	// "github:create_*"; each half a glob; a pattern without a colon is
	// "*:tool") to allow, ask or deny. The most specific matching
	// pattern wins; a tool no pattern matches is denied. Default (absent):
	// {"*:*": allow}, every tool with the permission policy deciding
	// (ToolDecisions); an empty map ({}) is a role that may use no tool.
	Tools map[string]string `yaml:"tools"`
	// Rules are permission rules of the role's users, merged with
	// permissions.rules (strictest wins). Same shape as
	// permissions.rules.
	Rules []PermissionRule `yaml:"rules"`
	// ReadOnly makes the role like viewer: only calls allowed without
	// asking run; anything that would be asked is denied.
	ReadOnly bool `yaml:"read_only"`
	// Admin lets the role's users read the audit log and see
	// conversations recorded before conversations had owners.
	Admin bool `yaml:"admin"`
}

// ToolDecisions returns the role's Tools with its default filled in:
// {"*:*": "allow"} when tools: is absent, so a role that only adds
// rules may use every tool; tools: {} stays empty, a role that may use
// no tool. The daemon hands this, not Tools, to the policy.
func (r Role) ToolDecisions() map[string]string {
	if r.Tools == nil {
		return map[string]string{"*:*": "allow"}
	}
	return r.Tools
}

// validPattern checks a roles.X.tools pattern: no empty half, each
// half a valid glob (path.Match syntax).
func validPattern(p string) error {
	src, tool, ok := strings.Cut(p, ":")
	if !ok {
		src, tool = "*", p
	}
	if strings.TrimSpace(src) == "" || strings.TrimSpace(tool) == "" {
		return errors.New("empty source or tool")
	}
	for _, half := range []string{src, tool} {
		if _, err := path.Match(half, ""); err != nil {
			return fmt.Errorf("%q is not a glob: %w", half, err)
		}
	}
	return nil
}

// RateLimit bounds one tool's calls per user (rate_limits:), as token
// buckets: a window's limit is its burst, refilled evenly over the
// window. 0 is no limit for that window; at least one must be positive.
type RateLimit struct {
	// PerMinute: at most this many calls at once, and one more every
	// minute/PerMinute (per_minute: 6 — six at once, then one every 10 s).
	PerMinute int `yaml:"per_minute"`
	// PerHour: the same over an hour; a call needs room in both windows.
	PerHour int `yaml:"per_hour"`
}

// BuiltinRole reports whether name is a built-in role.
func BuiltinRole(name string) bool {
	return name == chat.RoleAdmin || name == chat.RoleOperator || name == chat.RoleViewer
}

// validRule checks one permission rule (permissions.rules, roles.X.rules).
func validRule(key string, r PermissionRule) []error {
	var errs []error
	if r.Tool == "" {
		errs = append(errs, fmt.Errorf("%s: no tool", key))
	}
	if !validDecision(r.Decision) {
		errs = append(errs, fmt.Errorf("%s: decision %q is not allow, ask or deny", key, r.Decision))
	}
	return errs
}

func validDecision(d string) bool { return d == "allow" || d == "ask" || d == "deny" }

// validateAccess checks users:, roles: and rate_limits:.
func (c *Config) validateAccess() []error {
	var errs []error
	for _, name := range sortedKeys(c.Roles) {
		r, key := c.Roles[name], "roles."+name
		if name == "" {
			errs = append(errs, errors.New("roles: empty role name"))
		}
		if BuiltinRole(name) && (r.Tools != nil || r.ReadOnly || r.Admin) {
			errs = append(errs, fmt.Errorf("%s: a built-in role may only get rules", key))
		}
		for _, p := range sortedKeys(r.Tools) {
			switch {
			case validPattern(p) != nil:
				errs = append(errs, fmt.Errorf("%s.tools: bad pattern %q: %w", key, p, validPattern(p)))
			case !validDecision(r.Tools[p]):
				errs = append(errs, fmt.Errorf("%s.tools[%q]: decision %q is not allow, ask or deny", key, p, r.Tools[p]))
			}
		}
		for i, rule := range r.Rules {
			errs = append(errs, validRule(fmt.Sprintf("%s.rules[%d]", key, i), rule)...)
		}
	}
	seen := make(map[string]bool, len(c.Users))
	for _, u := range c.Users {
		key := "users." + u.Name
		switch {
		case !access.ValidName(u.Name):
			errs = append(errs, fmt.Errorf("users: bad name %q: ASCII letters, digits, '.', '_' or '-', at most 64, starting with a letter or digit, not %q", u.Name, chat.LocalID))
		case c.AuthToken != "" && u.Name == chat.AdminName:
			errs = append(errs, fmt.Errorf("%s: the name is auth_token's holder; rename the user or drop auth_token", key))
		case seen[u.Name]:
			errs = append(errs, fmt.Errorf("%s: duplicate user", key))
		}
		seen[u.Name] = true
		if _, ok := c.Roles[u.Role]; !ok && !BuiltinRole(u.Role) {
			errs = append(errs, fmt.Errorf("%s: role %q is neither built-in (admin, operator, viewer) nor configured under roles", key, u.Role))
		}
		switch {
		case (u.TokenEnv == "") == (u.TokenSHA256 == ""):
			errs = append(errs, fmt.Errorf("%s: set exactly one of token_env and token_sha256", key))
		case u.TokenSHA256 != "":
			if _, err := decodeHash(u.TokenSHA256); err != nil {
				errs = append(errs, fmt.Errorf("%s: token_sha256: %w", key, err))
			}
		}
	}
	for _, tool := range sortedKeys(c.RateLimits) {
		l, key := c.RateLimits[tool], fmt.Sprintf("rate_limits.%s", tool)
		switch {
		case tool == "":
			errs = append(errs, errors.New("rate_limits: empty tool name"))
		case l.PerMinute < 0 || l.PerHour < 0:
			errs = append(errs, fmt.Errorf("%s: per_minute and per_hour must not be negative", key))
		case l.PerMinute == 0 && l.PerHour == 0:
			errs = append(errs, fmt.Errorf("%s: set per_minute or per_hour (or drop the entry)", key))
		}
	}
	return errs
}

// decodeHash decodes a token_sha256 value.
func decodeHash(s string) ([32]byte, error) {
	var h [32]byte
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, errors.New("want 64 hex digits (the SHA-256 of the token)")
	}
	copy(h[:], b)
	return h, nil
}

// public reports whether a listener is off loopback.
func (c *Config) public() bool { return !IsLoopback(c.NPLT) || !IsLoopback(c.HTTP) }

// Directory builds the access directory of the configured users and
// auth_token: it reads each token_env through lookup (usually
// os.LookupEnv; an unset or empty variable is an error naming the user
// and the variable, never a value — or, with AllowUnsetTokens, a user
// nobody can sign in as), checks those tokens' strength
// (CheckToken) when a listener is off loopback, decodes the hashes, and
// gives each user its role's admin flag (the admin role, or a
// configured role with admin: true). Load calls it once to report these
// errors at start; the daemon calls it to get the directory.
func (c *Config) Directory(lookup func(string) (string, bool)) (*access.Directory, error) {
	users := make([]access.User, 0, len(c.Users))
	for _, u := range c.Users {
		key := "users." + u.Name
		au := access.User{Name: u.Name, Role: u.Role, Admin: u.Role == chat.RoleAdmin || c.Roles[u.Role].Admin && !BuiltinRole(u.Role)}
		switch {
		case u.TokenEnv != "":
			tok, ok := lookup(u.TokenEnv)
			if (!ok || tok == "") && c.AllowUnsetTokens {
				// A hash no token has: the user exists, nobody signs in
				// as them.
				rand.Read(au.TokenSHA256[:])
				break
			}
			if !ok || tok == "" {
				return nil, fmt.Errorf("config: %s: token_env %s is not set or empty", key, u.TokenEnv)
			}
			if c.public() {
				if err := checkToken(key+" ("+u.TokenEnv+")", tok); err != nil {
					return nil, fmt.Errorf("config: %w", err)
				}
			}
			au.TokenSHA256 = access.HashToken(tok)
		default:
			h, err := decodeHash(u.TokenSHA256)
			if err != nil {
				return nil, fmt.Errorf("config: %s: token_sha256: %w", key, err)
			}
			au.TokenSHA256 = h
		}
		users = append(users, au)
	}
	d, err := access.New(users, c.AuthToken)
	if err != nil {
		return nil, fmt.Errorf("config: users: %w", err)
	}
	return d, nil
}

// UnsetTokenUsers names the users whose token_env lookup finds unset or
// empty, each as "name (VAR)": those Directory refuses, or, with
// AllowUnsetTokens, keeps unable to sign in.
func (c *Config) UnsetTokenUsers(lookup func(string) (string, bool)) []string {
	var out []string
	for _, u := range c.Users {
		if u.TokenEnv == "" {
			continue
		}
		if tok, ok := lookup(u.TokenEnv); !ok || tok == "" {
			out = append(out, u.Name+" ("+u.TokenEnv+")")
		}
	}
	return out
}

// sortedKeys returns m's keys in order, for deterministic errors.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
