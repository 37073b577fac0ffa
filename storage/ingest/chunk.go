package ingest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Default chunk geometry, in runes.
const (
	DefaultChunkSize    = 500
	DefaultChunkOverlap = 50
)

// Piece is one chunk of a document's text.
type Piece struct {
	// Text is the chunk: whole lines joined by "\n", or one part of a
	// line longer than the chunk size.
	Text string
	// Position is the nearest preceding Markdown heading's text, or
	// "line a-b".
	Position string
	// StartLine and EndLine are the 1-based, inclusive lines covered.
	StartLine, EndLine int
}

// unit is a line, or a part of a line longer than the chunk size.
type unit struct {
	text  string
	line  int  // 1-based
	runes int  // rune count of text
	part  bool // a part of a split line
	cont  bool // continues the previous unit's line: joined without "\n"
}

// Chunk splits doc.Text into pieces of at most size runes (500 when
// size ≤ 0) cut on line boundaries. A line longer than size is split on
// rune boundaries. Each piece after the first starts with the previous
// piece's trailing whole lines, up to overlap runes of them counting the
// "\n" between them (50 when overlap ≤ 0, at most size/2), but at least
// the last line if it alone is no longer than overlap. Whitespace-only pieces are dropped. "\r\n" counts as a
// line end and invalid UTF-8 becomes U+FFFD.
func Chunk(doc Doc, size, overlap int) []Piece {
	if size <= 0 {
		size = DefaultChunkSize
	}
	if overlap <= 0 {
		overlap = DefaultChunkOverlap
	}
	overlap = min(overlap, size/2) // every piece advances by about half
	text := strings.ToValidUTF8(doc.Text, "\uFFFD")
	if strings.TrimSpace(text) == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var headings []string
	if doc.Kind == KindMarkdown {
		headings = sectionHeadings(lines)
	}
	units := splitUnits(lines, size)

	var pieces []Piece
	for start := 0; start < len(units); {
		end, n := start, 0
		for end < len(units) {
			add := units[end].runes
			if end > start && !units[end].cont {
				add++
			}
			if end > start && n+add > size {
				break
			}
			n += add
			end++
		}
		if p, ok := makePiece(units[start:end], headings); ok {
			pieces = append(pieces, p)
		}
		if end == len(units) {
			break
		}
		start = overlapStart(units, start, end, size, overlap)
	}
	return pieces
}

// overlapStart returns where the chunk after units[start:end] begins: as
// many trailing whole lines of it as fit in overlap runes with the "\n"
// between them, fewer if the next unit would not fit after them, and
// always past start.
func overlapStart(units []unit, start, end, size, overlap int) int {
	ov, tot := end, 0 // tot counts each overlap line and the "\n" after it
	for ov-1 > start && !units[ov-1].part && tot+units[ov-1].runes <= overlap {
		tot += units[ov-1].runes + 1
		ov--
	}
	// The overlap and the next unit must fit in one piece.
	for ov < end && tot+units[end].runes > size {
		tot -= units[ov].runes + 1
		ov++
	}
	return ov
}

// makePiece joins units into a Piece; ok is false if it is blank.
func makePiece(us []unit, headings []string) (Piece, bool) {
	var b strings.Builder
	for i, u := range us {
		if i > 0 && !u.cont {
			b.WriteByte('\n')
		}
		b.WriteString(u.text)
	}
	if strings.TrimSpace(b.String()) == "" {
		return Piece{}, false
	}
	p := Piece{Text: b.String(), StartLine: us[0].line, EndLine: us[len(us)-1].line}
	if headings != nil && headings[p.StartLine-1] != "" {
		p.Position = headings[p.StartLine-1]
	} else {
		p.Position = fmt.Sprintf("line %d-%d", p.StartLine, p.EndLine)
	}
	return p, true
}

// splitUnits turns lines into units of at most size runes, dropping a
// trailing "\r" from each line.
func splitUnits(lines []string, size int) []unit {
	units := make([]unit, 0, len(lines))
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		n := utf8.RuneCountInString(l)
		if n <= size {
			units = append(units, unit{text: l, line: i + 1, runes: n})
			continue
		}
		for first := true; l != ""; first = false {
			cut, k := 0, 0
			for k < size && cut < len(l) {
				_, w := utf8.DecodeRuneInString(l[cut:])
				cut += w
				k++
			}
			units = append(units, unit{text: l[:cut], line: i + 1, runes: k, part: true, cont: !first})
			l = l[cut:]
		}
	}
	return units
}
