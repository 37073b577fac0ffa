package builtin

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"opsassist/agent/eval"
	"opsassist/tools/command"
)

// trainFiles are the train set: the only cases the model learns from
// (docs/evals.md).
var trainFiles = []string{
	"../../testdata/evals/tool_selection.jsonl", "../../testdata/evals/train2.jsonl",
	"../../testdata/evals/train3.jsonl", "../../testdata/evals/train4.jsonl",
	"../../testdata/evals/train5.jsonl", "../../testdata/evals/train6.jsonl",
	"../../testdata/evals/train7.jsonl", "../../testdata/evals/train8.jsonl",
	"../../testdata/evals/train9.jsonl", "../../testdata/evals/train10.jsonl",
	"../../testdata/evals/train11.jsonl", "../../testdata/evals/train12.jsonl",
	"../../testdata/evals/train13.jsonl", "../../testdata/evals/train14.jsonl",
	"../../testdata/evals/train15.jsonl", "../../testdata/evals/train16.jsonl",
	"../../testdata/evals/train17.jsonl", "../../testdata/evals/train18.jsonl",
	"../../testdata/evals/train19.jsonl", "../../testdata/evals/train20.jsonl",
	"../../testdata/evals/train21.jsonl", "../../testdata/evals/train22.jsonl",
}

// trainCase is one line of the train set.
type trainCase struct {
	Input    string         `json:"input"`
	WantTool string         `json:"want_tool"`
	WantArgs map[string]any `json:"want_args"`
	// WantRefuse is a refusal case's mark, which the eval checks.
	WantRefuse bool `json:"want_refuse"`
	// file is the index in trainFiles of the file the case comes from.
	file int
}

func loadTrain(t testing.TB) []trainCase {
	t.Helper()
	var out []trainCase
	for fi, name := range trainFiles {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			c := trainCase{file: fi}
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				f.Close()
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, c)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return out
}

// examples turns cases into training examples under the default tiers,
// with uploads, as the eval runs them. A case the safety stage decides
// (a command line, a refusal, a greeting) never reaches the model and
// teaches it nothing; its example is nil.
func examples(cases []trainCase) []*example {
	c := defaultCommands
	out := make([]*example, 0, len(cases))
	for _, tc := range cases {
		text := c.fixTypos(strings.TrimSpace(normalize(tc.Input)))
		if text == "" {
			out = append(out, nil)
			continue
		}
		_, decided, text := c.screen(text)
		if decided {
			out = append(out, nil)
			continue
		}
		hits := c.rules(text, true)
		out = append(out, &example{features: c.features(text, true, &hits), class: caseClass(tc, hits)})
	}
	return out
}

// caseClass is the class a case wants. A case that leaves the slot open
// ("semantic_search", any scope) takes it from the first rule that
// calls the wanted tool, which is then an answer the case accepts; so
// does a search the first rule's download satisfies.
func caseClass(tc trainCase, hits [len(ruleNames)]Intent) int {
	str := func(k string) string { s, _ := tc.WantArgs[k].(string); return s }
	var rule Intent
	for _, h := range hits {
		if h.Kind != "" {
			rule = h
			break
		}
	}
	l := "none"
	switch tc.WantTool {
	case "command_executor":
		l = "command"
	case "file_download", "ask_user":
		l = "download"
	case "sys_monitor":
		l = "monitor/" + str("metric")
		if str("metric") == "" {
			l = "monitor/all"
			if rule.Tool == "sys_monitor" {
				l = labelOf(rule)
			}
		}
	case "semantic_search":
		l = "search/" + str("scope")
		if rule.Kind == "download" && rule.Tool == "semantic_search" && eval.Subset(tc.WantArgs, rule.Args) {
			// A download's first call is a search for the file
			// ("我想下载 inventory.xlsx" wants scope all): the case
			// accepts the download, which goes on to offer the file.
			l = "download"
		} else if str("scope") == "" {
			l = "search/all"
			if rule.Tool == "semantic_search" {
				l = labelOf(rule)
			}
		}
	case "file_upload":
		l = "upload/" + str("action")
		if str("action") == "" {
			l = "upload/read"
			if rule.Tool == "file_upload" {
				l = labelOf(rule)
			}
		}
	}
	k := classIndex(l)
	if k < 0 {
		panic("no class " + l)
	}
	return k
}

// reached are the examples that reach the model.
func reached(ex []*example) []example {
	var out []example
	for _, e := range ex {
		if e != nil {
			out = append(out, *e)
		}
	}
	return out
}

// TestModelIsTrained: model.weights is what training on the train set
// gives, so the model is reproducible from the train set alone. Run with
// -update (go generate) after changing the train set or the features.
func TestModelIsTrained(t *testing.T) {
	got := train(reached(examples(loadTrain(t)))).format()
	if *update {
		if err := os.WriteFile("model.weights", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != modelText {
		t.Fatal("model.weights is not the model the train set gives: run go generate ./agent/builtin")
	}
	w, err := parseWeights(modelText)
	if err != nil {
		t.Fatal(err)
	}
	if w2, _ := parseWeights(w.format()); !reflect.DeepEqual(w, w2) {
		t.Fatal("weights do not round-trip")
	}
}

// TestCrossValidation estimates how the planner generalises: k-fold
// cross-validation on the train set. Each fold is planned, end to end as
// opsassist eval does (safety rules, features, scores, slots), by a
// planner whose model was trained on the other folds only. It logs the
// held-out accuracy and each tool's recall and fails below 0.9.
func TestCrossValidation(t *testing.T) {
	if testing.Short() {
		t.Skip("trains five models")
	}
	const k = 5
	cases := loadTrain(t)
	ex := examples(cases)
	specs, err := eval.DefaultSpecs()
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	per := map[string][2]int{}
	for fold := range k {
		var tr []example
		var held []eval.Case
		for i, e := range ex {
			if i%k == fold {
				held = append(held, eval.Case{Input: cases[i].Input, WantTool: cases[i].WantTool, WantArgs: cases[i].WantArgs})
			} else if e != nil {
				tr = append(tr, *e)
			}
		}
		cmds := newCommands(command.Tiers{})
		cmds.weights = train(tr)
		r := eval.Run(context.Background(), Planner{cmds: cmds}, specs, held)
		right += r.Passed
		missed := map[string]int{}
		for _, m := range r.Misses {
			missed[m.Case.Input]++
			t.Logf("fold %d miss: %s", fold, m)
		}
		for _, c := range held {
			n := per[c.WantTool]
			n[1]++
			if missed[c.Input] == 0 {
				n[0]++
			}
			per[c.WantTool] = n
		}
	}
	acc := float64(right) / float64(len(cases))
	t.Logf("%d-fold CV accuracy %.3f (%d/%d); recall:%s", k, acc, right, len(cases), recalls(per))
	if acc < 0.9 {
		t.Errorf("CV accuracy %.3f, want at least 0.9", acc)
	}
}
