package eval

import "sort"

// NoneLabel names "no tool call" in the per-tool scores and the
// confusion matrix.
const NoneLabel = "(none)"

// ToolScore is one tool's (or NoneLabel's) precision and recall over a
// report's outcomes. They score the choice of tool alone: a call of the
// right tool with the wrong arguments counts as right here, and as a
// miss in the accuracy.
type ToolScore struct {
	// Tool is the tool's name, NoneLabel or ErrorLabel.
	Tool string
	// Want is the number of cases that want the tool.
	Want int
	// Got is the number of cases whose first call was the tool.
	Got int
	// Right is the number of cases that wanted it and got it.
	Right int
}

// Precision is Right/Got; ok is false when the tool was never chosen.
func (s ToolScore) Precision() (p float64, ok bool) {
	if s.Got == 0 {
		return 0, false
	}
	return float64(s.Right) / float64(s.Got), true
}

// Recall is Right/Want; ok is false when no case wants the tool.
func (s ToolScore) Recall() (p float64, ok bool) {
	if s.Want == 0 {
		return 0, false
	}
	return float64(s.Right) / float64(s.Want), true
}

// Labels are the rows and columns of the scores: tools in the order
// given (the specs' order), then any other tool the cases want or the
// planner chose, sorted, then NoneLabel, then ErrorLabel if the planner
// failed on some case.
func (r Report) Labels(tools []string) []string {
	seen := map[string]bool{NoneLabel: true, ErrorLabel: true}
	var labels []string
	for _, t := range tools {
		if !seen[t] {
			seen[t] = true
			labels = append(labels, t)
		}
	}
	var extra []string
	failed := false
	for _, o := range r.Outcomes {
		for _, t := range []string{o.Want, o.Got} {
			if t == ErrorLabel {
				failed = true
			}
			if t != "" && !seen[t] {
				seen[t] = true
				extra = append(extra, t)
			}
		}
	}
	sort.Strings(extra)
	labels = append(append(labels, extra...), NoneLabel)
	if failed {
		labels = append(labels, ErrorLabel)
	}
	return labels
}

// label is a tool name as the scores show it.
func label(tool string) string {
	if tool == "" {
		return NoneLabel
	}
	return tool
}

// Scores are the per-tool scores, one per label of Labels(tools).
func (r Report) Scores(tools []string) []ToolScore {
	labels := r.Labels(tools)
	at := make(map[string]int, len(labels))
	scores := make([]ToolScore, len(labels))
	for i, l := range labels {
		at[l] = i
		scores[i].Tool = l
	}
	for _, o := range r.Outcomes {
		w, g := label(o.Want), label(o.Got)
		scores[at[w]].Want++
		scores[at[g]].Got++
		if w == g {
			scores[at[w]].Right++
		}
	}
	return scores
}

// Confusion counts the outcomes by wanted tool (rows) and chosen tool
// (columns), both indexed as Labels(tools).
func (r Report) Confusion(tools []string) [][]int {
	labels := r.Labels(tools)
	at := make(map[string]int, len(labels))
	m := make([][]int, len(labels))
	for i, l := range labels {
		at[l] = i
		m[i] = make([]int, len(labels))
	}
	for _, o := range r.Outcomes {
		m[at[label(o.Want)]][at[label(o.Got)]]++
	}
	return m
}
