package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"opsassist/agent"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/tools"
)

// fixtureNow is the time of every evaluated turn, so runs are repeatable.
var fixtureNow = time.Date(2025, 12, 31, 8, 30, 0, 0, time.UTC)

// Uploads are the conversation's uploads in every evaluated turn, oldest
// first, so that "this file", "these two" or "the log I uploaded before"
// refer to something.
func Uploads() []history.Upload {
	up := func(id, name string, ago time.Duration, size int64) history.Upload {
		return history.Upload{
			FileID: id, Filename: name, FilePath: "/storage/uploads/" + id + "/" + name,
			UploadedAt: fixtureNow.Add(-ago), Size: size, Indexed: true,
		}
	}
	return []history.Upload{
		up("f0a1", "app.log", 2*time.Hour, 48213),
		up("f0b2", "config_old.yaml", 3*time.Minute, 1187),
		up("f0c3", "config.yaml", time.Minute, 1204),
	}
}

// Run asks planner for the first step of each case's turn — the case's
// input as the only message, Uploads as the conversation's uploads,
// specs as the tools — and compares its first tool call with the case.
// It records every case's outcome and counts the refusal cases and how
// many were refused (see RefusalMarker). Once ctx is done, the remaining cases are
// misses with ctx's error.
func Run(ctx context.Context, planner agent.Planner, specs []tools.Spec, cases []Case) Report {
	r := Report{Total: len(cases)}
	if m, ok := planner.(RefusalMarker); ok && m.MarksRefusals() {
		r.Marked = true
	}
	for _, c := range cases {
		var m Miss
		if err := ctx.Err(); err != nil {
			m = Miss{Case: c, Err: err}
		} else {
			m = runCase(ctx, planner, specs, c)
		}
		o := Outcome{Want: c.WantTool, Got: m.GotTool}
		if m.Err != nil {
			o.Got = ErrorLabel
		}
		r.Outcomes = append(r.Outcomes, o)
		refused := o.Got == "" && (m.Refusal || !r.Marked)
		if c.WantRefuse {
			r.Refusals++
			if refused {
				r.Refused++
			}
		}
		if m.Err == nil && m.GotTool == c.WantTool && (c.WantTool == "" || Subset(c.WantArgs, m.GotArgs)) && (!c.WantRefuse || refused) {
			r.Passed++
			continue
		}
		r.Misses = append(r.Misses, m)
	}
	return r
}

// RefusalMarker is a planner that marks its refusals (agent.Step.Refusal).
// For one that does, a refusal case counts as refused only when the step
// is marked so; "I did not understand" is not a refusal. For any other
// planner (a model's), a refusal case counts as refused when no tool is
// called, and the refused line says so.
type RefusalMarker interface {
	MarksRefusals() bool
}

// runCase plans one turn and returns what the planner called, as a Miss
// to be discarded if it matches.
func runCase(ctx context.Context, planner agent.Planner, specs []tools.Spec, c Case) Miss {
	m := Miss{Case: c}
	req := &agent.PlanRequest{
		Turn: &chat.Turn{
			SessionID:  "eval",
			Input:      c.Input,
			Uploads:    Uploads(),
			ClientType: "cli",
			Now:        fixtureNow,
		},
		Messages: []history.Message{{Role: "user", Content: c.Input, Time: fixtureNow}},
		Tools:    specs,
	}
	st, err := planner.Plan(ctx, req, func(string) error { return nil })
	if err != nil {
		m.Err = err
		return m
	}
	if st == nil || len(st.ToolCalls) == 0 {
		m.Refusal = st != nil && st.Refusal
		return m
	}
	tc := st.ToolCalls[0]
	m.GotTool = tc.Name
	if tc.Arguments != "" {
		if err := json.Unmarshal([]byte(tc.Arguments), &m.GotArgs); err != nil {
			m.Err = fmt.Errorf("arguments of %s are not a JSON object: %w", tc.Name, err)
		}
	}
	return m
}
