package config

import (
	"reflect"
	"strings"
)

// Reloadable are the keys a running daemon applies when its files
// change; every other key takes effect at the next start.
var Reloadable = []string{"mcp_servers"}

// Changed returns the keys, as the file names them ("limits.max_tools",
// "http"), whose values differ between a and b, descending into
// sections; the keys in Reloadable are left out. It never returns a
// value: the caller logs the names.
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

func isReloadable(key string) bool {
	for _, k := range Reloadable {
		if k == key {
			return true
		}
	}
	return false
}
