package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
	"opsassist/tools"
	"opsassist/tools/loopguard"
)

// DefaultMaxSteps bounds the planning steps of one turn.
const DefaultMaxSteps = 8

// DefaultMaxCallsPerStep bounds the tool calls run in one planning step.
const DefaultMaxCallsPerStep = 8

// Config configures an Agent.
type Config struct {
	// Planners maps model names ("builtin", provider names) to planners.
	// Required, with at least a "builtin" entry or Default.
	Planners map[string]Planner
	// Default is the planner for a model with no entry. Default
	// Planners["builtin"].
	Default Planner
	// Tools runs tool calls. Required.
	Tools *tools.Registry
	// MaxSteps bounds the steps of one turn; the last one offers no
	// tools, and calls a planner returns on it anyway are not run, not
	// kept, but audited as refused (tools.DecidedByStepLimit). Default
	// DefaultMaxSteps.
	MaxSteps int
	// MaxCallsPerStep bounds the tool calls run in one step: the calls
	// after the first MaxCallsPerStep are not run (audited as refused,
	// tools.DecidedByStepLimit), and the model is told so in their
	// results. Default DefaultMaxCallsPerStep.
	MaxCallsPerStep int
	// HistoryBudget is the estimated token budget of the history given to
	// the planner; the oldest turns are dropped to fit. Default
	// DefaultHistoryBudget.
	HistoryBudget int
	// Logger receives logs. Default: discard.
	Logger *zap.Logger
	// Now returns the current time. Default time.Now.
	Now func() time.Time
}

// Agent is the ReAct loop. It implements chat.Agent.
type Agent struct{ cfg Config }

var _ chat.Agent = (*Agent)(nil)

// New returns an Agent.
func New(cfg Config) (*Agent, error) {
	if cfg.Tools == nil {
		return nil, errors.New("agent: Tools is required")
	}
	if cfg.Default == nil {
		cfg.Default = cfg.Planners["builtin"]
	}
	if cfg.Default == nil {
		return nil, errors.New("agent: no default planner")
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	if cfg.MaxCallsPerStep <= 0 {
		cfg.MaxCallsPerStep = DefaultMaxCallsPerStep
	}
	if cfg.HistoryBudget <= 0 {
		cfg.HistoryBudget = DefaultHistoryBudget
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Agent{cfg: cfg}, nil
}

// Respond runs the loop for one turn and returns the assistant and tool
// messages to persist. Every tool call gets exactly one tool message,
// and one audit record (through the Registry) even when it is not run.
// A loop guard (package tools/loopguard) watches the turn's calls: a
// call repeated a third time or oscillating is not run unless the user
// allows it, and when every call of a step was stopped and the model
// asked again for one it had been told not to repeat, the turn ends
// with an answer saying so.
func (a *Agent) Respond(ctx context.Context, t *chat.Turn, r chat.Responder) ([]history.Message, error) {
	planner := a.cfg.Planners[t.Model]
	if planner == nil {
		planner = a.cfg.Default
	}
	zh := IsChinese(t.Input)
	msgs := append(trimHistory(append([]history.Message(nil), t.History...), a.cfg.HistoryBudget),
		history.Message{Role: "user", Content: t.Input, Time: t.Now})
	var out []history.Message
	base := tools.Call{SessionID: t.SessionID, ClientType: t.ClientType, User: t.User, Role: t.Role, Uploads: t.Uploads, Offer: r.Offer, Confirm: confirmer(r), AskUser: asker(r)}
	guard := loopguard.New()
	for step := 1; ; step++ {
		final := step == a.cfg.MaxSteps
		if err := r.Status(api.StatusThinking, api.ThinkingStatus(step).In(zh)); err != nil {
			return out, err
		}
		req := &PlanRequest{Turn: t, Messages: msgs}
		if !final {
			req.Tools, _ = a.cfg.Tools.Offered()
		}
		streamed := false
		st, err := planner.Plan(ctx, req, func(d string) error {
			if !streamed && d != "" {
				streamed = true
				if err := r.Status(api.StatusGenerating, api.GeneratingStatus().In(zh)); err != nil {
					return err
				}
			}
			return r.Delta(d)
		})
		if err != nil {
			return out, err
		}
		if final && len(st.ToolCalls) > 0 {
			// The last step offers no tools: the calls are not run and
			// not kept in the history, but audited (refused).
			a.cfg.Logger.Warn("planner called tools on the last step; ignoring them", zap.Int("calls", len(st.ToolCalls)))
			a.refuse(base, st.ToolCalls, tools.DecidedByStepLimit, lastStepText)
			st.ToolCalls = nil
		}
		if final && strings.TrimSpace(st.Content) == "" {
			st.Content = say(zh, "抱歉，我在限定步数内没能完成这个请求。", "Sorry, I could not finish this request within the step limit.")
			if err := r.Delta(st.Content); err != nil {
				return out, err
			}
		}
		msg := history.Message{Role: "assistant", Content: st.Content, ToolCalls: st.ToolCalls, Time: a.cfg.Now()}
		out = append(out, msg)
		msgs = append(msgs, msg)
		if len(st.ToolCalls) == 0 {
			return out, nil
		}
		run, skipped := st.ToolCalls, []history.ToolCall(nil)
		if len(run) > a.cfg.MaxCallsPerStep {
			run, skipped = run[:a.cfg.MaxCallsPerStep], run[a.cfg.MaxCallsPerStep:]
			a.cfg.Logger.Warn("planner called too many tools in one step; not running the rest",
				zap.Int("calls", len(st.ToolCalls)), zap.Int("max", a.cfg.MaxCallsPerStep))
		}
		tms, stuck, err := a.runCalls(ctx, base, guard, run, r, zh)
		if len(tms) == len(run) {
			tms = append(tms, a.notRun(base, skipped)...)
		} else {
			// The turn ended (the client left, the context ended) before
			// these calls were handed to the Registry: audited, refused.
			by := tools.ByDisconnect
			if ctx.Err() != nil {
				by = tools.ByCancel
			}
			a.refuse(base, append(slices.Clone(run[len(tms):]), skipped...), by, turnEndedText)
		}
		out = append(out, tms...)
		msgs = append(msgs, tms...)
		if err != nil {
			return out, err
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if stuck != nil {
			return a.stuck(out, stuck, r, zh)
		}
	}
}

// stuck ends a turn whose model kept asking for calls the loop guard
// stopped: the assistant's last message says which call kept repeating
// (its arguments redacted and clipped), and no further step is planned.
func (a *Agent) stuck(out []history.Message, tc *history.ToolCall, r chat.Responder, zh bool) ([]history.Message, error) {
	args := strings.TrimSpace(tc.Arguments)
	if shown := tools.Redact(json.RawMessage(args)); shown != nil {
		args = string(shown)
	} else {
		args = tools.RedactString(args) // not JSON: its secrets still go
	}
	call := clip(tc.Name+" "+args, maxStuckCall)
	text := say(zh, "同一个调用反复出现，已停止："+call+"。请告诉我接下来怎么做。",
		"The same call kept repeating and was stopped: "+call+". Tell me how you would like to go on.")
	a.cfg.Logger.Warn("loop guard ended the turn", zap.String("tool", tc.Name))
	out = append(out, history.Message{Role: "assistant", Content: text, Time: a.cfg.Now()})
	return out, r.Delta(text)
}

// maxStuckCall caps the call quoted in the answer of a turn the loop
// guard ended.
const maxStuckCall = 200

// runCalls runs one step's tool calls in order, each with its own Call
// naming its ToolCallID, and returns one tool message per call run, in
// the calls' order. A call waiting for the user's confirmation does not
// hold up the calls after it: the next one starts while it waits, so
// the permission requests of several calls are pending at once and may
// be answered in any order. A call that finishes without asking reports
// its result at once; one that asked reports it once it ends. Once ctx
// is done no further call starts.
//
// Each call is checked by guard, in order, before it starts; a stopped
// call carries the guard's reason (tools.Call.Loop), and the Registry
// asks the user or refuses it. The user's answers reach guard once all
// the step's calls ended, in order, so what the guard decides does not
// depend on when the user answered. stuck, when every call was stopped
// and not allowed and at least one was persisted, is the first
// persisted call: the turn should end.
func (a *Agent) runCalls(ctx context.Context, base tools.Call, guard *loopguard.Guard, calls []history.ToolCall, r chat.Responder, zh bool) (tms []history.Message, stuck *history.ToolCall, err error) {
	outs := make([]tools.Outcome, len(calls))
	verdicts := make([]loopguard.Verdict, len(calls))
	done := make([]chan struct{}, len(calls))
	reported := make([]bool, len(calls))
	var wg sync.WaitGroup
	defer wg.Wait() // no call outlives the turn
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // first: a panic stops the calls still waiting
	// A panic in a call's goroutine (outside the tool, whose own panics
	// the Registry recovers) is raised again here, on the turn's
	// goroutine, where the chat core recovers it.
	var (
		thrownMu sync.Mutex
		thrown   any
	)
	rethrow := func() {
		thrownMu.Lock()
		p := thrown
		thrownMu.Unlock()
		if p != nil {
			panic(p)
		}
	}
	report := func(i int) error {
		reported[i] = true
		o := outs[i]
		// Said in the user's language (api's status texts, which a
		// client words again in its own); a failure from its code, the
		// raw error going to the model (ForModel) and the audit log.
		st := api.ToolDoneStatus(calls[i].Name, o.Result.DurationMS)
		if !o.Result.Success {
			why := api.Text{Zh: tools.UserText(o.Result.Code, calls[i].Name, true), En: tools.UserText(o.Result.Code, calls[i].Name, false)}
			if why.IsZero() {
				why = api.Text{Zh: o.Result.Error, En: o.Result.Error}
			}
			why = api.Text{Zh: clip(why.Zh, maxStatus), En: clip(why.En, maxStatus)}
			st = api.ToolFailedStatus(calls[i].Name, why, o.Result.DurationMS)
		}
		content := st.In(zh)
		if fr, ok := r.(chat.FullResulter); ok && o.Truncated {
			// The user may open the complete result at once, as the
			// history keeps it (Message.Full).
			full, _ := json.Marshal(o.Result)
			return fr.ToolResultFull(content, o.Result.Success, o.Result.Code, string(full))
		}
		if tr, ok := r.(chat.ToolResulter); ok {
			return tr.ToolResult(content, o.Result.Success, o.Result.Code)
		}
		return r.Status(api.StatusToolResult, content)
	}
	messages := func(n int) []history.Message {
		var tms []history.Message
		for i := range n {
			<-done[i]
		}
		rethrow()
		for i := range n {
			tm := history.Message{Role: "tool", ToolCallID: calls[i].ID, Name: calls[i].Name, Content: outs[i].ForModel, Time: a.cfg.Now()}
			if outs[i].Truncated {
				full, _ := json.Marshal(outs[i].Result)
				tm.Full = string(full)
			}
			tms = append(tms, tm)
		}
		return tms
	}
	started := 0
	for i, tc := range calls {
		if err := ctx.Err(); err != nil {
			wg.Wait()
			return messages(started), nil, err // the client left: run nothing more
		}
		if err := r.Status(api.StatusToolCall, clip(fmt.Sprintf("%s %s", tc.Name, tc.Arguments), maxStatus)); err != nil {
			wg.Wait()
			return messages(started), nil, err
		}
		c := base
		c.ToolCallID = tc.ID
		verdicts[i] = guard.Check(tc.Name, []byte(tc.Arguments))
		if verdicts[i].Stop {
			c.Loop, c.LoopQuestion = verdicts[i].Reason, verdicts[i].Question
			a.cfg.Logger.Info("loop guard stopped a call", zap.String("tool", tc.Name), zap.Bool("persisted", verdicts[i].Persisted))
		}
		asking := make(chan struct{})
		var once sync.Once
		confirm := c.Confirm
		c.Confirm = func(ctx context.Context, cf tools.Confirmation) (tools.Confirmed, error) {
			once.Do(func() { close(asking) })
			return confirm(ctx, cf)
		}
		done[i] = make(chan struct{})
		started++
		wg.Go(func() {
			defer close(done[i])
			defer func() {
				if p := recover(); p != nil {
					thrownMu.Lock()
					if thrown == nil {
						thrown = p
					}
					thrownMu.Unlock()
				}
			}()
			outs[i] = a.cfg.Tools.Execute(ctx, &c, tc.Name, tc.Arguments)
		})
		select {
		case <-done[i]:
			rethrow()
			if err := report(i); err != nil {
				wg.Wait()
				return messages(started), nil, err
			}
		case <-asking:
		}
	}
	wg.Wait()
	rethrow()
	for i := range calls {
		if !reported[i] {
			if err := report(i); err != nil {
				return messages(started), nil, err
			}
		}
	}
	loopAllowed := make([]bool, len(calls))
	for i := range calls {
		loopAllowed[i] = outs[i].LoopAllowed
	}
	return messages(started), loopEnd(guard, calls, verdicts, loopAllowed), nil
}

// loopEnd tells guard which stopped calls the user allowed, in call
// order, and returns the first persisted call when every call was
// stopped and none allowed (nil otherwise).
func loopEnd(guard *loopguard.Guard, calls []history.ToolCall, verdicts []loopguard.Verdict, allowed []bool) *history.ToolCall {
	all := true
	var persisted *history.ToolCall
	for i, v := range verdicts {
		switch {
		case v.Stop && allowed[i]:
			guard.Allow(calls[i].Name, []byte(calls[i].Arguments))
			all = false
		case !v.Stop:
			all = false
		case v.Persisted && persisted == nil:
			persisted = &calls[i]
		}
	}
	if !all {
		return nil
	}
	return persisted
}

// Texts of the calls the agent does not hand to the Registry to run:
// the model's tool result of a call over MaxCallsPerStep
// (notRunText), and the audit record's error of a call made on the
// last step, which offers no tools, or left when the turn ended.
const (
	notRunText    = "not run: at most %d tool calls per step; call it again in a later step if still needed"
	lastStepText  = "not run: the planner called it on the turn's last step, which offers no tools"
	turnEndedText = "not run: the turn ended before it started"
)

// notRun refuses the calls over MaxCallsPerStep (audited, decided by
// the step limit) and returns their tool messages: each says it was
// not run, so every call of the assistant message has its result.
func (a *Agent) notRun(base tools.Call, calls []history.ToolCall) []history.Message {
	text := fmt.Sprintf(notRunText, a.cfg.MaxCallsPerStep)
	a.refuse(base, calls, tools.DecidedByStepLimit, text)
	var tms []history.Message
	for _, tc := range calls {
		res, _ := json.Marshal(tools.Result{Error: text})
		tms = append(tms, history.Message{Role: "tool", ToolCallID: tc.ID, Name: tc.Name, Content: string(res), Time: a.cfg.Now()})
	}
	return tms
}

// refuse has the Registry record each of calls as refused unrun
// (tools.Registry.Refuse), decided by decidedBy, with reason as its
// error: every call a planner asked for is audited once.
func (a *Agent) refuse(base tools.Call, calls []history.ToolCall, decidedBy, reason string) {
	for _, tc := range calls {
		c := base
		c.ToolCallID = tc.ID
		a.cfg.Tools.Refuse(&c, tc.Name, tc.Arguments, decidedBy, reason)
	}
}

// say picks the Chinese or English text.
func say(zh bool, zhText, enText string) string {
	if zh {
		return zhText
	}
	return enText
}
