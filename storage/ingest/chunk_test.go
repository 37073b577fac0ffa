package ingest

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkChunks verifies the invariants Chunk promises for text made of
// lines, and that the chunks, minus their overlaps, rebuild the lines.
func checkChunks(t *testing.T, lines []string, pieces []Piece, size, overlap int) {
	t.Helper()
	overlap = min(overlap, size/2)
	var rebuilt []string // one entry per line, parts of split lines joined
	lastLine, lastComplete := 0, true
	for i, p := range pieces {
		n := utf8.RuneCountInString(p.Text)
		if n == 0 || n > size {
			t.Fatalf("piece %d has %d runes, size %d", i, n, size)
		}
		if want := fmt.Sprintf("line %d-%d", p.StartLine, p.EndLine); p.Position != want {
			t.Fatalf("piece %d position %q, want %q", i, p.Position, want)
		}
		pl := strings.Split(p.Text, "\n")
		// Only whitespace-only lines may fall between pieces (a blank piece
		// is dropped).
		for ; p.StartLine > lastLine+1; lastLine++ {
			if strings.TrimSpace(lines[lastLine]) != "" {
				t.Fatalf("piece %d: line %d is missing", i, lastLine+1)
			}
			rebuilt = append(rebuilt, lines[lastLine])
			lastComplete = true
		}
		if len(pl) != p.EndLine-p.StartLine+1 {
			t.Fatalf("piece %d: %d lines for %d-%d", i, len(pl), p.StartLine, p.EndLine)
		}
		// Lines the previous piece already covered are the overlap: whole
		// lines, identical, and within the overlap budget.
		skip, ovRunes := 0, 0
		cont := p.StartLine == lastLine && !lastComplete // continues a split line
		for l := p.StartLine; !cont && l <= lastLine && skip < len(pl); l++ {
			if pl[skip] != lines[l-1] {
				t.Fatalf("piece %d: overlap line %d is %q, want whole line %q", i, l, pl[skip], lines[l-1])
			}
			ovRunes += utf8.RuneCountInString(pl[skip])
			skip++
		}
		if skip > 1 && ovRunes+skip-1 > overlap || skip == 1 && ovRunes > overlap {
			t.Fatalf("piece %d overlaps by %d runes > %d", i, ovRunes, overlap)
		}
		rest := pl[skip:]
		if len(rest) == 0 {
			t.Fatalf("piece %d adds nothing", i)
		}
		if cont {
			rebuilt[len(rebuilt)-1] += rest[0]
			rest = rest[1:]
		}
		rebuilt = append(rebuilt, rest...)
		lastLine = p.EndLine
		lastComplete = rebuilt[len(rebuilt)-1] == lines[lastLine-1]
	}
	for ; lastLine < len(lines) && strings.TrimSpace(lines[lastLine]) == ""; lastLine++ {
		rebuilt = append(rebuilt, lines[lastLine])
	}
	if strings.Join(rebuilt, "\n") != strings.Join(lines, "\n") {
		t.Fatalf("rebuilt text differs:\n%q\nwant\n%q", rebuilt, lines)
	}
}

func longMixedLines() []string {
	var lines []string
	for i := range 200 {
		switch {
		case i%37 == 5:
			lines = append(lines, strings.Repeat("超长的一行日志 very long line ", 40)) // > size: split
		case i%11 == 0:
			lines = append(lines, "")
		default:
			lines = append(lines, fmt.Sprintf("第%d行：数据库 connection pool size=%d，重试 %d 次", i, i*3, i%5))
		}
	}
	return lines
}

func TestChunkInvariants(t *testing.T) {
	lines := longMixedLines()
	for _, g := range []struct{ size, overlap int }{{500, 50}, {120, 30}, {60, 200}, {40, 1}} {
		t.Run(fmt.Sprintf("%d-%d", g.size, g.overlap), func(t *testing.T) {
			pieces := Chunk(Doc{Kind: KindText, Text: strings.Join(lines, "\n") + "\n"}, g.size, g.overlap)
			if len(pieces) < 2 {
				t.Fatalf("%d pieces", len(pieces))
			}
			checkChunks(t, lines, pieces, g.size, g.overlap)
		})
	}
}

func TestChunkDefaultsAndOverlap(t *testing.T) {
	lines := make([]string, 40)
	for i := range lines {
		lines[i] = strings.Repeat("字", 19) // 19 runes + "\n" = 20 per line
	}
	pieces := Chunk(Doc{Text: strings.Join(lines, "\n")}, 0, 0)
	// 25 lines take 25*19+24 = 499 runes; the next starts 2 lines back (38 ≤ 50).
	if len(pieces) != 2 || pieces[0].EndLine != 25 || pieces[1].StartLine != 24 || pieces[1].EndLine != 40 {
		t.Fatalf("pieces %+v", pieces)
	}
	if pieces[1].Position != "line 24-40" {
		t.Fatalf("position %q", pieces[1].Position)
	}
	// Overlap is capped at size/2 and counts the "\n" between lines.
	pieces = Chunk(Doc{Text: strings.Join(lines, "\n")}, 100, 1000)
	if len(pieces) < 2 || pieces[1].StartLine != pieces[0].EndLine-1 {
		t.Fatalf("capped overlap: %+v", pieces[:2])
	}
	// A trailing line longer than overlap is not carried over.
	long := []string{strings.Repeat("a", 60), strings.Repeat("b", 60)}
	pieces = Chunk(Doc{Text: strings.Join(long, "\n")}, 100, 50)
	if len(pieces) != 2 || pieces[1].StartLine != 2 {
		t.Fatalf("pieces %+v", pieces)
	}
}

func TestChunkEmpty(t *testing.T) {
	for _, s := range []string{"", " \n\t\n", "\r\n\r\n"} {
		if p := Chunk(Doc{Text: s}, 10, 2); len(p) != 0 {
			t.Fatalf("Chunk(%q) = %+v", s, p)
		}
	}
}

func TestChunkCRLF(t *testing.T) {
	p := Chunk(Doc{Text: "a\r\nb\r\n"}, 10, 2)
	if len(p) != 1 || p[0].Text != "a\nb" || p[0].Position != "line 1-2" {
		t.Fatalf("%+v", p)
	}
}

func TestChunkMarkdownHeadings(t *testing.T) {
	md := strings.Join([]string{
		"intro line",                // 1
		"# 运维手册",                    // 2
		"概述",                        // 3
		"## 数据库配置 ##",               // 4
		"host: 10.0.0.1",            // 5
		"port: 5432",                // 6
		"```sh",                     // 7
		"# not a heading",           // 8
		"```",                       // 9
		"### Redis",                 // 10
		"maxmemory 2gb",             // 11
		"#hashtag is not a heading", // 12
	}, "\n")
	pieces := Chunk(Doc{Kind: KindMarkdown, Text: md}, 20, 1)
	want := map[int]string{1: "line 1-3", 2: "运维手册", 3: "运维手册", 4: "数据库配置", 5: "数据库配置", 8: "数据库配置", 10: "Redis", 11: "Redis", 12: "Redis"}
	seen := 0
	for _, p := range pieces {
		w, ok := want[p.StartLine]
		if !ok {
			continue
		}
		seen++
		if p.Position != w {
			t.Errorf("piece at line %d: position %q, want %q", p.StartLine, p.Position, w)
		}
	}
	if seen < 4 {
		t.Fatalf("only %d pieces checked: %+v", seen, pieces)
	}
	// The same text as plain text has line positions.
	for _, p := range Chunk(Doc{Kind: KindText, Text: md}, 20, 1) {
		if !strings.HasPrefix(p.Position, "line ") {
			t.Fatalf("text position %q", p.Position)
		}
	}
}

func TestAtxHeading(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"## 数据库配置", "数据库配置", true},
		{"# Title #", "Title", true},
		{"   ### Deep", "Deep", true},
		{"    # code", "", false},
		{"#tag", "", false},
		{"####### seven", "", false},
		{"#", "", false},
		{"## C#", "C#", true},
	}
	for _, tt := range tests {
		got, ok := atxHeading(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("atxHeading(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
