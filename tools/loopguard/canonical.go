package loopguard

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Canonical returns the canonical form of a call's arguments, the form
// the Guard compares: valid JSON decoded and encoded again, so object
// keys are sorted, whitespace is gone and numbers keep their literal
// text; empty (or blank) arguments are "{}", as the Registry runs them;
// anything else is the arguments with surrounding white space trimmed.
// Two arguments with the same meaning to the tool have the same
// canonical form, and an invalid argument text never equals a valid
// one's canonical form.
func Canonical(args []byte) string {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 {
		return "{}"
	}
	v, err := decode(trimmed)
	if err != nil {
		return string(trimmed)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(trimmed)
	}
	return string(b)
}

// errTrailing: the arguments hold more than one JSON value.
var errTrailing = errors.New("loopguard: data after the JSON value")

// decode decodes exactly one JSON value, numbers as json.Number.
func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errTrailing
	}
	return v, nil
}
