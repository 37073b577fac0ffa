package npltserver

import (
	"testing"

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
		if r, code, _ := parseToolCall(p); code == "" && (r.Name == "" || len(p) > maxToolCall) {
			t.Fatalf("tool call %+v accepted from %q", r, p)
		}
		var h nplt.HelloPayload
		_ = unmarshalStrict(p, &h)
	})
}
