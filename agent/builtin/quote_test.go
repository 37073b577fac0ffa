package builtin

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"opsassist/tools/search"
)

// TestQuoteSnippetExamples: the constructs a new-user walk-through saw
// break the answer.
func TestQuoteSnippetExamples(t *testing.T) {
	for in, want := range map[string]string{
		"| key | default |\n|---|---|\n| `search.min_score` | 0.07 |": "search.min_score · 0.07",
		"## Where the files live\nUploads go to `data/`":              "Where the files live Uploads go to data/",
		"Run `opsassist ask …":                                        "Run opsassist ask …",
		"See [docs/mcp.md](docs/mcp.md#configuration)) for more":      "See docs/mcp.md for more",
		"See [docs/mcp.md](docs/mcp.md#conf":                          "See docs/mcp.md",
		"```json\n{\"a\": 1,\n \"b\": [2]}\n```":                      `{"a": 1, "b": [2]}`,
		"- first\n- second":                                           "first second",
		"Run `opsassist upload <FILE>`":                               "Run opsassist upload <FILE>",
		"> quoted **bold":                                             "quoted bold",
	} {
		if got := quoteSnippet(in); got != want {
			t.Errorf("quoteSnippet(%q) = %q, want %q", in, got, want)
		}
	}
}

// blockShape is a simple Markdown block checker: one kind per line, and
// whether an inline code span is left open at the end.
func blockShape(md string) []string {
	var shape []string
	fence := false
	for _, line := range strings.Split(md, "\n") {
		l := strings.TrimSpace(line)
		kind := "text"
		switch {
		case strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~"):
			fence = !fence
			kind = "fence"
		case fence:
			kind = "code"
		case l == "":
			kind = "blank"
		case strings.HasPrefix(l, "#"):
			kind = "heading"
		case strings.HasPrefix(l, ">"):
			kind = "quote"
		case strings.HasPrefix(l, "|") || strings.Count(l, "|") >= 2:
			kind = "table"
		case regexp.MustCompile(`^([-*+]|\d+[.)])(\s|$)`).MatchString(l) && line == l:
			kind = "item"
		case regexp.MustCompile(`^([-*+]|\d+[.)])(\s|$)`).MatchString(l):
			kind = "nested-item"
		}
		if !fence && strings.Count(l, "`")%2 == 1 {
			kind += "+open-code"
		}
		if !fence && (regexp.MustCompile(`\[[^\]]*\]\([^)]*$`).MatchString(l) || strings.Count(l, "**")%2 == 1) {
			kind += "+open-inline"
		}
		shape = append(shape, kind)
	}
	return shape
}

// TestSnippetsKeepTheAnswerShape is the property: any snippet of any
// document in docs/ and the eval corpus, embedded in a search answer,
// renders with the same block structure as the answer without it.
func TestSnippetsKeepTheAnswerShape(t *testing.T) {
	var files []string
	for _, root := range []string{"../../docs", "../../testdata/evals/corpus", "../../README.md"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 10 {
		t.Fatalf("only %d files found", len(files))
	}
	answerFor := func(chunk string) string {
		raw, _ := json.Marshal(map[string]any{"total": 2, "results": []map[string]any{
			{"filename": "a.md", "filepath": "/a.md", "similarity": 0.5, "chunk": chunk, "position": "1"},
			{"filename": "b.md", "filepath": "/b.md", "similarity": 0.4, "chunk": "plain", "position": "2"},
		}})
		return describeSearch(false, raw)
	}
	wantAll := strings.Join(blockShape(answerFor("plain")), ",")
	// A snippet that quotes to nothing leaves its hit out: one item.
	wantFor := func(chunk string) string {
		if quotesNothing(quoteSnippet(chunk)) {
			return "text,item,text"
		}
		return wantAll
	}
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || !utf8.Valid(b) {
			continue
		}
		runes := []rune(string(b))
		for off := 0; off < len(runes); off += 97 { // every 97th rune: starts inside lines, rows and spans
			chunk := search.Snippet(string(runes[off:]), 200)
			// It never starts mid-sentence unmarked: a lower-case start
			// is a block's (list item, heading, quote) or marked "…".
			if q := quoteSnippet(chunk); startsLower(q) && !opensBlock(chunk, q) {
				t.Fatalf("%s@%d: quoted %q starts mid-sentence\nsnippet %q", f, off, q, chunk)
			}
			got := strings.Join(blockShape(answerFor(chunk)), ",")
			if want := wantFor(chunk); got != want {
				t.Fatalf("%s@%d: shape %s, want %s\nsnippet %q\nanswer %q", f, off, got, want, chunk, answerFor(chunk))
			}
			checked++
		}
	}
	// Hand-made snippets the corpus lacks: empty and repeated list
	// marks, fences longer than three, an open link.
	for _, chunk := range []string{"1. ", "1.", "- 1. x", "1. 2. 3.", "````\ncode\n````", "~~~~", "[a](b", "> > >", "#", "| a |\n|---|\n| b |"} {
		if got, want := strings.Join(blockShape(answerFor(chunk)), ","), wantFor(chunk); got != want {
			t.Errorf("snippet %q: shape %s, want %s\nanswer %q", chunk, got, want, answerFor(chunk))
		}
		checked++
	}
	t.Logf("%d snippets checked", checked)
}

// startsLower reports whether s starts with a lower-case letter.
func startsLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}

// opensBlock reports whether quoted's first word is the start of one of
// chunk's block lines (heading, list item, quote, table row, fence),
// or a code line right after a fence line, whose text may begin in
// lower case.
func opensBlock(chunk, quoted string) bool {
	w := regexp.MustCompile(`^[\pL\pN_]*`).FindString(quoted) // its first word
	block := regexp.MustCompile("^(#{1,6}\\s+|[-*+]\\s+|\\d{1,9}[.)]\\s*|>\\s*|\\|\\s*`?|```|~~~)")
	fence := false
	for _, l := range strings.Split(chunk, "\n") {
		l = strings.TrimSpace(l)
		if fence && strings.HasPrefix(l, w) {
			return true // a code line
		}
		fence = strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~")
		if m := block.FindString(l); m != "" && strings.HasPrefix(strings.TrimLeft(l[len(m):], "`*_[-#>+| "), w) {
			return true
		}
	}
	return false
}

// TestQuoteSnippetSeparatorResidue: a table's separator row cut by the
// snippet ("|------|------|-…") is dropped, not shown as dashes.
func TestQuoteSnippetSeparatorResidue(t *testing.T) {
	for in, want := range map[string]string{
		"| Path | What |\n|------|------| …": "…", // a header alone says nothing
		"| Path | What |\n|---|:--:|":        "…",
		"Path | What\n------ | ------ | …":   "…",
		"Intro\n---\nmore":                   "Intro more",
		"A - b -- c":                         "A - b -- c",
	} {
		if got := quoteSnippet(in); got != want {
			t.Errorf("quoteSnippet(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestQuoteSnippetStartsAtASentence: a snippet that starts inside a
// sentence is marked "…" at the front, and a table's header row goes
// with its separator row (the walk-through saw "and where the next
// features go: docs/architecture.md. Path · What …"); a line that starts
// a sentence or a block is left as it is.
func TestQuoteSnippetStartsAtASentence(t *testing.T) {
	for in, want := range map[string]string{
		"and where the next features go: docs/architecture.md.\n\n| Path | What |\n|------|------|\n| chat/ | the core |": "… and where the next features go: docs/architecture.md. chat/ · the core",
		"ere the next features go.":            "… ere the next features go.",
		", and more":                           "… , and more",
		"The chat core.\n| a | b |\n|---|---|": "The chat core.",
		"- lower-case item":                    "lower-case item",
		"## lower-case heading":                "lower-case heading",
		"| path | what |\n| chat/ | core |":    "path · what chat/ · core", // no separator: no header
		"… already marked":                     "… already marked",
		"配置文件在 data/ 下":                        "配置文件在 data/ 下",
	} {
		if got := quoteSnippet(in); got != want {
			t.Errorf("quoteSnippet(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSearchLeavesOutEmptySnippets: a hit whose snippet quotes to nothing
// is left out (it was shown as "…"); when all are, they are listed bare.
func TestSearchLeavesOutEmptySnippets(t *testing.T) {
	raw := []byte(`{"total":2,"results":[{"filename":"a.md","similarity":0.5,"chunk":"|---|---|","position":"1","strong":true},{"filename":"b.md","similarity":0.4,"chunk":"Web client","position":"2","strong":true}]}`)
	got := describeSearch(true, raw)
	if !strings.HasPrefix(got, "找到 1 条相关内容：") || strings.Contains(got, "a.md") || strings.Contains(got, "…") || !strings.Contains(got, "b.md") {
		t.Errorf("got %q", got)
	}
	raw = []byte(`{"total":1,"results":[{"filename":"a.md","similarity":0.5,"chunk":"` + "```" + `","position":"1","strong":true}]}`)
	if got := describeSearch(false, raw); got != "Found 1 relevant passage:\n1. a.md (1, similarity 0.50)" {
		t.Errorf("bare: %q", got)
	}
}

// TestWeakHitsNotPresentedAsFound: hits none of which is strong (index
// .Hit.Strong: under index.DefaultStrongScore and not named) are listed
// as possibly related, not as found — the walk-through saw passages at
// similarity 0.14–0.23 presented as "找到 3 条相关内容".
func TestWeakHitsNotPresentedAsFound(t *testing.T) {
	raw := []byte(`{"total":2,"results":[{"filename":"a.md","similarity":0.23,"chunk":"database settings","position":"1"},{"filename":"b.md","similarity":0.14,"chunk":"the db","position":"2"}]}`)
	for zh, want := range map[bool]string{true: "没有找到明确相关的内容；以下 2 条可能有关", false: "Nothing clearly relevant was found; 2 passages that may be related"} {
		got := describeSearch(zh, raw)
		if !strings.HasPrefix(got, want) || strings.Contains(got, "找到 2 条相关内容") || strings.Contains(got, "Found 2 relevant") {
			t.Errorf("zh %v: %q", zh, got)
		}
	}
	raw = []byte(`{"total":2,"results":[{"filename":"a.md","similarity":0.45,"chunk":"database settings","position":"1","strong":true},{"filename":"b.md","similarity":0.14,"chunk":"the db","position":"2"}]}`)
	if got := describeSearch(false, raw); !strings.HasPrefix(got, "Found 2 relevant passages:") {
		t.Errorf("a strong hit: %q", got)
	}
}
