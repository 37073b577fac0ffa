package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/client"
	igolden "opsassist/internal/golden"
	"opsassist/nplt"
)

// mdCases are the Markdown inputs under testdata/md.
var mdCases = []string{"headings", "emphasis", "code", "code_unclosed", "code_unclosed_nonl",
	"lists", "table_zh", "quote", "links", "reply"}

// renderMD renders src delivered in the given deltas.
func renderMD(colour bool, deltas ...string) string {
	var b strings.Builder
	m := newMDRenderer(&b, colour)
	for _, d := range deltas {
		m.Write(d)
	}
	m.Flush()
	return b.String()
}

func readMD(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "md", name+".md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMarkdownGolden renders each input with colour and without; the
// goldens are the reviewable picture of the terminal output.
func TestMarkdownGolden(t *testing.T) {
	for _, name := range mdCases {
		t.Run(name, func(t *testing.T) {
			src := readMD(t, name)
			igolden.Check(t, filepath.Join("testdata", "md", name+".color.golden"), renderMD(true, src), *update)
			plain := renderMD(false, src)
			igolden.Check(t, filepath.Join("testdata", "md", name+".plain.golden"), plain, *update)
			if strings.Contains(plain, "\x1b") {
				t.Errorf("no-colour output has escape codes:\n%q", plain)
			}
		})
	}
}

// TestMarkdownStreamed feeds every input in deltas of every size from 1
// to 7 bytes (cutting runes, "**", fence markers and table rows) and
// requires the output of the whole reply.
func TestMarkdownStreamed(t *testing.T) {
	for _, name := range mdCases {
		src := readMD(t, name)
		want := renderMD(true, src)
		for size := 1; size <= 7; size++ {
			var deltas []string
			for i := 0; i < len(src); i += size {
				deltas = append(deltas, src[i:min(i+size, len(src))])
			}
			if got := renderMD(true, deltas...); got != want {
				t.Errorf("%s in %d-byte deltas:\n%s\nwant:\n%s", name, size, got, want)
			}
		}
	}
}

// TestMarkdownAwkwardDeltas cuts the reply at the places a model's
// deltas do: inside "**", inside a fence marker, inside a table row.
func TestMarkdownAwkwardDeltas(t *testing.T) {
	src := readMD(t, "reply")
	want := renderMD(true, src)
	for _, cut := range []string{"**8", "7%*", "``", "`bash", "| / | 50", "GiB |\n| /home", "-----:|"} {
		i := strings.Index(src, cut)
		if i < 0 {
			t.Fatalf("cut %q not in the reply", cut)
		}
		for _, at := range []int{i + 1, i + len(cut) - 1} {
			if got := renderMD(true, src[:at], src[at:]); got != want {
				t.Errorf("cut at %d (%q):\n%s\nwant:\n%s", at, cut, got, want)
			}
		}
	}
}

func TestRenderInline(t *testing.T) {
	st := mdStyle{bold: "<b>", italic: "<i>", code: "<c>", link: "<l>", strike: "<s>", reset: "</>"}
	for _, tc := range []struct{ in, want string }{
		{"**a**", "<b>a</>"},
		{"*a* _b_", "<i>a</> <i>b</>"},
		{"snake_case_name", "snake_case_name"},
		{"2 * 3 * 4", "2 * 3 * 4"},
		{"`a*b*c`", "<c>a*b*c</>"},
		{"[t](http://u)", "t (<l>http://u</>)"},
		{"[http://u](http://u)", "<l>http://u</>"},
		{`\*x\*`, "*x*"},
		{"**open", "**open"},
		{"~~s~~ ~x~", "<s>s</> ~x~"},
		{"`unclosed", "`unclosed"},
		{"[a]", "[a]"},
		{"<https://h/p>", "<l>https://h/p</>"},
		{"<b>html</b>", "<b>html</b>"},
	} {
		if got := renderInline(tc.in, st); got != tc.want {
			t.Errorf("renderInline(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRenderFlag(t *testing.T) {
	var f renderFlag
	for _, ok := range []string{"auto", "always", "never"} {
		if err := f.Set(ok); err != nil || f.String() != ok {
			t.Errorf("Set(%q) = %v, %q", ok, err, f.String())
		}
	}
	if err := f.Set("yes"); err == nil {
		t.Error(`Set("yes") accepted`)
	}
	c := &CLI{Getenv: func(k string) string { return map[string]string{EnvNoColor: "1"}[k] }}
	for _, tc := range []struct {
		mode          string
		tty           bool
		render, color bool
	}{
		{"auto", true, true, false}, {"auto", false, false, false},
		{"always", false, true, false}, {"never", true, false, false},
	} {
		r, col := c.markdown(cliConfig{render: renderFlag{tc.mode}}, tc.tty)
		if r != tc.render || col != tc.color {
			t.Errorf("%s tty=%v: render %v colour %v", tc.mode, tc.tty, r, col)
		}
	}
	if r, col := (&CLI{}).markdown(cliConfig{}, true); !r || !col {
		t.Errorf("zero config on a terminal: render %v colour %v", r, col)
	}
}

// TestRendererEventsGolden renders a reply's events on one terminal
// (answer, status and errors on the same stream, as a person sees them),
// in Chinese and in English, with colour and without: the answer's tail
// is printed before the error that ends it.
func TestRendererEventsGolden(t *testing.T) {
	replies := map[string][]client.Event{
		"zh": {
			{Type: client.EventDelta, Text: "## 检查结果\n\n磁盘 `/dev/sda1` 使用率 **9"},
			{Type: client.EventStatus, Status: nplt.Status{Type: api.StatusToolCall, Content: "disk_usage(path=/data)"}},
			{Type: client.EventDelta, Text: "1%**，\n| 分区 | 使用率 |\n|---|--:|\n| /data | 91% |\n未完"},
			{Type: client.EventError, Error: &client.ServerError{Code: api.CodeForbidden, Message: "工具执行失败：路径不在允许的范围内"}},
			{Type: client.EventEnd},
		},
		"en": {
			{Type: client.EventDelta, Text: "# Result\n\n- disk *almost* full\n```sh\ndf -h"},
			{Type: client.EventStatus, Status: nplt.Status{Type: api.StatusThinking, Content: "checking"}},
			{Type: client.EventDelta, Text: "\n"},
			{Type: client.EventError, Error: &client.ServerError{Code: api.CodeForbidden, Message: "the tool failed: the path is outside the allowed roots"}},
			{Type: client.EventEnd},
		},
	}
	for lang, events := range replies {
		for _, colour := range []bool{true, false} {
			var b strings.Builder
			tr := &textRenderer{out: &b, outTTY: true, status: &b, statTTY: colour, errw: &b, errTTY: colour,
				md: newMDRenderer(&b, colour)}
			for _, ev := range events {
				tr.handle(ev)
			}
			name := "events_" + lang + map[bool]string{true: ".color", false: ".plain"}[colour]
			igolden.Check(t, filepath.Join("testdata", "md", name+".golden"), b.String(), *update)
		}
	}
}

// TestMarkdownProgress: the start of a long paragraph line is shown
// before its newline, up to its first inline marker; lines that may be
// something else wait.
func TestMarkdownProgress(t *testing.T) {
	var b strings.Builder
	m := newMDRenderer(&b, true)
	m.Write("磁盘使用率很高，建议")
	if got := b.String(); got != "磁盘使用率很高，建议" {
		t.Errorf("shown %q", got)
	}
	m.Write("清理 **/var")
	if got := b.String(); got != "磁盘使用率很高，建议清理 " {
		t.Errorf("shown up to the marker: %q", got)
	}
	m.Write("/log** 目录。\n- item")
	if got, want := b.String(), "磁盘使用率很高，建议清理 \x1b[1m/var/log\x1b[0m 目录。\n"; got != want {
		t.Errorf("after the line %q, want %q", got, want)
	}
	m.Flush()
	if !strings.HasSuffix(b.String(), "• item\n") {
		t.Errorf("list item %q", b.String())
	}

	b.Reset()
	m = newMDRenderer(&b, false)
	m.Write("部分\xe7\xa3") // a delta ending inside a rune
	if b.String() != "部分" {
		t.Errorf("cut rune shown: %q", b.String())
	}
	m.interrupt()
	m.Write("\x81\n")
	if b.String() != "部分\n磁\n" {
		t.Errorf("after interrupt %q", b.String())
	}

	b.Reset()
	m = newMDRenderer(&b, false)
	m.Write("`" + strings.Repeat("字", maxTail/3+10))
	if n := strings.Count(b.String(), "\n"); n != 1 {
		t.Errorf("an over-long line is printed once it passes maxTail: %d lines", n)
	}
	m.Flush()
	if got := strings.Count(b.String(), "字"); got != maxTail/3+10 {
		t.Errorf("%d runes printed", got)
	}
}

// FuzzMarkdown renders any input whole and cut in two (and in 3-byte
// deltas): it must not panic, the cuts must not change the output, and
// without colour no escape code appears that the input did not have.
func FuzzMarkdown(f *testing.F) {
	for _, name := range mdCases {
		b, err := os.ReadFile(filepath.Join("testdata", "md", name+".md"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), uint16(len(b)/2))
	}
	f.Add("**a [b](c `d` _e_ ~~f~~ <http://g>", uint16(3))
	f.Fuzz(func(t *testing.T, src string, cut uint16) {
		at := int(cut) % (len(src) + 1)
		want := renderMD(true, src)
		if got := renderMD(true, src[:at], src[at:]); got != want {
			t.Fatalf("cut at %d:\n%q\nwant\n%q", at, got, want)
		}
		var deltas []string
		for i := 0; i < len(src); i += 3 {
			deltas = append(deltas, src[i:min(i+3, len(src))])
		}
		if got := renderMD(true, deltas...); got != want {
			t.Fatalf("3-byte deltas:\n%q\nwant\n%q", got, want)
		}
		if plain := renderMD(false, src); strings.Contains(plain, "\x1b") && !strings.Contains(src, "\x1b") {
			t.Fatalf("escape code without colour: %q", plain)
		}
	})
}
