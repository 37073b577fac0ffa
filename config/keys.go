package config

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// ErrUnknownKey is matched (errors.Is) by LoadFile's error for a file
// with a key the configuration does not have.
var ErrUnknownKey = errors.New("config: unknown key")

// maxUnknownNamed is the most unknown keys one error names; the rest
// are counted ("and 3 more").
const maxUnknownNamed = 5

// unknownKeys are the keys of a file that no field of the configuration
// has: the first maxUnknownNamed in the order of the file, each with its
// line and its path as docs/configuration.md names keys ("line 4:
// mcp_servers.b.colour: unknown key"), and the count of the rest. It
// matches ErrUnknownKey.
type unknownKeys struct {
	named []unknownKey
	more  int // unknown keys found beyond named
}

type unknownKey struct {
	line int
	path string
}

// add records an unknown key: named while fewer than maxUnknownNamed
// are, else only counted (a file of many unknown keys costs no memory
// per key).
func (u *unknownKeys) add(line int, path func() string) {
	if len(u.named) < maxUnknownNamed {
		u.named = append(u.named, unknownKey{line, path()})
		return
	}
	u.more++
}

func (u *unknownKeys) Error() string {
	parts := make([]string, 0, len(u.named)+1)
	for _, k := range u.named {
		parts = append(parts, fmt.Sprintf("line %d: %s: unknown key", k.line, k.path))
	}
	if u.more > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", u.more))
	}
	return strings.Join(parts, "; ")
}

func (u *unknownKeys) Is(target error) bool { return target == ErrUnknownKey }

// checkKeys walks the parsed file doc against Config's yaml tags and
// returns its unknown keys (unknownKeys), or nil. It descends into
// sections, maps (mcp_servers.<name>, roles.<name>, …), lists
// (permissions.rules[0]), aliases and merge keys (<<); a value of the
// wrong kind (a list where a section belongs) is left to the decoder,
// which says so.
func checkKeys(doc *yaml.Node) error {
	w := keyWalker{seen: map[walked]bool{}}
	w.walk(doc, reflect.TypeFor[Config](), "", 0)
	if len(w.found.named) == 0 {
		return nil
	}
	return &w.found
}

// maxKeyDepth bounds the walk's nesting (the configuration has about
// five levels).
const maxKeyDepth = 32

type walked struct {
	n *yaml.Node
	t reflect.Type
}

// keyWalker collects the unknown keys of one file. seen holds the nodes
// already walked as a type: an alias names its anchor's node, walked
// once however often it is named (a file of nested aliases, or of many
// aliases of one big node, cannot make the walk quadratic or
// exponential). visited counts the nodes walked, for the tests.
type keyWalker struct {
	found   unknownKeys
	seen    map[walked]bool
	visited int
}

// userEntry is the type a user's node is marked seen as (the entries of
// users: are checked against userKeys, not walked as a Go type).
type userEntry struct{}

var (
	usersType       = reflect.TypeFor[Users]()
	userEntryType   = reflect.TypeFor[userEntry]()
	unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()
)

func (w *keyWalker) walk(n *yaml.Node, t reflect.Type, path string, depth int) {
	for n != nil && (n.Kind == yaml.DocumentNode || n.Kind == yaml.AliasNode) {
		if n.Kind == yaml.DocumentNode {
			if len(n.Content) == 0 {
				return
			}
			n = n.Content[0]
		} else {
			n = n.Alias
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n == nil || depth > maxKeyDepth || w.seen[walked{n, t}] {
		return
	}
	w.seen[walked{n, t}] = true
	w.visited++
	switch {
	case t == usersType:
		w.walkUsers(n, path, depth)
		return
	case reflect.PointerTo(t).Implements(unmarshalerType):
		return // reads its own node
	}
	switch t.Kind() {
	case reflect.Struct:
		fields := yamlFields(t)
		w.eachPair(n, func(k, v *yaml.Node) {
			if ft, ok := fields[k.Value]; ok {
				w.walk(v, ft, joinKey(path, k.Value), depth+1)
			} else {
				w.found.add(k.Line, func() string { return joinKey(path, k.Value) })
			}
		}, t, path, depth)
	case reflect.Map:
		w.eachPair(n, func(k, v *yaml.Node) {
			w.walk(v, t.Elem(), joinKey(path, k.Value), depth+1)
		}, t, path, depth)
	case reflect.Slice, reflect.Array:
		if n.Kind != yaml.SequenceNode {
			return
		}
		for i, e := range n.Content {
			w.walk(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i), depth+1)
		}
	}
}

// eachPair calls f with each scalar key of mapping n and its value. A
// merge key (<<) walks the mappings it merges as t, at path.
func (w *keyWalker) eachPair(n *yaml.Node, f func(k, v *yaml.Node), t reflect.Type, path string, depth int) {
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case k.Kind == yaml.ScalarNode && k.Tag == "!!merge":
			if v.Kind == yaml.SequenceNode {
				for _, m := range v.Content {
					w.walk(m, t, path, depth+1)
				}
			} else {
				w.walk(v, t, path, depth+1)
			}
		case k.Kind == yaml.ScalarNode:
			f(k, v)
		}
	}
}

// walkUsers walks users:, a map of name to user or a list of users with
// name:, against the keys Users.UnmarshalYAML accepts (userKeys). A
// user's node named again by an alias is not checked again: its unknown
// keys are reported once, at the first name.
func (w *keyWalker) walkUsers(n *yaml.Node, path string, depth int) {
	check := func(u *yaml.Node, path string, known []string) {
		for u != nil && u.Kind == yaml.AliasNode {
			u = u.Alias
		}
		if u == nil || u.Kind != yaml.MappingNode || w.seen[walked{u, userEntryType}] {
			return
		}
		w.seen[walked{u, userEntryType}] = true
		w.visited++
		for i := 0; i+1 < len(u.Content); i += 2 {
			if k := u.Content[i]; k.Kind == yaml.ScalarNode && !slices.Contains(known, k.Value) {
				w.found.add(k.Line, func() string { return joinKey(path, k.Value) })
			}
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			check(n.Content[i+1], joinKey(path, n.Content[i].Value), userKeys)
		}
	case yaml.SequenceNode:
		for i, e := range n.Content {
			check(e, fmt.Sprintf("%s[%d]", path, i), append([]string{"name"}, userKeys...))
		}
	}
}

// yamlFields maps the keys of struct t, as the YAML decoder names them
// (its yaml tag, else the lowercased field name; "-" is no key), to
// their types; an ",inline" struct's keys are t's.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if slices.Contains(strings.Split(opts, ","), "inline") && f.Type.Kind() == reflect.Struct {
			for k, ft := range yamlFields(f.Type) {
				out[k] = ft
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f.Type
	}
	return out
}

// plainKey is a key written as is in a path; any other is quoted
// (roles.x.tools["builtin:*"]).
var plainKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// maxKeyShown is the most characters of one key a path shows.
const maxKeyShown = 64

// joinKey appends key to path: ".key", or `["key"]` for a key with
// other characters, cut to maxKeyShown characters.
func joinKey(path, key string) string {
	if plainKey.MatchString(key) && len(key) <= maxKeyShown {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	if utf8.RuneCountInString(key) > maxKeyShown {
		key = string([]rune(key)[:maxKeyShown]) + "…"
	}
	return fmt.Sprintf("%s[%q]", path, key)
}
