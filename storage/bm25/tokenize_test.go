package bm25

import (
	"slices"
	"testing"

	"golang.org/x/text/unicode/norm"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"punctuation only", " ,.!? ", nil},
		{"latin lower", "Hello, World 42", []string{"hello", "world", "42"}},
		{"nfkc fullwidth", "ＡＢＣ１２", []string{"abc12"}},
		{"dotted file", "edit config.yaml.", []string{"edit", "config.yaml", "config", "yaml"}},
		{"version", "v1.2.3", []string{"v1.2.3", "v1", "2", "3"}},
		{"separators", "foo_bar-baz/qux", []string{"foo", "bar", "baz", "qux"}},
		{"double dot", "a..b", []string{"a", "b"}},
		{"cjk bigrams", "数据库端口", []string{"数据", "据库", "库端", "端口"}},
		{"cjk single", "a 库 b", []string{"a", "库", "b"}},
		{"mixed", "端口5432是", []string{"端口", "5432", "是"}},
		{"kana", "データ", []string{"デー", "ータ"}},
		{"camel", "readinessProbe", []string{"readinessprobe", "readiness", "probe"}},
		{"acronym", "HTTPServer x", []string{"httpserver", "http", "server", "x"}},
		{"all caps", "MAX", []string{"max"}},
		{"plural", "binlogs errors status", []string{"binlogs", "binlog", "errors", "error", "status"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Tokenize(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzTokenize checks that the fast byte-offset tokenizer agrees with the
// rune-by-rune one on any input.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"readinessProbe config.yaml 数据库端口5432", "HTTPServer v1.2.3 データ", "ＡＢＣ a..b", "İstanbul KELVİN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := norm.NFKC.String(s)
		if got, want := Tokenize(s), tokenizeRunes(n); !slices.Equal(got, want) {
			t.Fatalf("Tokenize(%q) = %q, rune path %q", s, got, want)
		}
	})
}
