package chat

// Kind is the type of an Event.
type Kind string

// Event kinds, in the order a reply emits them: one StreamStart, any mix of
// Status, Delta, Offer and Error, then one End.
const (
	KindStreamStart Kind = "stream_start"
	KindStatus      Kind = "status"
	KindDelta       Kind = "delta"
	KindOffer       Kind = "download_offer"
	KindError       Kind = "error"
	KindEnd         Kind = "end"
)

// Status types carried by KindStatus events.
const (
	StatusThinking   = "thinking"
	StatusToolCall   = "tool_call"
	StatusToolResult = "tool_result"
	StatusGenerating = "generating"
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
	Offer *Offer `json:"offer,omitempty"`
	// Error is set on KindError.
	Error *ErrorInfo `json:"error,omitempty"`
}

// Status is an agent progress update.
type Status struct {
	Type    string `json:"type"`
	Content string `json:"content"`
}

// Offer is a file the agent offers for download. The JSON field names are
// those of the file_download tool's contract, on every transport.
type Offer struct {
	TransportMode string `json:"transport_mode"`
	DownloadToken string `json:"download_token,omitempty"`
	DownloadURL   string `json:"download_url,omitempty"`
	Filename      string `json:"filename"`
	FileSize      int64  `json:"file_size"`
	SHA256        string `json:"sha256,omitempty"`
	RDTAddr       string `json:"rdt_addr,omitempty"`
	ExpiresAt     string `json:"expires_at,omitempty"`
}

// ErrorInfo is a user-visible error with a stable code.
type ErrorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error codes produced by the chat core, shared by all transports.
const (
	CodeBadRequest = "bad_request"
	CodeNotFound   = "not_found"
	CodeModel      = "unknown_model"
	CodeAgent      = "agent_error"
	CodeInternal   = "internal"
	CodeTooLarge   = "too_large"
)

// Error is an error with a code a transport can send to its client.
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
