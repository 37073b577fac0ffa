package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"unicode/utf8"
)

// GrantScope is what an allow_session answer (and a turn's denial) of a
// call of tool covers, as the user is shown it: the scope the policy
// gave it, or, when it gave none, the tool and these arguments. Both
// are the redacted text (secrets replaced), so two calls that differ
// only in a secret, a long id or a flag's value can show the same
// GrantScope: grants are matched on GrantKey, never on this. The chat
// core, the registry and the MCP server all read this one rule.
func GrantScope(tool, scope string, args []byte) string {
	if scope != "" {
		return scope
	}
	return tool + ":" + string(args)
}

// GrantKey is what an allow_session grant (and a turn's denial) of a
// call of tool is matched on: a SHA-256 of the tool and the UNREDACTED
// scope the policy gave it, or, when it gave none, of the tool and its
// raw arguments canonicalised (keys sorted, no whitespace, numbers as
// written). Two calls share a key only when they share the scope or
// the exact arguments, secrets included; the key itself holds no
// secret, so a grant list may keep it. The shown scope stays GrantScope.
func GrantKey(tool, scope string, args []byte) string {
	h := sha256.New()
	h.Write([]byte(tool))
	if scope != "" {
		h.Write([]byte("\x00scope\x00"))
		h.Write([]byte(scope))
	} else {
		h.Write([]byte("\x00args\x00"))
		h.Write(canonicalJSON(args))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// canonicalJSON is b with object keys sorted and no whitespace, numbers
// kept as written; b itself when it is not one JSON value.
func canonicalJSON(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return []byte("{}")
	}
	if !utf8.Valid(b) {
		return b // decoding would fold different bad bytes into U+FFFD
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		return b
	}
	if _, err := d.Token(); err == nil {
		return b // data after the value
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}

// DecisionAllows says what a permission decision does: allowed runs the
// call; session also covers calls of the same GrantKey for the rest
// of the session. Anything but DecisionAllowOnce and
// DecisionAllowSession (DecisionDeny, an empty or unknown value) is a
// deny.
func DecisionAllows(decision string) (allowed, session bool) {
	switch decision {
	case DecisionAllowSession:
		return true, true
	case DecisionAllowOnce:
		return true, false
	}
	return false, false
}
