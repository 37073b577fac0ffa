package loopguard

import "testing"

// TestCanonical: key order and white space do not matter; values,
// number literals and invalid text do.
func TestCanonical(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{`{"command":"ls","args":["-l"]}`, ` { "args" : [ "-l" ], "command":"ls" } `, true},
		{`{"a":{"y":1,"x":2}}`, `{"a":{"x":2,"y":1}}`, true},
		{``, `{}`, true},
		{"  \n", `{ }`, true},
		{`{"a":1}`, `{"a":1.0}`, false},
		{`{"a":"1"}`, `{"a":1}`, false},
		{`{"args":["-l","-a"]}`, `{"args":["-a","-l"]}`, false},
		{`{"a":1}`, `{"a":2}`, false},
		{`{"text":`, ` {"text":  `, true},
		{`{"text":`, `{"text": `, true},
		{`{"a":1} {"b":2}`, `{"a":1}`, false},
		{`not json`, `not  json`, false},
		{`{"a":1}`, `{"a":1,"a":1}`, true},
	} {
		if got := Canonical([]byte(tc.a)) == Canonical([]byte(tc.b)); got != tc.same {
			t.Errorf("Canonical(%q)=%q, Canonical(%q)=%q: same %v, want %v", tc.a, Canonical([]byte(tc.a)), tc.b, Canonical([]byte(tc.b)), got, tc.same)
		}
	}
	if got := Canonical([]byte(` {"b": [1, 2.50], "a": null} `)); got != `{"a":null,"b":[1,2.50]}` {
		t.Errorf("canonical form %s", got)
	}
	if got := Canonical([]byte(" {oops ")); got != "{oops" {
		t.Errorf("invalid JSON kept as %q, want it trimmed", got)
	}
}
