package eval

import (
	"encoding/json"
	"reflect"
)

// Subset reports whether every key of want is in got with an equal value.
// Values are compared deeply; numbers of any Go or JSON type are equal
// when their values are.
func Subset(want, got map[string]any) bool {
	for k, w := range want {
		g, ok := got[k]
		if !ok || !equal(w, g) {
			return false
		}
	}
	return true
}

// equal compares two decoded JSON values, numbers numerically.
func equal(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := toSlice(b)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case []string:
		s := make([]any, len(a))
		for i, v := range a {
			s[i] = v
		}
		return equal(s, b)
	}
	return reflect.DeepEqual(a, b)
}

func toSlice(v any) ([]any, bool) {
	switch v := v.(type) {
	case []any:
		return v, true
	case []string:
		s := make([]any, len(v))
		for i, x := range v {
			s[i] = x
		}
		return s, true
	}
	return nil, false
}

// number returns v as a float64 if it is a number.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint:
		return float64(n), true
	case uint64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}
