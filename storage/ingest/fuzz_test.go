package ingest

import (
	"testing"
	"unicode/utf8"
)

// FuzzChunk checks that Chunk never panics and that every piece is
// non-blank, valid UTF-8 and at most size runes.
func FuzzChunk(f *testing.F) {
	f.Add("## 标题\nline\n", true, 10, 2)
	f.Add("a\r\nb\n\n\xff\xfe长行长行长行长行", false, 3, 5)
	f.Add("", false, 0, 0)
	f.Fuzz(func(t *testing.T, text string, markdown bool, size, overlap int) {
		size %= 2048
		overlap %= 2048
		doc := Doc{Kind: KindText, Text: text}
		if markdown {
			doc.Kind = KindMarkdown
		}
		limit := size
		if limit <= 0 {
			limit = DefaultChunkSize
		}
		for i, p := range Chunk(doc, size, overlap) {
			if !utf8.ValidString(p.Text) || !utf8.ValidString(p.Position) {
				t.Fatalf("piece %d not valid UTF-8: %q", i, p.Text)
			}
			if n := utf8.RuneCountInString(p.Text); n == 0 || n > limit {
				t.Fatalf("piece %d has %d runes, limit %d", i, n, limit)
			}
			if p.StartLine < 1 || p.EndLine < p.StartLine || p.Position == "" {
				t.Fatalf("piece %d: %+v", i, p)
			}
		}
	})
}
