package chat

import "opsassist/api"

// Kind is the type of an Event.
type Kind string

// Event kinds, in the order a reply emits them: one StreamStart, any mix of
// Status, Delta, Offer, PermissionRequest, Question and Error, then one End. Their names are api's
// Event* names.
const (
	KindStreamStart Kind = api.EventStreamStart
	KindStatus      Kind = api.EventStatus
	KindDelta       Kind = api.EventDelta
	KindOffer       Kind = api.EventDownloadOffer
	KindError       Kind = api.EventError
	KindEnd         Kind = api.EventEnd
	// KindPermissionRequest asks the user to allow a tool call; the
	// turn waits for the answer (Session.AnswerPermission).
	KindPermissionRequest Kind = api.EventPermissionRequest
	// KindQuestion puts an ask_user question to the user; the turn waits
	// for the answer (Session.AnswerQuestion).
	KindQuestion Kind = api.EventQuestion
)

// Event is one step of a reply.
type Event struct {
	Kind Kind `json:"type"`
	// SessionID is the conversation the reply belongs to (StreamStart).
	SessionID string `json:"session_id,omitempty"`
	// Status is set on KindStatus.
	Status *Status `json:"status,omitempty"`
	// Text is the text chunk of KindDelta.
	Text string `json:"text,omitempty"`
	// Offer is set on KindOffer.
	Offer *api.Offer `json:"offer,omitempty"`
	// Permission is set on KindPermissionRequest.
	Permission *api.PermissionRequest `json:"permission,omitempty"`
	// Question is set on KindQuestion.
	Question *api.Question `json:"question,omitempty"`
	// Error is set on KindError.
	Error *ErrorInfo `json:"error,omitempty"`
}

// Status is an agent progress update; Type is one of the api.Status*
// names.
type Status struct {
	Type    string `json:"type"`
	Content string `json:"content"`
	// Success is set on a tool_result status: whether the call
	// succeeded (api.ToolResult's Success).
	Success *bool `json:"success,omitempty"`
	// Code is, on a failed tool_result, why (api.ToolResult's Code).
	Code string `json:"code,omitempty"`
	// Full is, on a tool_result whose output the model was given
	// shortened, the call's complete result (JSON, as the history's
	// Message.Full keeps it), so a client can open it while the turn
	// runs (FullResulter). The web's SSE status event carries it; NPLT's
	// AGENT_THOUGHT does not.
	Full string `json:"full,omitempty"`
}

// ErrorInfo is a user-visible error with a stable code, one of the
// api.Code* codes.
type ErrorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error is an error with a code (an api.Code* code) a transport can send
// to its client.
type Error struct {
	Code string
	Err  error
}

// Error returns the underlying message.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Emit sends one Event to the transport. It returns an error when the
// client is gone; the producer should then stop.
type Emit func(Event) error
