package toolcall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"opsassist/api"
	"opsassist/storage/history"
	"opsassist/tools"
)

// Runner runs direct calls (tools.Registry implements it): every call
// goes through the registry's policy, rate limits and audit log.
type Runner interface {
	// Names returns the registered tool names.
	Names() []string
	// Execute runs one call; it never fails, a refusal or a tool error
	// comes back as an unsuccessful Result.
	Execute(ctx context.Context, call *tools.Call, name, rawArgs string) tools.Outcome
	// Refuse records a call that is not run, decided by decidedBy, and
	// returns its refused Outcome with reason as its error.
	Refuse(call *tools.Call, name, rawArgs, decidedBy, reason string) tools.Outcome
}

// cancelledText is a direct call's error when it was cancelled (its
// context ended) before it ran.
const cancelledText = "the call was cancelled before it ran"

var _ Runner = (*tools.Registry)(nil)

// Caller is who a direct call runs for and where.
type Caller struct {
	// ClientType is api.ClientCLI, ClientDesktop or ClientWeb.
	ClientType string
	// User and Role are the principal's name and role.
	User, Role string
	// Owner is the principal's id (tools.Call.Owner): a download the
	// call offers outside a conversation is theirs.
	Owner string
	// SessionID, if set, is the caller's conversation the call belongs
	// to; Uploads are its uploads, the only files the tool sees.
	SessionID string
	Uploads   []history.Upload
}

// Errors Direct returns inside an *Error.
var (
	// ErrNotObject: the arguments are JSON but not an object.
	ErrNotObject = errors.New("toolcall: arguments must be a JSON object")
	// ErrUnknownTool: no registered tool has the name.
	ErrUnknownTool = errors.New("toolcall: no such tool")
	// ErrUnknownField: the request has a field a direct call does not
	// take (CheckFields).
	ErrUnknownField = errors.New("toolcall: unknown field")
)

// Error is a direct call refused before it ran: Code is the api code
// (api.CodeBadRequest, api.CodeNotFound) a transport maps onto its own
// answer, Message what the user is told.
type Error struct {
	Code    string
	Message string
	Err     error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns ErrNotObject, ErrUnknownTool or ErrUnknownField.
func (e *Error) Unwrap() error { return e.Err }

// Check applies the rules a direct call passes before it runs, and
// returns the arguments to run it with: absent or null arguments are {};
// arguments that are not a JSON object are an *Error (bad_request), an
// unknown tool one (not_found, its message naming listHint, how the
// caller's transport lists the tools). The caller has checked that
// rawArgs is JSON.
func Check(r Runner, name string, rawArgs json.RawMessage, listHint string) (json.RawMessage, error) {
	args := bytes.TrimSpace(rawArgs)
	switch {
	case len(args) == 0 || bytes.Equal(args, []byte("null")):
		args = []byte("{}")
	case args[0] != '{':
		return nil, &Error{Code: api.CodeBadRequest, Message: "arguments must be a JSON object", Err: ErrNotObject}
	}
	if !slices.Contains(r.Names(), name) {
		return nil, &Error{Code: api.CodeNotFound, Message: fmt.Sprintf("no such tool: %q (%s lists them)", name, listHint), Err: ErrUnknownTool}
	}
	return args, nil
}

// Direct runs the tool name once for who, as a direct call
// (tools.Call.Direct: the policy decides, a deny still denies, a call it
// would ask about counts as approved by this explicit request; audited
// with "direct": true), and returns its result — a failed or refused call
// too. A call Check refuses is its *Error, and nothing runs. A call whose
// ctx ended before it could run (cancelled while queued) does not run:
// it is recorded as refused by the cancel (tools.ByCancel) and its
// result says so.
func Direct(ctx context.Context, r Runner, who Caller, name string, rawArgs json.RawMessage, listHint string) (api.ToolResult, error) {
	args, err := Check(r, name, rawArgs, listHint)
	if err != nil {
		return api.ToolResult{}, err
	}
	call := &tools.Call{
		ClientType: who.ClientType,
		User:       who.User,
		Role:       who.Role,
		Owner:      who.Owner,
		SessionID:  who.SessionID,
		Uploads:    who.Uploads,
		Direct:     true,
	}
	if ctx.Err() != nil {
		return r.Refuse(call, name, string(args), tools.ByCancel, cancelledText).Result, nil
	}
	return r.Execute(ctx, call, name, string(args)).Result, nil
}
