package nplt

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// HeaderSize is the size in bytes of an NPLT frame header.
const HeaderSize = 5

// MaxPayload is the largest payload a frame can carry.
const MaxPayload = 65535

// Type identifies the kind of an NPLT frame.
type Type uint8

// Published NPLT v2 frame types.
const (
	// ChatText carries UTF-8 chat text in either direction. An empty
	// ChatText from the server ends a reply.
	ChatText Type = 0x01
	// AgentThought carries a JSON Status from the server.
	AgentThought Type = 0x0A
	// DownloadOffer carries a JSON api.Offer from the server.
	DownloadOffer Type = 0x0C
	// FileData carries raw upload bytes from the client.
	FileData Type = 0x0D
	// FileMetadata starts an upload with a JSON FileMeta.
	FileMetadata Type = 0x0E
	// ModelSwitch selects a model by name (plain text or JSON {"model"}).
	ModelSwitch Type = 0x0F
	// HistoryRequest asks for the current conversation's history.
	HistoryRequest Type = 0x10
	// ClearRequest clears the current conversation's history.
	ClearRequest Type = 0x11
	// SessionList asks for the list of conversations.
	SessionList Type = 0x14
	// SessionSwitch switches to a conversation (JSON {"session_id"}).
	SessionSwitch Type = 0x15
	// SessionNew starts a new conversation.
	SessionNew Type = 0x16
	// SessionDelete deletes a conversation (JSON {"session_id"}).
	SessionDelete Type = 0x17
	// ClientUDPPort tells the server the client's UDP port for RDT.
	ClientUDPPort Type = 0x18
)

// Extension frame types. The server sends these only to clients that sent
// Hello.
const (
	// Hello identifies the client (JSON HelloPayload); the server answers
	// with a Hello carrying HelloReply.
	Hello Type = 0x20
	// Error reports a failed request as JSON ErrorPayload. The connection
	// stays usable unless the error says otherwise.
	Error Type = 0x21
	// Ping asks the peer to answer with Pong; the payload is echoed.
	Ping Type = 0x22
	// Pong answers Ping with the same payload.
	Pong Type = 0x23
	// UploadProgress reports bytes received for the upload in progress.
	UploadProgress Type = 0x24
	// UploadDone reports a committed upload as JSON UploadRecord.
	UploadDone Type = 0x25
	// Result carries the structured JSON result of a command (session
	// list, history, model list) before its human-readable reply.
	Result Type = 0x26
	// FileRequest asks the server to send a file named by a download
	// token over this connection (JSON FileRequestPayload), the fallback
	// when RDT's UDP is blocked. The reply is FILE_METADATA (JSON
	// FileMeta), the bytes as FILE_DATA frames, and the end; or ERROR.
	FileRequest Type = 0x27
	// UploadIndexed reports, outside any reply, that an upload was indexed
	// for search or why it was not (JSON UploadIndexedPayload).
	UploadIndexed Type = 0x2E
	// PermissionRequest (S→C, inside a reply) asks the user to allow a
	// tool call (JSON api.PermissionRequest); the turn waits for the
	// answer, the connection does not.
	PermissionRequest Type = 0x28
	// PermissionResponse (C→S) answers a PermissionRequest (JSON
	// api.PermissionResponse).
	PermissionResponse Type = 0x29
	// Question (S→C, inside a reply) is the ask_user tool's question
	// (JSON api.Question).
	Question Type = 0x2A
	// Answer (C→S) answers a Question (JSON api.Answer).
	Answer Type = 0x2B
	// Cancel (C→S, empty) stops the running turn.
	Cancel Type = 0x2C
	// PermissionGrants (C→S) lists the conversation's allow_session
	// grants (empty payload) or revokes one (JSON {"revoke":"<id>"}); the
	// reply is a RESULT of kind "permissions", text and the end.
	PermissionGrants Type = 0x2D
	// ToolList (C→S, empty) asks for the tool catalog; the reply is one
	// or more ToolList frames (S→C) whose payloads, concatenated, are the
	// api.Catalog JSON, then the end.
	ToolList Type = 0x2F
	// ToolCall (C→S) runs one tool directly (JSON ToolCallPayload) in
	// the connection's current conversation; the reply is one or more
	// ToolCall frames (S→C) whose payloads, concatenated, are the
	// api.ToolResult JSON, then the end.
	ToolCall Type = 0x30
	// SessionRename (C→S) sets the current conversation's title (JSON
	// SessionRenamePayload); the reply is a RESULT of kind "session",
	// text and the end.
	SessionRename Type = 0x31
	// SessionExport (C→S) exports a conversation (JSON
	// SessionExportPayload); the reply is one or more SessionExport
	// frames (S→C) whose payloads, concatenated, are the export's bytes
	// (Markdown or JSON, as GET /api/sessions/{id}/export sends them),
	// then the end; or ERROR, then the end.
	SessionExport Type = 0x32
)

var typeNames = map[Type]string{
	ChatText:           "CHAT_TEXT",
	AgentThought:       "AGENT_THOUGHT",
	DownloadOffer:      "DOWNLOAD_OFFER",
	FileData:           "FILE_DATA",
	FileMetadata:       "FILE_METADATA",
	ModelSwitch:        "MODEL_SWITCH",
	HistoryRequest:     "HISTORY_REQUEST",
	ClearRequest:       "CLEAR_REQUEST",
	SessionList:        "SESSION_LIST",
	SessionSwitch:      "SESSION_SWITCH",
	SessionNew:         "SESSION_NEW",
	SessionDelete:      "SESSION_DELETE",
	ClientUDPPort:      "CLIENT_UDP_PORT",
	Hello:              "HELLO",
	Error:              "ERROR",
	Ping:               "PING",
	Pong:               "PONG",
	UploadProgress:     "UPLOAD_PROGRESS",
	UploadDone:         "UPLOAD_DONE",
	Result:             "RESULT",
	FileRequest:        "FILE_REQUEST",
	UploadIndexed:      "UPLOAD_INDEXED",
	PermissionRequest:  "PERMISSION_REQUEST",
	PermissionResponse: "PERMISSION_RESPONSE",
	Question:           "QUESTION",
	Answer:             "ANSWER",
	Cancel:             "CANCEL",
	PermissionGrants:   "PERMISSION_GRANTS",
	ToolList:           "TOOL_LIST",
	ToolCall:           "TOOL_CALL",
	SessionRename:      "SESSION_RENAME",
	SessionExport:      "SESSION_EXPORT",
}

// String returns the protocol name of t, or TYPE_0xNN for unknown codes.
func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("TYPE_0x%02X", uint8(t))
}

// Known reports whether t is a type this package defines.
func (t Type) Known() bool {
	_, ok := typeNames[t]
	return ok
}

// Errors returned by the codec.
var (
	// ErrFrameTooLarge is returned when a payload exceeds MaxPayload.
	ErrFrameTooLarge = errors.New("nplt: frame too large")
	// ErrShortHeader is returned by Parse when fewer than HeaderSize bytes
	// are available, and by Reader when the stream ends inside a header.
	ErrShortHeader = errors.New("nplt: short header")
	// ErrShortPayload is returned when the data ends before Len payload
	// bytes.
	ErrShortPayload = errors.New("nplt: short payload")
)

// Frame is one NPLT message.
type Frame struct {
	Type    Type
	Seq     uint16
	Payload []byte
}

// Append appends the wire encoding of f to b. It returns ErrFrameTooLarge
// if the payload does not fit the 16-bit length field.
func (f Frame) Append(b []byte) ([]byte, error) {
	if len(f.Payload) > MaxPayload {
		return b, fmt.Errorf("%w: %d bytes", ErrFrameTooLarge, len(f.Payload))
	}
	var h [HeaderSize]byte
	putHeader(h[:], Header{Type: f.Type, Seq: f.Seq, Len: uint16(len(f.Payload))})
	return append(append(b, h[:]...), f.Payload...), nil
}

// Header is a decoded frame header.
type Header struct {
	Type Type
	Seq  uint16
	Len  uint16
}

func putHeader(b []byte, h Header) {
	b[0] = byte(h.Type)
	binary.BigEndian.PutUint16(b[1:3], h.Seq)
	binary.BigEndian.PutUint16(b[3:5], h.Len)
}

// ParseHeader decodes a header from the first HeaderSize bytes of b.
func ParseHeader(b []byte) (Header, error) {
	if len(b) < HeaderSize {
		return Header{}, ErrShortHeader
	}
	return Header{
		Type: Type(b[0]),
		Seq:  binary.BigEndian.Uint16(b[1:3]),
		Len:  binary.BigEndian.Uint16(b[3:5]),
	}, nil
}

// Parse decodes one frame from the front of b and returns it with the
// number of bytes consumed. The returned payload aliases b.
func Parse(b []byte) (Frame, int, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Frame{}, 0, err
	}
	n := HeaderSize + int(h.Len)
	if len(b) < n {
		return Frame{}, 0, ErrShortPayload
	}
	return Frame{Type: h.Type, Seq: h.Seq, Payload: b[HeaderSize:n:n]}, n, nil
}
