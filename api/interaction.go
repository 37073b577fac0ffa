package api

import (
	"encoding/json"
	"time"
)

// Decisions a user gives a PermissionRequest (PermissionResponse.Decision,
// and the options a request offers).
const (
	// DecisionAllowOnce runs this one call.
	DecisionAllowOnce = "allow_once"
	// DecisionAllowSession runs this call and, for the rest of the
	// conversation, calls under the same scope (the tool and its command
	// or path prefix), never more.
	DecisionAllowSession = "allow_session"
	// DecisionDeny refuses the call; the model is told not to retry it.
	DecisionDeny = "deny"
)

// PermissionRequest asks the user to allow one tool call: NPLT
// PERMISSION_REQUEST (0x28) and the HTTP SSE event permission_request
// carry it as JSON. The turn waits for the answer until ExpiresAt; no
// answer by then is a deny.
type PermissionRequest struct {
	// RequestID names the request; the answer quotes it.
	RequestID string `json:"request_id"`
	// ToolCallID is the model's id of the call.
	ToolCallID string `json:"tool_call_id"`
	// Tool is the tool's name; Args its arguments, secrets redacted.
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
	// Risk is the tool's risk level ("read_only", "sensitive",
	// "dangerous"); Reason says why the user is asked, in Chinese and
	// English (Text.Both), for clients that show one text.
	Risk   string `json:"risk"`
	Reason string `json:"reason"`
	// ReasonZh and ReasonEn are Reason in Chinese and in English alone,
	// when the server wrote it in both (omitted otherwise): a client
	// shows the one of its user's language.
	ReasonZh string `json:"reason_zh,omitempty"`
	ReasonEn string `json:"reason_en,omitempty"`
	// Options are the decisions the user may give (Decision*).
	Options []string `json:"options"`
	// ExpiresAt is when the request times out (RFC 3339).
	ExpiresAt string `json:"expires_at"`
}

// PermissionResponse answers a PermissionRequest: NPLT
// PERMISSION_RESPONSE (0x29); over HTTP the request id is in the path and
// the body is {"decision"}.
type PermissionResponse struct {
	RequestID string `json:"request_id,omitempty"`
	Decision  string `json:"decision"`
	// Reason, with DecisionDeny, says the client denied without asking
	// anyone: ReasonNoTerminal. NPLT only, and only to a server that
	// lists nplt.FeaturePermissionReason.
	Reason string `json:"reason,omitempty"`
}

// ReasonNoTerminal, in PermissionResponse.Reason, says the client denied
// the request because it had no one to ask (no terminal): the call is
// refused as for a client that cannot be asked, never as the user's no.
const ReasonNoTerminal = "no_terminal"

// Kinds of Question.
const (
	QuestionText    = "text"
	QuestionChoice  = "choice"
	QuestionConfirm = "confirm"
)

// QuestionOption is one choice of a Question.
type QuestionOption struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	Recommended bool   `json:"recommended,omitempty"`
}

// Question is the ask_user tool's question: NPLT QUESTION (0x2A) and the
// HTTP SSE event question carry it as JSON.
type Question struct {
	RequestID   string           `json:"request_id"`
	Question    string           `json:"question"`
	Kind        string           `json:"kind"`
	Options     []QuestionOption `json:"options,omitempty"`
	AllowCustom bool             `json:"allow_custom"`
	Default     string           `json:"default,omitempty"`
	ExpiresAt   string           `json:"expires_at"`
}

// Answer answers a Question with an option id or free text: NPLT ANSWER
// (0x2B); over HTTP the request id is in the path and the body is
// {"answer"}.
type Answer struct {
	RequestID string `json:"request_id,omitempty"`
	Answer    string `json:"answer"`
}

// UserQuestion is what the ask_user tool asks the user, as the tool layer
// hands it to the chat core (tools.Question and chat.Question are this
// type): the core turns it into the Question event.
type UserQuestion struct {
	// Question is the text shown to the user.
	Question string
	// Kind is QuestionText, QuestionChoice or QuestionConfirm.
	Kind string
	// Options are a choice's options (ids unique).
	Options []QuestionOption
	// AllowCustom lets a choice be answered with free text.
	AllowCustom bool
	// Default, if set, answers the question when it times out.
	Default string
	// Timeout bounds the wait; zero: the server's permission timeout.
	Timeout time.Duration
}

// UserAnswer is the answer to a UserQuestion (tools.Answered and
// chat.Answered are this type).
type UserAnswer struct {
	// Answer is an option id, "yes"/"no" or free text; empty when nobody
	// answered (By timeout, cancel or disconnect).
	Answer string
	// Option is the chosen option's id, when Answer is one.
	Option string
	// By says who or what answered: "user", "default" (the question
	// timed out and had a default), "timeout" (no default), "cancel" or
	// "disconnect".
	By string
}
