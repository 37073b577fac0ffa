package npltserver

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"opsassist/api"
	"opsassist/nplt"
)

// FuzzPayloadParsers feeds arbitrary payloads to the decoders the handlers
// use. They must not panic, and what they accept must be in range.
func FuzzPayloadParsers(f *testing.F) {
	for _, s := range []string{`{"port":5000}`, "5000", "\x13\x88", `{"session_id":"abcd"}`, "abcd1234", `{"filename":"a","size":1}`, `{"filename":"a","size":"1"}`, `{"filename":"a","size":1e2}`, `{"client":"x","client_type":"cli"}`, `{"request_id":"r","decision":"deny"}`, `{"request_id":"r","answer":"web-01"}`, `{"request_id":""}`, `{"name":"look","arguments":{"a":1}}`, `{"name":""}`, `{"name":"x","arguments":[1]}`, "{", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		if port, err := portFromPayload(p); err == nil && (port < 1 || port > 65535) {
			t.Fatalf("port %d accepted from %q", port, p)
		}
		if id, ok := sessionRef(p); ok && id == "" {
			t.Fatalf("empty session id accepted from %q", p)
		}
		if m, err := parseFileMeta(p); err == nil && m.Size < 0 {
			t.Fatalf("negative size %d accepted from %q", m.Size, p)
		}
		if r, code, _ := parsePermissionResponse(p); code == "" && (r.RequestID == "" || len(p) > maxPermissionResponse) {
			t.Fatalf("permission response %+v accepted from %q", r, p)
		}
		if a, code, _ := parseAnswer(p); code == "" && (a.RequestID == "" || len(p) > maxAnswer) {
			t.Fatalf("answer %+v accepted from %q", a, p)
		}
		if r, code, _ := parseToolCall(p); code == "" {
			if r.Name == "" || len(p) > maxToolCall {
				t.Fatalf("tool call %+v accepted from %q", r, p)
			}
			// Round trip: what the server accepted, encoded as the client
			// encodes it, parses to the same call.
			q, err := json.Marshal(r)
			if err != nil {
				t.Fatalf("re-encoding %+v: %v", r, err)
			}
			if r2, code, msg := parseToolCall(q); code != "" || r2.Name != r.Name || !sameJSON(r2.Arguments, r.Arguments) {
				t.Fatalf("%q: re-parsed %q as %+v (%s %s), want %+v", p, q, r2, code, msg, r)
			}
		}
		var h nplt.HelloPayload
		_ = unmarshalStrict(p, &h)
	})
}

// FuzzToolCallRoundTrip: a TOOL_CALL payload as the client encodes it
// (client.Conn.CallTool: json.Marshal of nplt.ToolCallPayload) parses on
// the server to the same name and arguments, or is refused for the one
// reason that applies: too_large over maxToolCall, bad_json without a
// name. Arguments that are not JSON never leave the client.
func FuzzToolCallRoundTrip(f *testing.F) {
	for _, s := range [][2]string{{"look", `{"a":1}`}, {"look", ""}, {"look", "null"}, {"", "{}"}, {"x", `[1]`}, {"<&>\u2028", ` { "k" : "<v>" } `}, {"\xff", `{"\xff":"\u00e9"}`}, {"a", `{"a":1,"a":2}`}} {
		f.Add(s[0], []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, name string, args []byte) {
		if len(name)+len(args) > 4*maxToolCall {
			return // bounded cost; too_large is reached well before
		}
		if len(args) != 0 && !json.Valid(args) {
			return
		}
		p, err := json.Marshal(nplt.ToolCallPayload{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("encoding %q %q: %v", name, args, err)
		}
		r, code, msg := parseToolCall(p)
		switch {
		case len(p) > maxToolCall:
			if code != api.CodeTooLarge {
				t.Fatalf("%d bytes: code %q", len(p), code)
			}
		case name == "":
			if code != api.CodeBadJSON {
				t.Fatalf("no name: code %q", code)
			}
		case code != "":
			t.Fatalf("%q refused: %s %s", p, code, msg)
		case r.Name != jsonString(t, name):
			t.Fatalf("name %q became %q", name, r.Name)
		case !sameJSON(r.Arguments, args):
			t.Fatalf("arguments %q became %q", args, r.Arguments)
		}
	})
}

// jsonString is s as JSON carries it: invalid UTF-8 becomes U+FFFD.
func jsonString(t *testing.T, s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var out string
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameJSON reports whether a and b are the same JSON value (both empty
// counts as the same); numbers are compared as written.
func sameJSON(a, b []byte) bool {
	if len(bytes.TrimSpace(a)) == 0 || len(bytes.TrimSpace(b)) == 0 {
		return len(bytes.TrimSpace(a)) == len(bytes.TrimSpace(b))
	}
	decode := func(p []byte) (any, error) {
		d := json.NewDecoder(bytes.NewReader(p))
		d.UseNumber()
		var v any
		err := d.Decode(&v)
		return v, err
	}
	va, ea := decode(a)
	vb, eb := decode(b)
	return ea == nil && eb == nil && reflect.DeepEqual(va, vb)
}
