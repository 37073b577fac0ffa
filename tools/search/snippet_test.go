package search

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSnippet(t *testing.T) {
	for _, c := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"fits", "short text", 20, "short text"},
		{"latin at a space", "the quick brown fox jumps over", 17, "the quick brown …"},
		{"not mid word", "alpha beta gammadelta", 14, "alpha beta …"},
		{"at a line end", "line one here\nline two is long", 20, "line one here …"},
		{"cjk at a character", "数据库连接池配置说明文档", 5, "数据库连接 …"},
		{"cjk mixed", "请检查 mysql 配置文件中的端口", 12, "请检查 mysql 配置 …"},
		{"long word hard cut", strings.Repeat("a", 30), 10, strings.Repeat("a", 10) + " …"},
		{"closes a fence", "Run:\n```sh\nsystemctl restart nginx\nsystemctl status nginx\n```", 30, "Run:\n```sh\nsystemctl restart\n```\n…"},
		{"closes a tilde fence", "~~~\nabc def ghi\njkl mno\n~~~", 14, "~~~\nabc def\n~~~\n…"},
		{"closes inline code", "use `systemctl restart nginx` now", 22, "use `systemctl restart` …"},
		{"closes double backticks", "see ``a ` b c d e`` end", 14, "see ``a ` b c`` …"},
		{"drops a dangling backtick", "run the `cmd` and `other", 19, "run the `cmd` and …"},
		{"closes bold", "this is **very important text** ok", 24, "this is **very important** …"},
		{"drops a dangling bold", "note: ** bold here**", 8, "note: …"},
		{"keeps list numbers", "3. third step\n4. fourth step\n5. fifth step", 30, "3. third step\n4. fourth step …"},
		{"escaped backtick is text", "a \\` b c d e f g", 9, "a \\` b c …"},
		{"code span closed earlier", "`a` and **b** then more words", 20, "`a` and **b** then …"},
		{"zero budget", "abc", 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Snippet(c.in, c.n); got != c.want {
				t.Errorf("Snippet(%q, %d) =\n%q\nwant\n%q", c.in, c.n, got, c.want)
			}
		})
	}
}

// FuzzSnippet checks a snippet is valid UTF-8, starts with a prefix of
// the input no longer than the budget, and leaves no construct open.
func FuzzSnippet(f *testing.F) {
	for _, s := range []string{"", "abc def", "```go\nx := 1\n", "**a `b", "数据库 `端口` **重要**", "1. a\n2. b", "``a`` ` **", "\xff\xfe abc"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || n > 1000 || !utf8.ValidString(s) {
			return
		}
		got := Snippet(s, n)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8: %q", got)
		}
		if got == s {
			return
		}
		if n == 0 {
			if got != "" {
				t.Fatalf("n=0: %q", got)
			}
			return
		}
		body := cutBody(s, n)
		if !strings.HasPrefix(s, body) || utf8.RuneCountInString(body) > n {
			t.Fatalf("body %q is not a prefix of at most %d runes", body, n)
		}
		closed := strings.TrimSuffix(strings.TrimSuffix(got, " "+ellipsis), "\n"+ellipsis)
		if closed == got || closed != body+closers(body) {
			t.Fatalf("snippet %q is not body %q, its closers and the ellipsis", got, body)
		}
		if c := closers(closed); c != "" {
			t.Fatalf("closed snippet %q still leaves %q open", got, c)
		}
	})
}
