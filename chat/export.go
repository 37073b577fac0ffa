package chat

import (
	"errors"
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
// over HTTP and NPLT, and what the CLI reads at most (api.MaxExport,
// its one owner).
const MaxExport = api.MaxExport

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

// Export renders a conversation in format (ExportMarkdown, also for "":
// Transcript; ExportJSON: its stored messages, summary and uploads, one
// JSON document ending in a newline). It is the one owner of the
// export's bytes and of its rules: GET /api/sessions/{id}/export and
// NPLT SESSION_EXPORT send what Session.ExportTo makes with it, and map
// its errors. An unknown format is an *Error of api.CodeBadRequest; an
// export over MaxExport one of api.CodeTooLarge, in the conversation's
// language — refused before it is built when the stored text alone
// passes MaxExport (exportEstimate), else when building passes it. The
// bytes are built once, into one buffer.
func Export(sum history.Summary, msgs []history.Message, ups []history.Upload, format string) ([]byte, error) {
	format, size, err := checkExport(sum, msgs, ups, format)
	if err != nil {
		return nil, err
	}
	b, err := buildExport(format, sum, msgs, ups, size, MaxExport)
	if err != nil {
		return nil, exportBuildError(msgs, err)
	}
	return b, nil
}

// checkExport checks format ("" is ExportMarkdown) and the export's
// estimated size, returning the format and the size to reserve (at
// most MaxExport).
func checkExport(sum history.Summary, msgs []history.Message, ups []history.Upload, format string) (string, int, error) {
	format, err := exportFormat(format, msgs)
	if err != nil {
		return "", 0, err
	}
	floor, size := exportEstimate(format, sum, msgs, ups)
	if floor > MaxExport {
		return "", 0, &Error{Code: api.CodeTooLarge, Err: exportError{zh: chineseConversation(msgs), size: floor}}
	}
	return format, min(size, MaxExport), nil
}

// exportFormat checks format ("" is ExportMarkdown); msgs are the
// conversation whose language its error is in.
func exportFormat(format string, msgs []history.Message) (string, error) {
	switch format {
	case "":
		return ExportMarkdown, nil
	case ExportMarkdown, ExportJSON:
		return format, nil
	}
	return "", &Error{Code: api.CodeBadRequest, Err: exportError{zh: chineseConversation(msgs), format: format}}
}

// exportBuildError is buildExport's error as an *Error.
func exportBuildError(msgs []history.Message, err error) error {
	if errors.Is(err, errExportOver) {
		return &Error{Code: api.CodeTooLarge, Err: exportError{zh: chineseConversation(msgs), over: true}}
	}
	return &Error{Code: api.CodeInternal, Err: err}
}

// Exported is one conversation's export, as ExportTo hands it over.
type Exported struct {
	// Summary describes the conversation exported.
	Summary history.Summary
	// Format is ExportMarkdown or ExportJSON.
	Format string
	// Data is the export's bytes; send must not keep them.
	Data []byte
}

// ExportTo exports the conversation with this id or unique id prefix,
// among those the session's principal sees (another user's is not
// found), or the session's current one, saved or not, in format (see
// the function Export), and calls send with it. The bytes count against
// the service's export budget (Config.ExportBudget) from before they are
// built until send returns: an export that does not fit is refused with
// an *Error of api.CodeServerBusy (retryable), so exports at once hold
// at most the budget, over every transport. send's error is returned.
func (se *Session) ExportTo(id, format string, send func(Exported) error) error {
	c := se.current()
	if _, err := exportFormat(format, c.Messages()); err != nil {
		return err // before the id: a bad request whatever it names
	}
	if id != c.ID() {
		var err error
		if c, err = se.resolve(id); err != nil {
			return err
		}
	}
	sum, msgs, ups := c.Summary(), c.Messages(), c.Uploads()
	format, size, err := checkExport(sum, msgs, ups, format)
	if err != nil {
		return err
	}
	budget := se.svc.exports
	held := int64(size)
	who := se.who.ID
	if !budget.take(who, held) {
		return &Error{Code: api.CodeServerBusy, Err: exportError{zh: chineseConversation(msgs), busy: true}}
	}
	defer func() { budget.give(who, held) }()
	b, err := buildExport(format, sum, msgs, ups, size, size)
	if errors.Is(err, errExportOver) && size < MaxExport { // escapes made the JSON longer than expected
		if !budget.take(who, MaxExport-held) {
			return &Error{Code: api.CodeServerBusy, Err: exportError{zh: chineseConversation(msgs), busy: true}}
		}
		held = MaxExport
		b, err = buildExport(format, sum, msgs, ups, MaxExport, MaxExport)
	}
	if err != nil {
		return exportBuildError(msgs, err)
	}
	return send(Exported{Summary: sum, Format: format, Data: b})
}

// exportError is the user's view of an export refused: an unknown
// format, one over MaxExport (size > 0: its stored text alone is size
// bytes; over: building it passed the limit), or the server's export
// budget in use (busy).
type exportError struct {
	zh     bool
	format string
	size   int
	over   bool
	busy   bool
}

func (e exportError) Error() string {
	limit := bytesize.Short(MaxExport)
	switch {
	case e.busy && e.zh:
		return "服务器正在导出其他对话，请稍后再试"
	case e.busy:
		return "the server is busy exporting other conversations; try again in a moment"
	case e.size > 0 && e.zh:
		return fmt.Sprintf("对话导出至少有 %s，超过上限 %s", bytesize.Over(int64(e.size), MaxExport), limit)
	case e.size > 0:
		return fmt.Sprintf("the conversation's export is at least %s, over the %s limit", bytesize.Over(int64(e.size), MaxExport), limit)
	case e.over && e.zh:
		return "对话导出超过上限 " + limit
	case e.over:
		return "the conversation's export is over the " + limit + " limit"
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
