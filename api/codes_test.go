package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// protocolDocs maps each protocol named in the codes' comments to the
// document whose error-code table lists its codes.
var protocolDocs = map[string]string{
	"NPLT": "../docs/protocol/nplt.md",
	"HTTP": "../docs/protocol/http.md",
	"RDT":  "../docs/protocol/rdt.md",
}

// TestCodesDocumented checks that each protocol's error-code table in
// docs/protocol lists exactly the codes whose comment in codes.go names
// that protocol, so a code cannot be added, dropped or moved to another
// transport without its documentation.
func TestCodesDocumented(t *testing.T) {
	declared := declaredCodes(t)
	if len(declared) != len(protocolDocs) {
		t.Fatalf("codes.go names protocols %v, want %v", slices.Sorted(maps.Keys(declared)), slices.Sorted(maps.Keys(protocolDocs)))
	}
	for proto, doc := range protocolDocs {
		documented := documentedCodes(t, doc)
		for code := range declared[proto] {
			if !documented[code] {
				t.Errorf("%s: code %q (%s in codes.go) is missing from the error-code table", doc, code, proto)
			}
		}
		for code := range documented {
			if !declared[proto][code] {
				t.Errorf("%s: the error-code table lists %q, which codes.go does not give to %s", doc, code, proto)
			}
		}
	}
}

// protocolsRE finds the protocols in a code's comment: "(NPLT, HTTP)".
var protocolsRE = regexp.MustCompile(`^Code\w+ \(([A-Z]+(?:, [A-Z]+)*)\)`)

// declaredCodes parses codes.go and returns, per protocol, the codes
// whose comment names it. Every Code constant must name at least one.
func declaredCodes(t *testing.T) map[string]map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			name := vs.Names[0].Name
			if !strings.HasPrefix(name, "Code") {
				continue
			}
			lit, ok := vs.Values[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s is not a string literal", name)
				continue
			}
			code, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			m := protocolsRE.FindStringSubmatch(vs.Doc.Text())
			if m == nil {
				t.Errorf("%s's comment does not start %q", name, name+" (PROTOCOL, …)")
				continue
			}
			for _, p := range strings.Split(m[1], ", ") {
				if out[p] == nil {
					out[p] = map[string]bool{}
				}
				out[p][code] = true
			}
		}
	}
	return out
}

// codeCellRE is a table cell holding one code: `snake_case`.
var codeCellRE = regexp.MustCompile("^`([a-z_]+)`$")

// documentedCodes returns the codes of the first table after the
// document's error-code heading: in each row, the first cell that is one
// code in backquotes.
func documentedCodes(t *testing.T, path string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	start := slices.IndexFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, "#") && (strings.HasSuffix(l, " Error codes") || strings.HasSuffix(l, " Errors"))
	})
	if start < 0 {
		t.Fatalf("%s: no error-code heading", path)
	}
	codes := map[string]bool{}
	inTable := false
	for _, l := range lines[start+1:] {
		if !strings.HasPrefix(l, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		for _, cell := range strings.Split(strings.Trim(l, "|"), "|") {
			if m := codeCellRE.FindStringSubmatch(strings.TrimSpace(cell)); m != nil {
				codes[m[1]] = true
				break
			}
		}
	}
	if len(codes) == 0 {
		t.Fatalf("%s: no error-code table after the heading", path)
	}
	return codes
}

// TestCodesListed: Codes lists every Code constant of codes.go, once.
func TestCodesListed(t *testing.T) {
	want := map[string]bool{}
	for _, codes := range declaredCodes(t) {
		for c := range codes {
			want[c] = true
		}
	}
	got := map[string]bool{}
	for _, c := range Codes() {
		if got[c] {
			t.Errorf("Codes lists %q twice", c)
		}
		got[c] = true
	}
	if !maps.Equal(got, want) {
		t.Errorf("Codes() = %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
}
