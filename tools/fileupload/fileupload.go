// Package fileupload is the file_upload tool: it resolves references such
// as "this file", "these two", "the log I uploaded earlier" to the current
// conversation's uploads, and reads their text. It never transfers files;
// uploading is the transports' job.
package fileupload

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"opsassist/api"
	"opsassist/storage/history"
	"opsassist/tools"
)

// DefaultReadBudget is how much text a read returns by default.
const DefaultReadBudget = 32 << 10

// Tool is the file_upload tool.
type Tool struct {
	now    func() time.Time
	budget int
	// pdfSlot admits one PDF extraction at a time; it is released only
	// when the extraction really ends.
	pdfSlot chan struct{}
}

var _ tools.Tool = (*Tool)(nil)

// New returns the tool. now may be nil (time.Now); budget ≤ 0 means
// DefaultReadBudget.
func New(now func() time.Time, budget int) *Tool {
	if now == nil {
		now = time.Now
	}
	if budget <= 0 {
		budget = DefaultReadBudget
	}
	return &Tool{now: now, budget: budget, pdfSlot: make(chan struct{}, 1)}
}

const schema = `{
  "type": "object",
  "properties": {
    "action": {"type": "string", "enum": ["list", "get", "read"], "description": "list: find uploads; get: one upload by file_id; read: the text content of the referenced upload"},
    "reference": {"type": "string", "enum": ["this", "these", "previous", "all"], "description": "this = the newest upload; these = the newest count (default 2); previous = all but the newest; all = every upload of this conversation"},
    "file_type": {"type": "string", "description": "keep files whose name contains this, e.g. log, yaml, pdf"},
    "count": {"type": "integer", "minimum": 1, "maximum": 100},
    "time_range": {"type": "string", "enum": ["recent", "today"], "description": "recent = last 5 minutes"},
    "file_id": {"type": "string"}
  },
  "additionalProperties": false
}`

// Spec describes the tool.
func (t *Tool) Spec() tools.Spec {
	return tools.Spec{
		Name: "file_upload",
		Description: "管理本会话已上传文件的索引和上下文（不执行文件传输）。Find and read files the user uploaded in this conversation.\n" +
			"- \"这个文件里数据库端口是多少？\" → action=read, reference=this\n" +
			"- \"对比这两个配置文件\" → action=list, reference=these, count=2\n" +
			"- \"我之前上传的日志文件\" → action=list, reference=previous, file_type=log\n" +
			"- \"查看我上传的所有文件\" → action=list, reference=all\n" +
			"关键词：这个、那个、这两个、之前上传的、我上传的、所有文件",
		Summary: api.Text{Zh: "查找和读取本对话中上传的文件（不执行文件传输）。",
			En: "Find and read the files uploaded in this conversation (no file transfer)."},
		Parameters: json.RawMessage(schema),
		Risk:       tools.RiskReadOnly,
		Timeout:    10 * time.Second,
	}
}

// Args are the tool's arguments.
type Args struct {
	Action    string `json:"action"`
	Reference string `json:"reference"`
	FileType  string `json:"file_type"`
	Count     int    `json:"count"`
	TimeRange string `json:"time_range"`
	FileID    string `json:"file_id"`
}

// File is one upload as the tool reports it.
type File struct {
	FileID     string `json:"file_id"`
	Filename   string `json:"filename"`
	FilePath   string `json:"file_path"`
	UploadedAt string `json:"uploaded_at"`
	Size       int64  `json:"size"`
	Indexed    bool   `json:"indexed"`
}

// ListOutput is the output of list.
type ListOutput struct {
	Total int    `json:"total"`
	Files []File `json:"files"`
}

// ReadOutput is the output of read.
type ReadOutput struct {
	File
	Content   string `json:"content"`
	Truncated bool   `json:"truncated"`
}

// Errors reported to the model.
var (
	ErrNoUploads = errors.New("no files have been uploaded in this conversation")
	ErrNotFound  = errors.New("no upload with that file_id in this conversation")
	ErrBinary    = errors.New("file is not text")
)

// Run performs the action on the call's uploads.
func (t *Tool) Run(ctx context.Context, call *tools.Call, raw json.RawMessage) (any, error) {
	var a Args
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	if a.Action == "" {
		a.Action = "list"
	}
	switch a.Action {
	case "get":
		u, err := byID(call.Uploads, a.FileID)
		if err != nil {
			return nil, err
		}
		return file(u), nil
	case "read":
		return t.read(ctx, call.Uploads, a)
	}
	files := t.Select(call.Uploads, a)
	out := ListOutput{Total: len(files), Files: make([]File, len(files))}
	for i, u := range files {
		out.Files[i] = file(u)
	}
	return out, nil
}

// Select applies the reference semantics of the tool contract to uploads
// (oldest first): this = the newest; these = the newest count (default 2);
// previous = all but the newest; all = all. Then file_type keeps names
// containing it, time_range keeps recent (5 minutes) or today's uploads,
// and count, for references other than these, keeps the first count.
func (t *Tool) Select(uploads []history.Upload, a Args) []history.Upload {
	files := uploads
	switch a.Reference {
	case "this":
		files = files[max(0, len(files)-1):]
	case "these":
		n := a.Count
		if n == 0 {
			n = 2
		}
		files = files[max(0, len(files)-n):]
	case "previous":
		files = files[:max(0, len(files)-1)]
	}
	var out []history.Upload
	now := t.now()
	for _, f := range files {
		if a.FileType != "" && !strings.Contains(strings.ToLower(f.Filename), strings.ToLower(a.FileType)) {
			continue
		}
		switch a.TimeRange {
		case "recent":
			if f.UploadedAt.Before(now.Add(-5 * time.Minute)) {
				continue
			}
		case "today":
			y, m, d := now.Date()
			if f.UploadedAt.Before(time.Date(y, m, d, 0, 0, 0, 0, now.Location())) {
				continue
			}
		}
		out = append(out, f)
	}
	if a.Count > 0 && a.Reference != "these" && len(out) > a.Count {
		out = out[:a.Count]
	}
	return out
}

// read returns the text of the upload named by file_id, or else the
// newest one the reference selects.
func (t *Tool) read(ctx context.Context, uploads []history.Upload, a Args) (any, error) {
	if len(uploads) == 0 {
		return nil, tools.WithCode(tools.CodeNoUploads, ErrNoUploads)
	}
	var u history.Upload
	if a.FileID != "" {
		var err error
		if u, err = byID(uploads, a.FileID); err != nil {
			return nil, err
		}
	} else {
		if a.Reference == "" {
			a.Reference = "this"
		}
		sel := t.Select(uploads, a)
		if len(sel) == 0 {
			return nil, fmt.Errorf("no upload matches reference %q file_type %q", a.Reference, a.FileType)
		}
		u = sel[len(sel)-1]
	}
	f, err := openUpload(u)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u.Filename, err)
	}
	var content string
	var truncated bool
	if isPDF(f) {
		// readPDF owns f from here: an extraction may outlive the call.
		content, truncated, err = t.readPDF(ctx, f)
	} else {
		content, truncated, err = readText(f, t.budget)
		f.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u.Filename, err)
	}
	return ReadOutput{File: file(u), Content: content, Truncated: truncated}, nil
}

// readText reads up to budget bytes of the text file f from its start,
// cut on a rune boundary. Files with NUL bytes or invalid UTF-8 are
// refused as binary. PDFs go through pdfText instead.
func readText(f *os.File, budget int) (string, bool, error) {
	buf := make([]byte, budget+1)
	n, err := io.ReadFull(io.NewSectionReader(f, 0, int64(budget)+1), buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", false, err
	}
	return cutRunes(buf[:n], budget)
}

// cutRunes returns b as text, cut to budget bytes without splitting a
// rune. NUL bytes or invalid UTF-8 mean binary content.
func cutRunes(buf []byte, budget int) (string, bool, error) {
	truncated := len(buf) > budget
	if truncated {
		buf = buf[:budget]
		// Drop a rune the budget cut in half.
		i := len(buf) - 1
		for i > 0 && len(buf)-i < utf8.UTFMax && !utf8.RuneStart(buf[i]) {
			i--
		}
		if i >= 0 && !utf8.FullRune(buf[i:]) {
			buf = buf[:i]
		}
	}
	if bytes.IndexByte(buf, 0) >= 0 || !utf8.Valid(buf) {
		return "", false, fmt.Errorf("%w (binary content); only text and PDF files can be read", ErrBinary)
	}
	return string(buf), truncated, nil
}

func byID(uploads []history.Upload, id string) (history.Upload, error) {
	for _, u := range uploads {
		if u.FileID == id {
			return u, nil
		}
	}
	return history.Upload{}, fmt.Errorf("%w: %q", ErrNotFound, id)
}

func file(u history.Upload) File {
	return File{FileID: u.FileID, Filename: u.Filename, FilePath: u.FilePath,
		UploadedAt: u.UploadedAt.Local().Format(time.DateTime), Size: u.Size, Indexed: u.Indexed}
}
