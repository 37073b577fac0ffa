package builtin

import (
	_ "embed"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// classes are what the learned decision chooses between: each tool with
// its main slot value, and no tool at all. Refusals, greetings and help
// are the safety stage's and never reach it.
var classes = [...]string{
	"none", "command",
	"monitor/cpu", "monitor/memory", "monitor/disk", "monitor/all",
	"search/system", "search/uploads", "search/all",
	"upload/list", "upload/read",
	"download",
}

const nClasses = len(classes)

// classIndex is the index of class l in classes, or -1.
func classIndex(l string) int {
	for i, c := range classes {
		if c == l {
			return i
		}
	}
	return -1
}

// labelOf is the class of an intent.
func labelOf(in Intent) string {
	str := func(k string) string { s, _ := in.Args[k].(string); return s }
	switch {
	case in.Kind == "download":
		return "download"
	case in.Tool == "command_executor":
		return "command"
	case in.Tool == "sys_monitor":
		return "monitor/" + str("metric")
	case in.Tool == "semantic_search":
		return "search/" + str("scope")
	case in.Tool == "file_upload":
		return "upload/" + str("action")
	case in.Tool == "file_download":
		return "download"
	}
	return "none"
}

// weights are the learned model: for each feature, its weight for each
// class. Features it does not know weigh nothing.
type weights map[string][nClasses]int64

// modelText is the model trained on the train set
// (testdata/evals/tool_selection.jsonl and train2.jsonl … train6.jsonl,
// trainFiles in model_test.go) by train;
// TestModelIsTrained re-trains it and compares, and `go generate` (go
// test -run TestModelIsTrained -update) rewrites it.
//
//go:generate go test -run TestModelIsTrained -update .
//go:embed model.weights
var modelText string

var (
	loadModel = sync.OnceValue(func() weights {
		w, err := parseWeights(modelText)
		if err != nil {
			panic(fmt.Sprintf("builtin: model.weights: %v", err)) // TestModelIsTrained parses it
		}
		return w
	})
)

// scores are each class's score for the features fs.
func (w weights) scores(fs []string) [nClasses]int64 {
	var s [nClasses]int64
	for _, f := range fs {
		if ws, ok := w[f]; ok {
			for k := range s {
				s[k] += ws[k]
			}
		}
	}
	return s
}

// ranked is the class indexes from the highest score to the lowest,
// ties in the order of classes.
func ranked(s [nClasses]int64) []int {
	idx := make([]int, nClasses)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s[idx[a]] > s[idx[b]] })
	return idx
}

// example is one labelled message for training: its features and the
// index of its class.
type example struct {
	features []string
	class    int
}

// Training: softmax (multinomial logistic) regression with L2
// regularisation, by full-batch gradient descent from zero weights —
// deterministic, so the same train set always gives the same model.
const (
	trainEpochs = 300
	learnRate   = 1.0
	l2          = 1e-3
	// weightScale turns the learned weights into integers, so the model
	// file is exact text and scoring is integer sums.
	weightScale = 1000
)

// train learns weights from examples (augmented by augment).
func train(examples []example) weights {
	ex := augment(examples)
	index := map[string]int{}
	var names []string
	for _, e := range ex {
		for _, f := range e.features {
			if _, ok := index[f]; !ok {
				index[f] = -1
				names = append(names, f)
			}
		}
	}
	sort.Strings(names)
	for i, f := range names {
		index[f] = i
	}
	feats := make([][]int, len(ex))
	for i, e := range ex {
		for _, f := range e.features {
			feats[i] = append(feats[i], index[f])
		}
	}
	w := make([][nClasses]float64, len(names))
	grad := make([][nClasses]float64, len(names))
	n := float64(len(ex))
	for range trainEpochs {
		clear(grad)
		for i, e := range ex {
			var z [nClasses]float64
			for _, f := range feats[i] {
				for k := range z {
					z[k] += w[f][k]
				}
			}
			p := softmax(z)
			p[e.class] -= 1
			for _, f := range feats[i] {
				for k := range p {
					grad[f][k] += p[k]
				}
			}
		}
		for f := range w {
			for k := range w[f] {
				w[f][k] -= float64(learnRate * float64(grad[f][k]/n+float64(l2*w[f][k])))
			}
		}
	}
	out := weights{}
	for f, name := range names {
		var q [nClasses]int64
		nonzero := false
		for k := range q {
			q[k] = int64(math.Round(w[f][k] * weightScale))
			nonzero = nonzero || q[k] != 0
		}
		if nonzero {
			out[name] = q
		}
	}
	return out
}

// softmax is the probability of each class for scores z.
func softmax(z [nClasses]float64) [nClasses]float64 {
	m := z[0]
	for _, v := range z {
		m = max(m, v)
	}
	var p [nClasses]float64
	sum := 0.0
	for k, v := range z {
		p[k] = math.Exp(v - m)
		sum += p[k]
	}
	for k := range p {
		p[k] /= sum
	}
	return p
}

// format writes w as text: one feature a line, sorted, then its
// non-zero weights as class:weight.
func (w weights) format() string {
	names := make([]string, 0, len(w))
	for f := range w {
		names = append(names, f)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, f := range names {
		b.WriteString(f)
		for k, v := range w[f] {
			if v != 0 {
				fmt.Fprintf(&b, "\t%d:%d", k, v)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// parseWeights reads format's text.
func parseWeights(s string) (weights, error) {
	w := weights{}
	for n, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if line == "" {
			continue
		}
		parts := strings.Split(line, "\t")
		var ws [nClasses]int64
		for _, p := range parts[1:] {
			k, v, ok := strings.Cut(p, ":")
			ki, err1 := strconv.Atoi(k)
			vi, err2 := strconv.ParseInt(v, 10, 64)
			if !ok || err1 != nil || err2 != nil || ki < 0 || ki >= nClasses {
				return nil, fmt.Errorf("line %d: bad weight %q", n+1, p)
			}
			ws[ki] = vi
		}
		w[parts[0]] = ws
	}
	return w, nil
}

// augment is each example three times: whole; without the rules'
// features; with the concepts alone (no rules, no words). The model must
// also decide from what a message says when the rules misread it, and
// from its concepts when its words are new.
func augment(examples []example) []example {
	out := make([]example, 0, 3*len(examples))
	for _, ex := range examples {
		out = append(out, ex)
		var own, concepts []string
		for _, f := range ex.features {
			if strings.HasPrefix(f, "rule:") || strings.HasPrefix(f, "first:") || strings.Contains(f, "&") {
				continue
			}
			own = append(own, f)
			if !strings.HasPrefix(f, "w:") && !strings.HasPrefix(f, "z:") {
				concepts = append(concepts, f)
			}
		}
		out = append(out, example{features: own, class: ex.class}, example{features: concepts, class: ex.class})
	}
	return out
}
