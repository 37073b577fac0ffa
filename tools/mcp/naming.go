package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// MaxNameLen is the longest tool name the model is given.
const MaxNameLen = 64

// namePrefix starts every MCP tool's name.
const namePrefix = "mcp__"

// sanitise replaces every byte outside [A-Za-z0-9_-] (each rune of a
// non-ASCII character) with '_', and reports whether it changed s.
func sanitise(s string) (string, bool) {
	var b strings.Builder
	changed := false
	for _, r := range s {
		if r < 128 && (r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
			continue
		}
		b.WriteByte('_')
		changed = true
	}
	return b.String(), changed
}

// shortHash is 8 hex digits of the SHA-256 of the parts.
func shortHash(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:4])
}

// ToolName is the registry name of a server's tool,
// mcp__<server>__<tool>, made of [A-Za-z0-9_-] and at most MaxNameLen
// bytes. A server or tool name that had to be sanitised gets a short
// hash suffix of the original, so "a.b" and "a_b" never meet; a name
// too long is cut and suffixed the same way. taken, if not nil, holds
// the names already given: a name in it gets a hash suffix too (and
// another until it is free). The result is added to taken.
func ToolName(server, tool string, taken map[string]bool) string {
	srv, srvChanged := sanitise(server)
	if srvChanged {
		srv += "_" + shortHash(server)[:4]
	}
	tl, tlChanged := sanitise(tool)
	name := namePrefix + srv + "__" + tl
	if tlChanged || len(name) > MaxNameLen {
		name = suffixed(name, shortHash(server, tool))
	}
	for i := 0; taken[name]; i++ {
		name = suffixed(name, shortHash(server, tool, string(rune('a'+i%26)), name))
	}
	if taken != nil {
		taken[name] = true
	}
	return name
}

// suffixed is name cut to leave room for "_"+h, then "_"+h.
func suffixed(name, h string) string {
	keep := MaxNameLen - len(h) - 1
	if len(name) > keep {
		name = name[:keep]
	}
	return name + "_" + h
}
