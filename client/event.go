package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"opsassist/api"
	"opsassist/nplt"
)

// EventType names the kind of an Event. Its values are also the "type"
// field of the JSON lines printed by "opsassist ask --json".
type EventType string

// Event types.
const (
	// EventStreamStart opens a chat reply; Status.SessionID names the
	// conversation.
	EventStreamStart EventType = api.EventStreamStart
	// EventStatus is an agent status (thinking, tool_call, tool_result,
	// generating) in Status.
	EventStatus EventType = api.EventStatus
	// EventDelta carries the next piece of the answer in Text.
	EventDelta EventType = api.EventDelta
	// EventDownloadOffer carries a file the server offers in Offer.
	EventDownloadOffer EventType = api.EventDownloadOffer
	// EventError carries an ERROR frame in Error.
	EventError EventType = api.EventError
	// EventEnd ends a reply.
	EventEnd EventType = api.EventEnd
	// EventPermission asks the user to allow a tool call, in
	// Permission; answer with Conn.AnswerPermission.
	EventPermission EventType = api.EventPermissionRequest
	// EventQuestion puts an ask_user question to the user, in Question;
	// answer with Conn.AnswerQuestion.
	EventQuestion EventType = api.EventQuestion
	// EventIndexed reports, outside any reply, that an upload was indexed
	// for search, or why not, in Indexed.
	EventIndexed EventType = api.EventUploadIndexed
)

// Event is one step of a server reply, decoded from a frame.
type Event struct {
	// Type says which of the other fields is set.
	Type EventType
	// Status is set for EventStreamStart and EventStatus.
	Status nplt.Status
	// Text is set for EventDelta.
	Text string
	// Offer is set for EventDownloadOffer.
	Offer api.Offer
	// Error is set for EventError.
	Error *ServerError
	// Indexed is set for EventIndexed.
	Indexed nplt.UploadIndexedPayload
	// Permission is set for EventPermission.
	Permission api.PermissionRequest
	// Question is set for EventQuestion.
	Question api.Question
}

// EventHandler receives the events of a reply in order. It runs on the
// goroutine that called the request method.
type EventHandler func(Event)

// errNotEvent is returned by decodeEvent for frame types that are not
// chat events (RESULT, UPLOAD_DONE, …).
var errNotEvent = errors.New("client: frame is not an event")

// decodeEvent turns a reply frame into an Event.
func decodeEvent(f nplt.Frame) (Event, error) {
	switch f.Type {
	case nplt.ChatText:
		if len(f.Payload) == 0 {
			return Event{Type: EventEnd}, nil
		}
		return Event{Type: EventDelta, Text: string(f.Payload)}, nil
	case nplt.AgentThought:
		var s nplt.Status
		if err := json.Unmarshal(f.Payload, &s); err != nil {
			return Event{}, fmt.Errorf("%w: decoding %v: %w", ErrProtocol, f.Type, err)
		}
		t := EventStatus
		if s.Type == api.StatusStreamStart {
			t = EventStreamStart
		}
		return Event{Type: t, Status: s}, nil
	case nplt.DownloadOffer:
		var o api.Offer
		if err := json.Unmarshal(f.Payload, &o); err != nil {
			return Event{}, fmt.Errorf("%w: decoding %v: %w", ErrProtocol, f.Type, err)
		}
		return Event{Type: EventDownloadOffer, Offer: o}, nil
	case nplt.PermissionRequest:
		var p api.PermissionRequest
		if err := json.Unmarshal(f.Payload, &p); err != nil {
			return Event{}, fmt.Errorf("%w: decoding %v: %w", ErrProtocol, f.Type, err)
		}
		return Event{Type: EventPermission, Permission: p}, nil
	case nplt.Question:
		var q api.Question
		if err := json.Unmarshal(f.Payload, &q); err != nil {
			return Event{}, fmt.Errorf("%w: decoding %v: %w", ErrProtocol, f.Type, err)
		}
		return Event{Type: EventQuestion, Question: q}, nil
	case nplt.UploadIndexed:
		var p nplt.UploadIndexedPayload
		if err := json.Unmarshal(f.Payload, &p); err != nil {
			return Event{}, fmt.Errorf("%w: decoding %v: %w", ErrProtocol, f.Type, err)
		}
		return Event{Type: EventIndexed, Indexed: p}, nil
	case nplt.Error:
		se, err := decodeServerError(f.Payload)
		if err != nil {
			return Event{}, err
		}
		return Event{Type: EventError, Error: se}, nil
	}
	return Event{}, errNotEvent
}

// decodeServerError decodes an ERROR payload.
func decodeServerError(p []byte) (*ServerError, error) {
	var e nplt.ErrorPayload
	if err := json.Unmarshal(p, &e); err != nil {
		return nil, fmt.Errorf("%w: decoding %v: %w", ErrProtocol, nplt.Error, err)
	}
	return &ServerError{Code: e.Code, Message: e.Message}, nil
}

// eventJSON is the JSON form of an Event.
type eventJSON struct {
	Type       EventType                  `json:"type"`
	SessionID  string                     `json:"session_id,omitempty"`
	Status     string                     `json:"status,omitempty"`
	Content    string                     `json:"content,omitempty"`
	Text       string                     `json:"text,omitempty"`
	Offer      *api.Offer                 `json:"offer,omitempty"`
	Indexed    *nplt.UploadIndexedPayload `json:"upload,omitempty"`
	Permission *api.PermissionRequest     `json:"permission,omitempty"`
	Question   *api.Question              `json:"question,omitempty"`
	Code       string                     `json:"code,omitempty"`
	Message    string                     `json:"message,omitempty"`
}

// MarshalJSON encodes e as one flat JSON object:
//
//	{"type":"stream_start","session_id":"…"}
//	{"type":"status","status":"thinking","content":"…"}
//	{"type":"delta","text":"…"}
//	{"type":"download_offer","offer":{"filename":"…",…}}
//	{"type":"permission_request","permission":{"request_id":"…",…}}
//	{"type":"question","question":{"request_id":"…",…}}
//	{"type":"error","code":"…","message":"…"}
//	{"type":"end"}
//
// HTML characters are not escaped.
func (e Event) MarshalJSON() ([]byte, error) {
	j := eventJSON{Type: e.Type}
	switch e.Type {
	case EventStreamStart:
		j.SessionID = e.Status.SessionID
		j.Content = e.Status.Content
	case EventStatus:
		j.Status = e.Status.Type
		j.Content = e.Status.Content
	case EventDelta:
		j.Text = e.Text
	case EventDownloadOffer:
		j.Offer = &e.Offer
	case EventIndexed:
		j.Indexed = &e.Indexed
	case EventPermission:
		j.Permission = &e.Permission
	case EventQuestion:
		j.Question = &e.Question
	case EventError:
		if e.Error != nil {
			j.Code, j.Message = e.Error.Code, e.Error.Message
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
