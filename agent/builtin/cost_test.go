package builtin

import (
	"runtime"
	"strings"
	"testing"

	"opsassist/internal/confkv"
)

// allocated is how many bytes f allocates: the work it does, measured
// without a clock.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// costInputs are the review's 32 KiB uploads (review 16a, item 4): a
// 16 KiB key over a list of 8000 items, as JSON and YAML, a long key
// nested, and many long keys.
func costInputs() map[string]string {
	key := strings.Repeat("k", 16<<10)
	items := strings.TrimSuffix(strings.Repeat("0,", 8000), ",")
	var nested strings.Builder
	for i := range 30 {
		nested.WriteString(strings.Repeat(" ", i) + strings.Repeat(string(rune('a'+i%26)), 1000) + ":\n")
	}
	for range 200 {
		nested.WriteString(strings.Repeat(" ", 30) + "port" + strings.Repeat("x", 10) + ": 1\n")
	}
	var many strings.Builder
	for i := 0; many.Len() < 32<<10; i++ {
		many.WriteString(strings.Repeat("p", 300) + string(rune('a'+i%26)) + "=1\n")
	}
	return map[string]string{
		"list.json":       `{"` + key + `": [` + items + `]}`,
		"list.yaml":       key + ": [" + items + "]\n",
		"nested.yaml":     nested.String(),
		"many.env":        strings.ReplaceAll(many.String(), "p", "P"),
		"many.ini":        "[s]\n" + many.String(),
		"long.properties": "k=" + strings.Repeat("a\\\n", 8000),
	}
}

// TestAnswerWorkBounded: a key answer and a comparison over the
// review's 32 KiB inputs do bounded work — their settings' paths and
// values at most confkv.MaxSettingBytes, every key at most
// confkv.MaxKeyBytes, the bytes allocated at most a fixed multiple of
// the input — and answer in at most maxAnswerTestBytes.
func TestAnswerWorkBounded(t *testing.T) {
	const maxAnswerTestBytes = 16 << 10
	for name, content := range costInputs() {
		if _, entries, err := confkv.Parse(name, content); err == nil {
			total := 0
			for _, e := range entries {
				total += len(e.Path) + len(e.Value)
				for _, k := range confkv.Segments(e.Path) {
					if len(k) > confkv.MaxKeyBytes {
						t.Errorf("%s: a key of %d bytes", name, len(k))
					}
				}
			}
			if total > confkv.MaxSettingBytes {
				t.Errorf("%s: %d bytes of settings", name, total)
			}
		}
		budget := uint64(512 * len(content)) // about 16 MB: the 4 MiB of settings a text may make, read a few times
		for _, q := range []string{"这个配置文件里数据库端口是多少？", "what is the port", "kkk"} {
			var got string
			if n := allocated(func() { got = describeRead(false, Intent{input: q}, name, content, false) }); n > budget {
				t.Errorf("%s %q: %d bytes allocated for %d bytes of input", name, q, n, len(content))

			}
			if len(got) > maxAnswerTestBytes {
				t.Errorf("%s %q: a %d-byte answer", name, q, len(got))
			}
		}
		other := strings.Replace(content, "0", "1", 1)
		var got string
		if n := allocated(func() {
			got = describeCompare(true, readFile{Filename: name, Content: &content}, readFile{Filename: "new-" + name, Content: &other})
		}); n > 2*budget {
			t.Errorf("compare %s: %d bytes allocated for %d bytes of input", name, n, len(content))
		}
		if len(got) > maxAnswerTestBytes {
			t.Errorf("compare %s: a %d-byte answer", name, len(got))
		}
	}
}
