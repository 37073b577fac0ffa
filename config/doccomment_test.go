package config

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocCommentsNameTheirDecl: every exported type and function of the
// package has a doc comment, and it starts with the name it documents, so
// a comment that drifted onto its neighbour (Search's onto
// DefaultDocRoots) is caught.
func TestDocCommentsNameTheirDecl(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		check := func(ident string, doc *ast.CommentGroup) {
			if !ast.IsExported(ident) {
				return
			}
			first := strings.SplitN(doc.Text(), "\n", 2)[0]
			words := strings.Fields(first)
			if len(words) > 1 && (words[0] == "A" || words[0] == "An") {
				words = words[1:]
			}
			if len(words) == 0 || words[0] != ident {
				t.Errorf("%s: the doc comment of %s starts %q, not with its name", name, ident, first)
			}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					check(d.Name.Name, d.Doc)
				}
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					doc := ts.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					check(ts.Name.Name, doc)
				}
			}
		}
	}
}
