package builtin

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// foldSlow is fold as first written, rune by rune with
// unicode.SimpleFold: the reference the fast paths must equal.
func foldSlow(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z':
			b.WriteByte(byte(r - 'a' + 'A'))
		case r < utf8.RuneSelf:
			b.WriteByte(byte(r))
		default:
			least := r
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				least = min(least, f)
			}
			b.WriteRune(least)
		}
	}
	return b.String()
}

// TestFoldAsSimpleFold: every rune up to U+10FFFF, invalid UTF-8 and
// long texts, memoised or not, fold as unicode.SimpleFold's orbits do.
func TestFoldAsSimpleFold(t *testing.T) {
	var all strings.Builder
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if utf8.ValidRune(r) {
			all.WriteRune(r)
		}
	}
	texts := []string{"", "abcXYZ", "\xff\xfe", "K\u212aſs", all.String(), strings.Repeat("查看一下磁盘 memroy ", 100)}
	for _, s := range texts {
		want := foldSlow(s)
		if got := foldRunes(s); got != want {
			t.Errorf("foldRunes(%.40q) = %.40q, want %.40q", s, got, want)
		}
		for range 2 { // the second time from the memo
			if got := fold(s); got != want {
				t.Errorf("fold(%.40q) = %.40q, want %.40q", s, got, want)
			}
		}
	}
}

// FuzzFold: any string folds as foldSlow does.
func FuzzFold(f *testing.F) {
	f.Add("Kelvin \u212a ſ 查看")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := fold(s), foldSlow(s); got != want {
			t.Errorf("fold(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestSpacedTailKeepsMatch: reSpacedName finds in spacedTail(rest) what
// it finds in rest, on rests built from names, dots, spaces, Chinese,
// marks and invalid UTF-8.
func TestSpacedTailKeepsMatch(t *testing.T) {
	parts := []string{" ", "  ", "2026", ".xlsx", ".", "报表", "a_b-c", "，", "。", "?", "\n", "\xff", "\"", "ŝ", "٣", "$", "/x"}
	rests := []string{"", " ", " a.b", " a.b ", " 2026.xlsx是", " 2026.xlsx", " a.b.c\xff"}
	for i := range 20000 {
		var b strings.Builder
		for j := 0; j < 1+i%9; j++ {
			b.WriteString(parts[(i*7+j*13+i/9*j)%len(parts)])
		}
		rests = append(rests, b.String(), " "+b.String())
	}
	for _, rest := range rests {
		got, want := reSpacedName.FindStringSubmatch(spacedTail(rest)), reSpacedName.load().re.FindStringSubmatch(rest)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || (got == nil) != (want == nil) {
			t.Errorf("%q: %q from its tail, %q from all of it", rest, got, want)
		}
	}
}

// FuzzSpacedTail: on any rest, reSpacedName matches its tail as it
// matches the rest.
func FuzzSpacedTail(f *testing.F) {
	f.Add(" 2026.xlsx 的内容")
	f.Fuzz(func(t *testing.T, rest string) {
		got, want := reSpacedName.FindStringSubmatch(spacedTail(rest)), reSpacedName.load().re.FindStringSubmatch(rest)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || (got == nil) != (want == nil) {
			t.Errorf("%q: %q from its tail, %q from all of it", rest, got, want)
		}
	})
}

// trimTrailWhole is trimTrail as first written, reTrailFiller run over
// the whole line: the reference for trailStart.
func trimTrailWhole(s string) string {
	return trimSentenceEnd(reTrailFiller.load().re.ReplaceAllString(trimSentenceEnd(s, " ?!,"), ""), " ?!,")
}

// TestTrimTrailOnItsEnd: trimTrail, which runs reTrailFiller on the end
// of the line only (trailStart), trims as running it on the whole line
// does, on lines of words, fillers (case changed, ſ and the Kelvin sign
// for s and k), marks, long runs of spaces and commas, Chinese and
// invalid UTF-8.
func TestTrimTrailOnItsEnd(t *testing.T) {
	parts := []string{"ls", " ", ",", "  ,  ", "?", "!", "。", "？", "！", "\t", "\n", "please", "PLEASE", "thanks", "THAN\u212a\u017f", "thank you", "on this machine", "on the server", "for me", "now", "again", "pls", "run", "查看", "\xff", "\xe3\x80", ".", "x", strings.Repeat(" ", 70), strings.Repeat(",", 40), strings.Repeat("!", 80)}
	lines := []string{"", " ", "ls -la please", "run run run now!!", "on this box"}
	for i := range 30000 {
		var b strings.Builder
		for j := 0; j < 1+i%11; j++ {
			b.WriteString(parts[(i*31+j*17+i/7*j*j)%len(parts)])
		}
		lines = append(lines, b.String())
	}
	for _, sh := range hostileShapes {
		lines = append(lines, sh.make(4096), sh.make(4096)+" please!!", sh.make(300)+strings.Repeat(" ,", 100)+"thank you。")
	}
	for _, l := range lines {
		if got, want := trimTrail(l), trimTrailWhole(l); got != want {
			t.Errorf("trimTrail(%.80q) = %.80q, want %.80q", l, got, want)
		}
	}
}

// FuzzTrimTrail: on any line, trimTrail trims as trimTrailWhole does.
func FuzzTrimTrail(f *testing.F) {
	f.Add("ls -la , please ！")
	f.Fuzz(func(t *testing.T, l string) {
		if got, want := trimTrail(l), trimTrailWhole(l); got != want {
			t.Errorf("trimTrail(%q) = %q, want %q", l, got, want)
		}
	})
}
