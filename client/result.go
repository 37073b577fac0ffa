package client

import (
	"encoding/json"
	"fmt"

	"opsassist/nplt"
)

// RESULT kinds, the Kind of a Result.
const (
	// KindSessionList is the result of Sessions; Data decodes to SessionList.
	KindSessionList = "session_list"
	// KindSession is the result of NewSession, Switch, Rename and
	// Delete; Data decodes to SessionInfo, and its "action" says
	// which (servers before it send only the text).
	KindSession = "session"
	// KindHistory is the result of History; Data decodes to History.
	KindHistory = "history"
	// KindCleared is the result of Clear.
	KindCleared = "cleared"
	// KindModels is the result of Model; Data decodes to ModelList.
	KindModels = "models"
)

// Result is the reply to a session, history or model command: the RESULT
// frame's kind and data, and the human-readable text that followed it.
type Result struct {
	// Kind names the result (Kind* constants); empty if the server sent
	// no RESULT frame.
	Kind string
	// Data is the RESULT frame's raw "data" value.
	Data json.RawMessage
	// Text is the reply's CHAT_TEXT, meant for people.
	Text string
}

// Decode unmarshals r.Data into v, e.g. a *SessionList for KindSessionList.
func (r Result) Decode(v any) error {
	if len(r.Data) == 0 {
		return fmt.Errorf("%w: result %q has no data", ErrProtocol, r.Kind)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		return fmt.Errorf("%w: decoding %q result: %w", ErrProtocol, r.Kind, err)
	}
	return nil
}

// SessionInfo describes one conversation.
type SessionInfo struct {
	// SessionID identifies the conversation.
	SessionID string `json:"session_id"`
	// Title is a short human-readable name.
	Title string `json:"title"`
	// CreatedAt and UpdatedAt are timestamps as the server formats them.
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// Messages is the number of messages in the conversation.
	Messages int `json:"messages"`
	// Uploads is the number of files uploaded to it.
	Uploads int `json:"uploads"`
}

// SessionList is the data of a KindSessionList result.
type SessionList struct {
	// Current is the connection's current conversation.
	Current string `json:"current"`
	// Sessions lists every conversation, or a page of them.
	Sessions []SessionInfo `json:"sessions"`
	// Next is the cursor of the following page (SessionsPage); "" on
	// the last page and for a whole list.
	Next string `json:"next,omitempty"`
}

// HistoryMessage is one message of a conversation.
type HistoryMessage struct {
	// Role is "user" or "assistant" (or another role the server records).
	Role string `json:"role"`
	// Content is the message text.
	Content string `json:"content"`
	// Time is when the message was recorded, as the server formats it.
	Time string `json:"time"`
}

// History is the data of a KindHistory result.
type History struct {
	// SessionID is the conversation the history belongs to.
	SessionID string `json:"session_id"`
	// Messages are the conversation's messages, oldest first.
	Messages []HistoryMessage `json:"messages"`
	// Uploads are the files uploaded to the conversation.
	Uploads []nplt.UploadDonePayload `json:"uploads"`
}

// ModelList is the data of a KindModels result.
type ModelList struct {
	// Current is the model in use.
	Current string `json:"current"`
	// Models lists the configured models.
	Models []string `json:"models"`
}

// resultPayload is the wire form of a RESULT frame.
type resultPayload struct {
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// sessionHint holds the fields of a result that name the current
// conversation: Current in a session list, SessionID in a session or a
// history.
type sessionHint struct {
	Current   string `json:"current"`
	SessionID string `json:"session_id"`
}
