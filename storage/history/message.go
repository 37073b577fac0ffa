package history

import "time"

// Message is one entry of a conversation, in the shape of a chat-completion
// message so the agent can rebuild its context from it.
type Message struct {
	// Role is "user", "assistant", "tool" or "system".
	Role    string `json:"role"`
	Content string `json:"content"`
	// ToolCalls are the tool calls an assistant message asked for.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID links a "tool" message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Name is the tool name of a "tool" message.
	Name string `json:"name,omitempty"`
	// Full is a "tool" message's complete result when Content, what the
	// model was given, had to be shortened.
	Full string `json:"full,omitempty"`
	// Cancelled marks an assistant message as the partial answer of a
	// turn the user cancelled: Content is the text streamed after the
	// turn's last recorded step (its tool calls and their results come
	// before it). Files written before cancel existed lack the field.
	Cancelled bool      `json:"cancelled,omitempty"`
	Time      time.Time `json:"time"`
}

// ToolCall is one tool invocation requested by the model.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Upload records a file uploaded into a conversation.
type Upload struct {
	FileID     string    `json:"file_id"`
	Filename   string    `json:"filename"`
	FilePath   string    `json:"file_path"`
	UploadedAt time.Time `json:"uploaded_at"`
	Size       int64     `json:"size"`
	SHA256     string    `json:"sha256"`
	Indexed    bool      `json:"indexed"`
}

// Summary describes a conversation for listings.
type Summary struct {
	ID        string    `json:"session_id"`
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	Messages  int       `json:"messages"`
	Uploads   int       `json:"uploads"`
	// Model is the model chosen for the conversation ("" until one is
	// chosen: the client's default applies).
	Model string `json:"model,omitempty"`
	// Owner is the principal that created the conversation ("" for
	// conversations recorded before ownership existed). It is never
	// sent to clients.
	Owner string `json:"-"`
}

// record is one line of a conversation file.
type record struct {
	Type string    `json:"type"`
	Time time.Time `json:"time"`
	ID   string    `json:"id,omitempty"`
	// Owner is set on the create record only.
	Owner string `json:"owner,omitempty"`
	// Model is set on the create record and on model records.
	Model   string   `json:"model,omitempty"`
	Message *Message `json:"message,omitempty"`
	Upload  *Upload  `json:"upload,omitempty"`
	FileID  string   `json:"file_id,omitempty"`
	// Title is set on a title record only; "" there restores the title
	// derived from the first user message.
	Title string `json:"title,omitempty"`
}

// Record types.
const (
	recCreate  = "create"
	recMessage = "message"
	recUpload  = "upload"
	recIndexed = "indexed"
	recClear   = "clear"
	recTitle   = "title"
	recModel   = "model"
)
