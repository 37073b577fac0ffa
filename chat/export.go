package chat

import (
	"encoding/json"
	"fmt"
	"time"

	"opsassist/api"
	"opsassist/internal/bytesize"
	"opsassist/storage/history"
)

// Export formats: the Markdown transcript and the stored JSON.
const (
	ExportMarkdown = "md"
	ExportJSON     = "json"
)

// MaxExport bounds one conversation's export (32 MiB): the same bound
// over HTTP and NPLT, and what the CLI reads at most.
const MaxExport = 32 << 20

// ExportFile is an upload in a JSON export: the record without the
// server's path.
type ExportFile struct {
	FileID     string    `json:"file_id"`
	Filename   string    `json:"filename"`
	Size       int64     `json:"size"`
	SHA256     string    `json:"sha256"`
	UploadedAt time.Time `json:"uploaded_at"`
	Indexed    bool      `json:"indexed"`
}

// ExportFiles is ups as a JSON export and the HTTP API show them.
func ExportFiles(ups []history.Upload) []ExportFile {
	out := make([]ExportFile, 0, len(ups))
	for _, u := range ups {
		out = append(out, ExportFile{FileID: u.FileID, Filename: u.Filename, Size: u.Size, SHA256: u.SHA256, UploadedAt: u.UploadedAt, Indexed: u.Indexed})
	}
	return out
}

// exportDoc is a JSON export; its fields are in the order the HTTP API
// has always written them.
type exportDoc struct {
	Messages []history.Message `json:"messages"`
	Session  history.Summary   `json:"session"`
	Uploads  []ExportFile      `json:"uploads"`
}

// Export renders a conversation in format (ExportMarkdown: Transcript;
// ExportJSON: its summary, stored messages and uploads, one JSON
// document ending in a newline). It is the one owner of the export's
// bytes: GET /api/sessions/{id}/export and NPLT SESSION_EXPORT send
// what it returns. An unknown format is an *Error of api.CodeBadRequest;
// an export over MaxExport one of api.CodeTooLarge, in the
// conversation's language.
func Export(sum history.Summary, msgs []history.Message, ups []history.Upload, format string) ([]byte, error) {
	var b []byte
	switch format {
	case ExportMarkdown:
		b = []byte(Transcript(sum, msgs, ups))
	case ExportJSON:
		if msgs == nil {
			msgs = []history.Message{}
		}
		j, err := json.Marshal(exportDoc{Messages: msgs, Session: sum, Uploads: ExportFiles(ups)})
		if err != nil {
			return nil, &Error{Code: api.CodeInternal, Err: fmt.Errorf("encoding the export: %w", err)}
		}
		b = append(j, '\n')
	default:
		return nil, &Error{Code: api.CodeBadRequest, Err: exportError{zh: chineseConversation(msgs), format: format}}
	}
	if len(b) > MaxExport {
		return nil, &Error{Code: api.CodeTooLarge, Err: exportError{zh: chineseConversation(msgs), size: len(b)}}
	}
	return b, nil
}

// Export renders the conversation with this id or unique id prefix,
// among those the session's principal sees (another user's is not
// found), or the session's current one, saved or not, in format (see
// the function Export).
func (se *Session) Export(id, format string) ([]byte, error) {
	c := se.current()
	if id != c.ID() {
		var err error
		if c, err = se.resolve(id); err != nil {
			return nil, err
		}
	}
	return Export(c.Summary(), c.Messages(), c.Uploads(), format)
}

// exportError is the user's view of an export refused: an unknown
// format, or one over MaxExport (size > 0).
type exportError struct {
	zh     bool
	format string
	size   int
}

func (e exportError) Error() string {
	switch {
	case e.size > 0 && e.zh:
		return fmt.Sprintf("对话导出有 %s，超过上限 %s", bytesize.Short(int64(e.size)), bytesize.Short(MaxExport))
	case e.size > 0:
		return fmt.Sprintf("the conversation's export is %s, over the %s limit", bytesize.Short(int64(e.size)), bytesize.Short(MaxExport))
	case e.zh:
		return fmt.Sprintf("导出格式只能是 md 或 json，不是 %q", e.format)
	}
	return fmt.Sprintf(`format must be "md" or "json", not %q`, e.format)
}

// chineseConversation reports whether the user wrote Chinese in msgs:
// a transcript's headings and an export's errors are then in Chinese.
func chineseConversation(msgs []history.Message) bool {
	for _, m := range msgs {
		if m.Role == "user" && IsChinese(m.Content) {
			return true
		}
	}
	return false
}
