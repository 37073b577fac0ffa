package builtin

import (
	"bufio"
	"context"
	"encoding/json"
	"go/scanner"
	"go/token"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"opsassist/agent"
	"opsassist/agent/eval"
	"opsassist/chat"
	"opsassist/storage/history"
)

// TestDecisionOracle writes the planner's decisions on a fixed set of
// inputs — the train cases, every string literal of the package's tests,
// the hostile shapes and mixes and pastes of them — to $PERF16_ORACLE,
// one JSON line each: inert's text, restartIntent's answer, Classify's
// intent with and without uploads, and Plan's first step (tool calls
// without their random ids). Skipped when unset. A change to the cost of
// planning runs it before and after: the files must be byte-identical.
func TestDecisionOracle(t *testing.T) {
	out := os.Getenv("PERF16_ORACLE")
	if out == "" {
		t.Skip("PERF16_ORACLE unset")
	}
	var inputs []string
	for _, path := range trainFiles {
		inputs = append(inputs, evalInputs(t, path)...)
	}
	cases := len(inputs)
	// Every string literal of the package's tests.
	files, _ := filepath.Glob("*_test.go")
	sort.Strings(files)
	lits := 0
	for _, fn := range files {
		if fn == "oracle_test.go" || fn == "alts_test.go" || fn == "fold_test.go" {
			continue // the files added with the oracle, so its inputs stay the same
		}
		src, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		fs := token.NewFileSet()
		var s scanner.Scanner
		s.Init(fs.AddFile(fn, -1, len(src)), src, nil, 0)
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.STRING {
				if u, err := strconv.Unquote(lit); err == nil && strings.TrimSpace(u) != "" && len(u) < 70000 {
					inputs = append(inputs, u)
					lits++
				}
			}
		}
	}
	// Synthetic: the hostile shapes at 1 KB, and long mixes of cases.
	for _, sh := range hostileShapes {
		for _, n := range []int{100, 1 << 10, 3000} {
			inputs = append(inputs, sh.make(n))
		}
	}
	rnd := rand.New(rand.NewSource(16))
	seps := []string{" ", "，", "\n", "。", ", ", "; ", " 然后 ", " and then ", "\n\n"}
	for i := 0; i < 600; i++ {
		n := 2 + rnd.Intn(12)
		var b strings.Builder
		for j := 0; j < n; j++ {
			if j > 0 {
				b.WriteString(seps[rnd.Intn(len(seps))])
			}
			b.WriteString(inputs[rnd.Intn(len(inputs))])
		}
		inputs = append(inputs, b.String())
	}
	// Pastes: log-like lines with a question.
	paste := "Nov 23 10:00:01 host nginx[123]: connect() failed (111: Connection refused)\nrm: cannot remove '/x': Permission denied\nkill: (1234) - No such process\n2026-11-23T10:00:00Z ERROR db: connection reset by peer\n"
	for i := 0; i < 200; i++ {
		inputs = append(inputs, strings.Repeat(paste, 1+i%7)+inputs[rnd.Intn(cases)])
		inputs = append(inputs, inputs[rnd.Intn(cases)]+"\n```\n"+strings.Repeat(paste, 1+i%5)+"```")
	}
	specs, err := eval.DefaultSpecs()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2025, 12, 31, 8, 30, 0, 0, time.UTC)
	p := New(Config{MaxInput: 64 << 10})
	c := Planner{}.commands()
	type rec struct {
		In       string
		Inert    string
		Restart  string
		Kind     string
		Tool     string
		Args     map[string]any
		Reason   string
		KindNoUp string
		ToolNoUp string
		ArgsNoUp map[string]any
		Content  string
		Calls    []history.ToolCall
		Refusal  bool
		Err      string
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	enc := json.NewEncoder(w)
	for _, in := range inputs {
		r := rec{In: in, Inert: inert(normalize(in))}
		ri, ok := c.restartIntent(normalize(in))
		r.Restart = ri.Kind + "|" + ri.Tool + "|" + ri.Reason + "|" + strconv.FormatBool(ok)
		if ri.Args != nil {
			b, _ := json.Marshal(ri.Args)
			r.Restart += string(b)
		}
		ci := Planner{}.Classify(in, true)
		r.Kind, r.Tool, r.Args, r.Reason = ci.Kind, ci.Tool, ci.Args, ci.Reason
		cn := Planner{}.Classify(in, false)
		r.KindNoUp, r.ToolNoUp, r.ArgsNoUp = cn.Kind, cn.Tool, cn.Args
		req := &agent.PlanRequest{
			Turn:     &chat.Turn{SessionID: "eval", Input: in, Uploads: eval.Uploads(), ClientType: "cli", Now: now},
			Messages: []history.Message{{Role: "user", Content: in, Time: now}},
			Tools:    specs,
		}
		st, err := p.Plan(context.Background(), req, func(string) error { return nil })
		if err != nil {
			r.Err = err.Error()
		} else if st != nil {
			r.Content, r.Calls, r.Refusal = st.Content, st.ToolCalls, st.Refusal
			for i := range r.Calls {
				r.Calls[i].ID = ""
			}
		}
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d inputs: %d cases, %d test literals, %d synthetic", len(inputs), cases, lits, len(inputs)-cases-lits)
}
