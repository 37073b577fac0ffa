package confkv

import (
	"strings"
	"testing"
)

// appendProperties writes entries as .properties lines, every
// character the format gives a meaning escaped: the round trip of the
// fuzz tests reads them back.
func appendProperties(b []byte, entries []Entry) []byte {
	esc := func(s string, key bool) string {
		var out strings.Builder
		for i := range len(s) {
			r := s[i]
			switch {
			case r == '\\':
				out.WriteString(`\\`)
			case r == '\n':
				out.WriteString(`\n`)
			case r == '\r':
				out.WriteString(`\r`)
			case r == '\f':
				out.WriteString(`\f`)
			case r == '\t':
				out.WriteString(`\t`)
			case key && strings.IndexByte("=: #!", r) >= 0, !key && i == 0 && r == ' ':
				out.WriteByte('\\')
				out.WriteByte(r)
			default:
				out.WriteByte(r)
			}
		}
		return out.String()
	}
	for _, e := range entries {
		b = append(b, esc(e.Path, true)+"="+esc(e.Value, false)+"\n"...)
	}
	return b
}

// roundTrip parses text as f; a text that parses must stay within the
// bounds, and its settings written as .properties must read back the
// same.
func roundTrip(t *testing.T, f Format, text string) {
	entries, err := ParseAs(f, text)
	if err != nil {
		return
	}
	if len(entries) > MaxEntries {
		t.Fatalf("%d entries", len(entries))
	}
	again, err := ParseAs(Properties, string(appendProperties(nil, entries)))
	if err != nil {
		t.Fatalf("re-parse: %v", err)
	}
	if len(again) != len(entries) {
		t.Fatalf("%d entries, %d after the round trip", len(entries), len(again))
	}
	for i := range entries {
		if again[i].Path != entries[i].Path || again[i].Value != entries[i].Value {
			t.Fatalf("entry %d: %q=%q, after the round trip %q=%q", i, entries[i].Path, entries[i].Value, again[i].Path, again[i].Value)
		}
	}
}

func seeds(f *testing.F, texts ...string) {
	for _, s := range texts {
		f.Add(s)
	}
}

func FuzzYAML(f *testing.F) {
	seeds(f, "a:\n  b: 1\n  c: [x, y]\n", "- a\n- {b: c}\n", "a: &x 1\nb: *x\n", "a: |\n  multi\n  line\n", "<<: {a: 1}\n")
	f.Fuzz(func(t *testing.T, s string) { roundTrip(t, YAML, s) })
}

func FuzzJSON(f *testing.F) {
	seeds(f, `{"a": {"b": [1, null, true]}}`, `[{}, []]`, `{"a\n": "b\\u0041"}`, `{"": ""}`)
	f.Fuzz(func(t *testing.T, s string) { roundTrip(t, JSON, s) })
}

func FuzzTOML(f *testing.F) {
	seeds(f, "a = 1\n[t]\nb = \"x\"\n[[arr]]\nc = [1, 2]\n", "d = {e = 'f', g.h = 1979-05-27}\n", "s = \"\"\"\nx\\\n  y\"\"\"\n", "\"q k\" = 0x1f\n")
	f.Fuzz(func(t *testing.T, s string) { roundTrip(t, TOML, s) })
}

func FuzzINI(f *testing.F) {
	seeds(f, "[s]\na = 1\nb: \"x;y\" ; c\n", "top = 1\n[a.b]\nc=d\n")
	f.Fuzz(func(t *testing.T, s string) { roundTrip(t, INI, s) })
}

func FuzzProperties(f *testing.F) {
	seeds(f, "a=1\nb : 2\nc d\\\n  e\n\\#k=\\u0041\n", "! c\n# c\nx\n")
	f.Fuzz(func(t *testing.T, s string) { roundTrip(t, Properties, s) })
}

func FuzzEnv(f *testing.F) {
	seeds(f, "A=1\nexport B=\"x\\ny\"\nC='z # w'\nD=v # c\n")
	f.Fuzz(func(t *testing.T, s string) { roundTrip(t, Env, s) })
}
