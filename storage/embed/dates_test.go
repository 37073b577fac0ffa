package embed

import (
	"slices"
	"strings"
	"testing"
)

func BenchmarkDateTokens(b *testing.B) {
	text := strings.Repeat("server 10.0.0.1 port 5432 数据库 backup at 02:00 ", 20) + " 2024-06-17"
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		DateTokens(text)
	}
}

func TestDateTokens(t *testing.T) {
	for in, want := range map[string][]string{
		"值班交接-20240617.md":                  {"date0617"},
		"on June 17th and 2024-06-18":       {"date0618", "date0617"},
		"6月17日下午":                           {"date0617"},
		"6 月 5 号":                           {"date0605"},
		"17 Jun 2024":                       {"date0617"},
		"2024/6/1 and 2024.12.31":           {"date0601", "date1231"},
		"version 1.20.3, port 20240, 13月1日": nil,
		"may I ask":                         nil,
	} {
		if got := DateTokens(in); !slices.Equal(got, want) {
			t.Errorf("DateTokens(%q) = %v, want %v", in, got, want)
		}
	}
}
