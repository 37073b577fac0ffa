package builtin

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"opsassist/tools/command"
)

// allRules returns every rule of the package, compiled afresh:
// one for each compile call with a constant pattern in its source, and
// the rules built from the command tiers, for the default tiers.
func allRules(t *testing.T) []*rx {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var rules []*rx
	dynamic := 0
	fset := token.NewFileSet()
	var parsed []*ast.File
	consts := map[string]ast.Expr{} // the package's string constants, which patterns are built from
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, sp := range g.Specs {
					if vs := sp.(*ast.ValueSpec); len(vs.Names) == len(vs.Values) {
						for i, n := range vs.Names {
							consts[n.Name] = vs.Values[i]
						}
					}
				}
			}
		}
	}
	constString := func(e ast.Expr) (string, bool) { return constStringOf(e, consts) }
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "compile" {
				return true
			}
			if pattern, ok := constString(call.Args[0]); ok {
				rules = append(rules, compile(pattern))
			} else {
				dynamic++
			}
			return true
		})
	}
	// The rules built from configuration, which the scan cannot evaluate
	// (patterns built from the package's constants, such as sudo.go's
	// sudoLead or restart.go's restart words, are evaluated).
	built := []*rx{compile(newCommands(command.Tiers{}).embedded.pattern)}
	if dynamic != len(built) {
		t.Fatalf("%d compile calls with a computed pattern, %d known: add the new one here", dynamic, len(built))
	}
	if len(rules) < 50 {
		t.Fatalf("only %d rules found", len(rules))
	}
	rules = append(rules, built...)
	for _, r := range rules {
		r.load()
	}
	return rules
}

// constStringOf evaluates a string literal, a constant of consts or a
// sum of them.
func constStringOf(e ast.Expr, consts map[string]ast.Expr) (string, bool) {
	constString := func(e ast.Expr) (string, bool) { return constStringOf(e, consts) }
	switch e := e.(type) {
	case *ast.Ident:
		if v, ok := consts[e.Name]; ok {
			delete(consts, e.Name) // no constant refers to itself; guard anyway
			s, ok := constString(v)
			consts[e.Name] = v
			return s, ok
		}
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			x, ok1 := constString(e.X)
			y, ok2 := constString(e.Y)
			return x + y, ok1 && ok2
		}
	case *ast.ParenExpr:
		return constString(e.X)
	}
	return "", false
}

// TestGateKeepsAnswers checks that the gates never change a rule's
// answer: on the evaluation's messages, the hostile shapes and random
// mixes of each rule's own words, case changed, every gated expression
// answers as the bare one.
func TestGateKeepsAnswers(t *testing.T) {
	var texts []string
	for _, in := range evalInputs(t, "../../testdata/evals/tool_selection.jsonl") {
		texts = append(texts, in, normalize(in), strings.ToUpper(in))
	}
	if len(texts) < 300 {
		t.Fatalf("only %d evaluation messages read", len(texts))
	}
	random := 200
	if underRace { // every fourth message, a quarter of the random texts
		for i := range len(texts) / 4 {
			texts[i] = texts[4*i]
		}
		texts, random = texts[:len(texts)/4], 50
	}
	for _, sh := range hostileShapes {
		texts = append(texts, sh.make(1024))
	}
	allRx := allRules(t)
	gated := 0
	for _, r := range allRx {
		if r.words != nil {
			gated++
		}
	}
	if gated < len(allRx)*3/4 {
		t.Errorf("only %d of %d rules gated", gated, len(allRx))
	}
	rng := rand.New(rand.NewPCG(3, 7))
	for _, r := range allRx {
		all := texts
		for range random {
			var b strings.Builder
			for range 1 + rng.IntN(4) {
				if len(r.words) > 0 && rng.IntN(2) == 0 {
					w := r.words[rng.IntN(len(r.words))]
					if rng.IntN(2) == 0 {
						w = strings.ToLower(w)
					}
					b.WriteString(w)
				} else {
					b.WriteString([]string{" ", "a", "ls -la ", "/var/log", "的", "？", "K", "\u212a", "\xff", "吗"}[rng.IntN(10)])
				}
			}
			all = append(all, b.String())
		}
		for _, s := range all {
			if got, want := r.MatchString(s), r.re.MatchString(s); got != want {
				t.Errorf("%s on %.80q: gated %v, bare %v", r, s, got, want)
			}
		}
	}
}

// TestGatesTurnHostileTextsAway checks that on the hostile shapes of
// BenchmarkPlanPerKB at 16 KiB, the texts that made every rule scan them
// whole, at most half the rules run their expression (without gates,
// all of them did, at some 100-400 ms a plan).
func TestGatesTurnHostileTextsAway(t *testing.T) {
	allRx := allRules(t)
	for _, sh := range hostileShapes {
		in := sh.make(16 << 10)
		n := 0
		for _, r := range allRx {
			if r.maybe(in) {
				n++
			}
		}
		if n > len(allRx)/2 {
			t.Errorf("%s: %d of %d rules run", sh.name, n, len(allRx))
		}
	}
}
