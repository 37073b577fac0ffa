package nplt

import "encoding/json"

// Status is the JSON payload of an AgentThought frame. Type is one of
// the api.Status* names.
type Status struct {
	Type    string `json:"type"`
	Content string `json:"content,omitempty"`
	// SessionID is set on stream_start so a client knows which
	// conversation the reply belongs to.
	SessionID string `json:"session_id,omitempty"`
}

// ErrorPayload is the JSON payload of an Error frame. Code is one of the
// api.Code* codes; docs/protocol/nplt.md lists when each is sent. A
// DownloadOffer frame's payload is an api.Offer.
type ErrorPayload struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// HelloPayload is the JSON payload of a client's Hello frame.
type HelloPayload struct {
	Client     string `json:"client"`
	Version    string `json:"version"`
	ClientType string `json:"client_type"` // api.ClientCLI, ClientDesktop or ClientWeb
	Token      string `json:"token,omitempty"`
	// SessionID, when set, resumes that conversation instead of the new
	// one the connection started in.
	SessionID string `json:"session_id,omitempty"`
}

// HelloReply is the JSON payload of the server's Hello frame.
type HelloReply struct {
	Server    string   `json:"server"`
	Version   string   `json:"version"`
	SessionID string   `json:"session_id"`
	Model     string   `json:"model"`
	MaxUpload int64    `json:"max_upload"`
	Features  []string `json:"features"`
	// RDTAddr is the UDP address of the server's RDT download server,
	// the same one its download offers carry (additive; empty from an
	// older server or one without RDT).
	RDTAddr string `json:"rdt_addr,omitempty"`
}

// FeatureCancel, in HelloReply.Features, says the server stops the
// running turn on a CANCEL frame; a client sends CANCEL only to a
// server that announced it.
const FeatureCancel = "cancel"

// FeatureTools, in HelloReply.Features, says the server answers
// TOOL_LIST and TOOL_CALL; a client sends them only to a server that
// announced it.
const FeatureTools = "tools"

// FeatureRename, in HelloReply.Features, says the server answers
// SESSION_RENAME; a client sends it only to a server that announced it.
const FeatureRename = "rename"

// FeatureSessionSearch, in HelloReply.Features, says the server takes a
// SessionSearch payload on SESSION_LIST; a client sends one only to a
// server that announced it (an older one would list everything).
const FeatureSessionSearch = "session_search"

// FeatureExport, in HelloReply.Features, says the server answers
// SESSION_EXPORT.
const FeatureExport = "session_export"

// FeatureSessionPaging, in HelloReply.Features, says the server pages
// SESSION_LIST (SessionSearch Limit and Before).
const FeatureSessionPaging = "session_paging"

// FeaturePermissionReason, in HelloReply.Features, says the server takes
// PERMISSION_RESPONSE's "reason" (api.ReasonNoTerminal); clients send it
// only then (an older server refuses an unknown field).
const FeaturePermissionReason = "permission_reason"

// SessionSearch is the optional JSON payload of SessionList: list only
// the conversations whose title or messages contain Q, ignoring case;
// with Limit, at most Limit of them (1–500) after the cursor Before (the
// previous page's "next"; "": from the start).
type SessionSearch struct {
	Q      string `json:"q"`
	Limit  int    `json:"limit,omitempty"`
	Before string `json:"before,omitempty"`
}

// ToolCallPayload is the JSON payload of a client's ToolCall frame.
type ToolCallPayload struct {
	// Name is the tool, as the catalog lists it.
	Name string `json:"name"`
	// Arguments is the tool's arguments object; absent or null: {}.
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// FileMeta is the JSON payload of a FileMetadata frame.
type FileMeta struct {
	Filename string `json:"filename"`
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256,omitempty"`
}

// UploadProgressPayload is the JSON payload of an UploadProgress frame.
type UploadProgressPayload struct {
	Filename string `json:"filename"`
	Received int64  `json:"received"`
	Size     int64  `json:"size"`
}

// SessionRef is the JSON payload of SessionSwitch and SessionDelete.
type SessionRef struct {
	SessionID string `json:"session_id"`
}

// SessionExportPayload asks for a conversation's export: its id (or
// unique id prefix) and the format, "md" (the default when empty) or
// "json".
type SessionExportPayload struct {
	SessionID string `json:"session_id"`
	Format    string `json:"format,omitempty"`
}

// SessionRenamePayload is the JSON payload of SessionRename: the new
// title of the current conversation; "" restores the title derived from
// its first message.
type SessionRenamePayload struct {
	Title *string `json:"title"`
}

// ModelRequest is the JSON form of a ModelSwitch payload; a plain-text
// payload naming the model is accepted too.
type ModelRequest struct {
	Model string `json:"model"`
}

// ResultPayload is the JSON payload of a Result frame. Kind names the
// command ("session_list", "history", "models", "session", "cleared");
// Data holds its structured result.
type ResultPayload struct {
	Kind string `json:"kind"`
	Data any    `json:"data"`
}

// HeartbeatText is the published heartbeat: a ChatText frame whose payload
// is exactly this text.
const HeartbeatText = "HEARTBEAT"

// UploadIndexedPayload is the JSON payload of an UploadIndexed frame.
type UploadIndexedPayload struct {
	FileID    string `json:"file_id"`
	Filename  string `json:"filename"`
	SessionID string `json:"session_id"`
	Indexed   bool   `json:"indexed"`
	Error     string `json:"error,omitempty"`
}

// UploadDonePayload is the JSON payload of an UploadDone frame.
type UploadDonePayload struct {
	FileID    string `json:"file_id"`
	Filename  string `json:"filename"`
	Size      int64  `json:"size"`
	SHA256    string `json:"sha256"`
	SessionID string `json:"session_id"`
}

// FileRequestPayload is the JSON payload of a FileRequest frame.
type FileRequestPayload struct {
	DownloadToken string `json:"download_token"`
}
