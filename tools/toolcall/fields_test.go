package toolcall

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"opsassist/api"
)

// TestCheckFields: a request with a field its struct has no json key for
// is refused (bad_request, ErrUnknownField), naming the unknown fields
// (at most five, long ones cut) and the known ones; known fields match
// ignoring case, as encoding/json matches them; a body that is not an
// object passes, for the caller's decoding to refuse.
func TestCheckFields(t *testing.T) {
	type body struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
		Skip      string          `json:"-"`
		hidden    string
	}
	long := strings.Repeat("x", 70)
	for in, want := range map[string]string{
		`{"name":"a","arguments":{}}`: "",
		`{"NAME":"a","Arguments":{}}`: "",
		`{}`:                          "",
		`null`:                        "",
		`[1]`:                         "",
		`{"name":"a","argumentz":{}}`: `unknown field "argumentz" (a direct call takes name, arguments)`,
		`{"Skip":"a","hidden":"b"}`:   `unknown fields "Skip", "hidden" (a direct call takes name, arguments)`,
		`{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1}`: `unknown fields "a", "b", "c", "d", "e", and 2 more (`,
		`{"` + long + `":1}`:                          `unknown field "` + long[:64] + `…" (`,
	} {
		err := CheckFields([]byte(in), body{})
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", in, err)
			}
			continue
		}
		var te *Error
		if !errors.As(err, &te) || te.Code != api.CodeBadRequest || !errors.Is(err, ErrUnknownField) || !strings.HasPrefix(te.Message, want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	if err := CheckFields([]byte(`{"x":1}`), &body{}); err == nil {
		t.Error("a pointer shape checks nothing")
	}
}
