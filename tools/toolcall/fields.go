package toolcall

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"opsassist/api"
)

// maxFieldsNamed is the most unknown fields one refusal names, and
// maxFieldShown the most characters of each it shows.
const (
	maxFieldsNamed = 5
	maxFieldShown  = 64
)

// CheckFields refuses a direct call's request — an HTTP body, a
// TOOL_CALL payload — with a field that shape (the request's struct, or
// a pointer to it) has no json key for: a misspelt "argumentz" or an
// "args" would otherwise run the tool with {}. It is an *Error
// (bad_request, ErrUnknownField) naming the unknown fields and the known
// ones. A key matches as encoding/json matches it, ignoring case. body
// is the request the caller decoded into shape; one that is not a JSON
// object passes (the caller's decoding refuses it).
func CheckFields(body []byte, shape any) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || len(m) == 0 {
		return nil
	}
	known := jsonKeys(reflect.TypeOf(shape))
	var unknown []string
	for k := range m {
		if !slices.ContainsFunc(known, func(n string) bool { return strings.EqualFold(n, k) }) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	named := make([]string, 0, maxFieldsNamed+1)
	for _, k := range unknown[:min(len(unknown), maxFieldsNamed)] {
		if utf8.RuneCountInString(k) > maxFieldShown {
			k = string([]rune(k)[:maxFieldShown]) + "…"
		}
		named = append(named, fmt.Sprintf("%q", k))
	}
	if n := len(unknown) - maxFieldsNamed; n > 0 {
		named = append(named, fmt.Sprintf("and %d more", n))
	}
	what := "unknown field"
	if len(unknown) > 1 {
		what = "unknown fields"
	}
	return &Error{
		Code:    api.CodeBadRequest,
		Message: fmt.Sprintf("%s %s (a direct call takes %s)", what, strings.Join(named, ", "), strings.Join(known, ", ")),
		Err:     ErrUnknownField,
	}
}

// jsonKeys returns the json keys of struct t's exported fields, in
// order.
func jsonKeys(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case !f.IsExported() || name == "-":
			continue
		case name == "":
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}
