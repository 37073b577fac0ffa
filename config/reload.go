package config

import (
	"reflect"
	"strings"
)

// Changed returns the keys, as the file names them ("limits.max_tools",
// "http"), whose values differ between a and b, descending into
// sections. mcp_servers and limits.max_tools, which a running daemon
// applies when its files change, are left out: every key returned takes
// effect at the next start. It never returns a value: the caller logs the names.
func Changed(a, b Config) []string {
	var out []string
	diff(reflect.ValueOf(a), reflect.ValueOf(b), "", &out)
	return out
}

// diff appends to out the yaml keys of struct values a and b that
// differ, prefixed.
func diff(a, b reflect.Value, prefix string, out *[]string) {
	t := a.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" {
			continue
		}
		key := prefix + name
		if isReloadable(key) {
			continue
		}
		fa, fb := a.Field(i), b.Field(i)
		if f.Type.Kind() == reflect.Struct {
			diff(fa, fb, key+".", out)
			continue
		}
		if !reflect.DeepEqual(fa.Interface(), fb.Interface()) {
			*out = append(*out, key)
		}
	}
}

// isReloadable reports whether a running daemon applies key when its
// files change: the MCP servers, the cap on the tools offered and the
// retention policy.
func isReloadable(key string) bool {
	return key == "mcp_servers" || key == "limits.max_tools" || key == "retention"
}
