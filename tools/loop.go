package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"opsassist/api"

	"opsassist/tools/loopguard"
)

// LoopScopePrefix starts the Scope of the Confirmation that asks the
// user whether to run a call the loop guard stopped (LoopScope). No
// tool's permission scope starts with it, so an allow_session grant of
// the ordinary permission never answers the loop guard's question.
const LoopScopePrefix = "loop_guard:"

// LoopScope is the Scope of the loop guard's Confirmation about a call
// of tool with args: LoopScopePrefix, the tool and its canonical
// arguments (loopguard.Canonical) with secrets redacted. An
// allow_session answer to it covers only this exact repeat.
func LoopScope(tool string, args json.RawMessage) string {
	shown := Redact(args)
	if shown == nil {
		shown = args
	}
	return LoopScopePrefix + tool + ":" + loopguard.Canonical(shown)
}

// loopKey is what a grant of the loop guard's question about a call of
// tool with args is matched on: api.GrantKey of LoopScope before
// redaction, so that a yes to one repeat never covers a call that
// differs from it only in a secret.
func loopKey(tool string, args json.RawMessage) string {
	return api.GrantKey(tool, LoopScopePrefix+tool+":"+loopguard.Canonical(args), nil)
}

// loopCheck handles a call the loop guard stopped (call.Loop set),
// after the Policy let it through and the rate limiter counted it: with
// Confirm it asks the user call.LoopQuestion, whether to run the call
// anyway (LoopScope); without, or when the answer is no, the call is
// refused with call.Loop as the reason. ok reports whether the call may
// go on (to the permission question if the Policy put it at Ask);
// answeredBy is who answered the loop question, for the audit record
// (CallRecord.LoopDecidedBy): the answer's By (ByUser, BySessionGrant,
// ByTimeout, ByDisconnect, ByCancel), or DecidedByNoClient when nobody
// could be asked.
func (r *Registry) loopCheck(ctx context.Context, call *Call, spec Spec, args json.RawMessage) (res Result, answeredBy string, ok bool) {
	if call.Confirm == nil {
		return failure("%s", call.Loop), DecidedByNoClient, false
	}
	shown := Redact(args)
	if shown == nil {
		shown = args
	}
	question := loopQuestion(call, spec)
	ans, err := call.Confirm(ctx, Confirmation{
		ToolCallID: call.ToolCallID, Tool: spec.Name, Args: shown, Risk: spec.Risk,
		Reason: question.Both(), ReasonText: question,
		Scope: LoopScope(spec.Name, args),
		Key:   loopKey(spec.Name, args),
	})
	by := answerer(ctx, ans)
	switch {
	case err != nil:
		return failure("%s (the user could not be asked: %v)", call.Loop, err), by, false
	case !ans.Allowed && ans.By == ByTimeout:
		return failure("%s 用户未及时回答，未执行。The user did not answer in time.", call.Loop), by, false
	case !ans.Allowed:
		return failure("%s 用户选择不再执行。The user chose not to run it again.", call.Loop), by, false
	}
	return Result{}, by, true
}

// loopQuestion is what the user is asked about a call the loop guard
// stopped: call.LoopQuestion, or a generic question naming the tool.
func loopQuestion(call *Call, spec Spec) api.Text {
	if !call.LoopQuestion.IsZero() {
		return call.LoopQuestion
	}
	return api.Text{
		Zh: fmt.Sprintf("模型反复调用 %s。是否仍要执行？", spec.Name),
		En: fmt.Sprintf("The model keeps repeating this call to %s. Run it anyway?", spec.Name),
	}
}
