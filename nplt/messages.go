package nplt

// Status is the JSON payload of an AgentThought frame. Type is one of
// "stream_start", "thinking", "tool_call", "tool_result" or "generating".
type Status struct {
	Type    string `json:"type"`
	Content string `json:"content,omitempty"`
	// SessionID is set on stream_start so a client knows which
	// conversation the reply belongs to.
	SessionID string `json:"session_id,omitempty"`
}

// Status types sent in AgentThought frames.
const (
	StatusStreamStart = "stream_start"
	StatusThinking    = "thinking"
	StatusToolCall    = "tool_call"
	StatusToolResult  = "tool_result"
	StatusGenerating  = "generating"
)

// ErrorPayload is the JSON payload of an Error frame.
type ErrorPayload struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error codes carried in ErrorPayload.Code. docs/protocol/nplt.md lists
// when each is sent.
const (
	CodeBadRequest   = "bad_request"
	CodeUnknownType  = "unknown_type"
	CodeBadJSON      = "bad_json"
	CodeServerBusy   = "server_busy"
	CodeUnauthorized = "unauthorized"
	// CodeTooManyAttempts refuses an address that sent too many wrong
	// tokens lately; HTTP answers it with the same code.
	CodeTooManyAttempts  = "too_many_attempts"
	CodeIdleTimeout      = "idle_timeout"
	CodeShuttingDown     = "shutting_down"
	CodeUploadTooLarge   = "upload_too_large"
	CodeUploadNoMetadata = "upload_no_metadata"
	CodeUploadInProgress = "upload_in_progress"
	CodeUploadOverflow   = "upload_overflow"
	CodeUploadChecksum   = "upload_checksum"
	CodeUploadBadName    = "upload_bad_name"
	CodeQuotaExceeded    = "quota_exceeded"
	CodeNotFound         = "not_found"
	CodeTokenUnknown     = "token_unknown"
	CodeTokenExpired     = "token_expired"
	CodeFileChanged      = "file_changed"
	CodeUnknownModel     = "unknown_model"
	CodeInternal         = "internal"

	// CodeUploadTimeout aborts an upload that received no file data
	// for the server's upload stall timeout.
	CodeUploadTimeout = "upload_timeout"
)

// HelloPayload is the JSON payload of a client's Hello frame.
type HelloPayload struct {
	Client     string `json:"client"`
	Version    string `json:"version"`
	ClientType string `json:"client_type"` // "cli", "desktop" or "web"
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

// DownloadOfferPayload is the JSON payload of a DownloadOffer frame. The
// field names are those of the file_download tool's contract.
type DownloadOfferPayload struct {
	TransportMode string `json:"transport_mode"` // "rdt", "http" or "nplt"
	DownloadToken string `json:"download_token,omitempty"`
	DownloadURL   string `json:"download_url,omitempty"`
	Filename      string `json:"filename"`
	FileSize      int64  `json:"file_size"`
	SHA256        string `json:"sha256,omitempty"`
	RDTAddr       string `json:"rdt_addr,omitempty"`
	ExpiresAt     string `json:"expires_at,omitempty"`
}

// SessionRef is the JSON payload of SessionSwitch and SessionDelete.
type SessionRef struct {
	SessionID string `json:"session_id"`
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
