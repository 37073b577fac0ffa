package confkv

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

// allocated is how many bytes f allocates: its work, without a clock.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLongKeysCapped: a key longer than MaxKeyBytes is cut, ending in
// "…", in every format, so a 16 KiB key over 8000 list items makes
// about 2 MB of paths, not 128 MB (review 16a, item 4); a cut key cuts
// again unchanged.
func TestLongKeysCapped(t *testing.T) {
	key := strings.Repeat("k", 16<<10)
	items := strings.TrimSuffix(strings.Repeat("0,", 8000), ",")
	for name, text := range map[string]string{
		"a.json":       `{"` + key + `": [` + items + `]}`,
		"a.toml":       `"` + key + `" = [` + items + "]\n",
		"a.ini":        "[" + key + "]\n" + key + " = 1\n",
		"a.env":        strings.ToUpper(key) + "=1\n",
		"a.properties": key + "." + key + "=1\n",
	} {
		_, entries, err := Parse(name, text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		total := 0
		for _, e := range entries {
			total += len(e.Path) + len(e.Value)
			for _, k := range strings.Split(e.Path, ".") {
				if len(k) > MaxKeyBytes+len("[7999]") {
					t.Fatalf("%s: a key of %d bytes", name, len(k))
				}
			}
		}
		if !strings.Contains(strings.ToLower(entries[0].Path), "k…") || total > 8000*(MaxKeyBytes+8) {
			t.Errorf("%s: %d bytes of settings, first path %.40q", name, total, entries[0].Path)
		}
	}
	if k := capKey(key); capKey(k) != k || len(k) > MaxKeyBytes {
		t.Errorf("capKey is not stable: %d bytes", len(k))
	}
}

// TestSettingBytesBounded: settings whose paths and values together
// pass MaxSettingBytes are ErrTooLarge, however few bytes the text is.
func TestSettingBytesBounded(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		b.WriteString(strings.Repeat(" ", i) + strings.Repeat(string(rune('a'+i%26)), MaxKeyBytes) + ":\n")
	}
	for i := range 1000 {
		b.WriteString(strings.Repeat(" ", 30) + "k" + strings.Repeat("x", i%10) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + ": 1\n")
	}
	if _, _, err := Parse("deep.yaml", b.String()); !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrTooMany) {
		t.Errorf("deep.yaml: %v", err)
	}
}

// TestPropertiesContinuationLinear: a value continued over many lines
// is read in work linear in its length (review 16a, item 5: the joins
// were quadratic).
func TestPropertiesContinuationLinear(t *testing.T) {
	text := "k=" + strings.Repeat("a\\\n", 20000) + "end\n"
	var entries []Entry
	var err error
	n := allocated(func() { entries, err = ParseAs(Properties, text) })
	if err != nil || len(entries) != 1 || entries[0].Value != strings.Repeat("a", 20000)+"end" {
		t.Fatalf("%v %d", err, len(entries))
	}
	if n > uint64(40*len(text)) {
		t.Errorf("%d bytes allocated for %d bytes of text", n, len(text))
	}
}

// TestBOMAndExportTab: a byte order mark before the text is no part of
// the first key, in every format; "export<TAB>KEY=" is a .env line
// (review 16a, item 15).
func TestBOMAndExportTab(t *testing.T) {
	for name, text := range map[string]string{
		"a.env": "DB_PORT=5432\n", "a.ini": "[db]\nport = 5432\n", "a.toml": "[db]\nport = 5432\n", "a.json": `{"db": {"port": 5432}}`,
		"a.properties": "db.port=5432\n", "a.yaml": "db:\n  port: 5432\n", "stdin.txt": "[db]\nport = 5432\n",
	} {
		_, entries, err := Parse(name, bom+text)
		if err != nil || len(entries) == 0 || strings.HasPrefix(entries[0].Path, bom) || !strings.HasSuffix(strings.ToLower(entries[0].Path), "port") {
			t.Errorf("%s: %v %v", name, err, entries)
		}
	}
	entries, err := ParseAs(Env, "export\tA=1\nexport  B=2\nexported=3\n")
	if err != nil || len(entries) != 3 || entries[0].Path != "A" || entries[1].Path != "B" || entries[2].Path != "exported" {
		t.Errorf("export: %v %v", err, entries)
	}
}
