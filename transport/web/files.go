package web

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/bytesize"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

// multipartSlack is what a multipart body may hold beyond the file:
// boundaries, part headers and the session_id field.
const multipartSlack = 64 << 10

// copyBuf is the buffer size for streaming an upload to disk.
const copyBuf = 256 << 10

// fileViews is ups in API replies, as an export shows them
// (chat.ExportFile): the server-side path stays out.
func fileViews(ups []history.Upload) []chat.ExportFile { return chat.ExportFiles(ups) }

// handleUpload stores the multipart field "file" in a conversation (field
// "session_id", else a new one). The part streams to the upload store's
// temp file, so memory use does not grow with the file; the store then
// checks, fsyncs and renames it, and the chat core records and indexes
// it. A file over the limit is refused with 413 and leaves nothing.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) {
	max := s.cfg.Chat.MaxUpload()
	if r.ContentLength > max+multipartSlack {
		s.writeError(w, r, errorf(http.StatusRequestEntityTooLarge, api.CodeTooLarge, fmt.Sprintf("upload larger than the %s limit", bytesize.Short(max))))
		return
	}
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "multipart/form-data" {
		s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, "upload wants multipart/form-data with a file field"))
		return
	}
	sr := newStallReader(w, r.Body, s.cfg.StallTimeout)
	defer sr.done()
	r.Body = http.MaxBytesReader(w, sr, max+multipartSlack)
	fail := func(err error) {
		sr.abandon()
		s.writeError(w, r, err)
	}
	mr, err := r.MultipartReader()
	if err != nil {
		fail(errorf(http.StatusBadRequest, api.CodeBadRequest, "bad multipart body: "+err.Error()))
		return
	}
	var (
		sessionID string
		se        *chat.Session
		pending   *uploads.Pending
	)
	defer func() {
		if pending != nil {
			pending.Abort() // no-op once committed
		}
	}()
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fail(s.bodyError(err))
			return
		}
		switch part.FormName() {
		case "session_id":
			b, err := io.ReadAll(io.LimitReader(part, 257))
			if err != nil || len(b) > 256 {
				fail(errorf(http.StatusBadRequest, api.CodeBadRequest, "bad session_id field"))
				return
			}
			sessionID = string(b)
			if sessionID != "" && se == nil {
				if se, err = s.sessions.get(s.principal(r), sessionID); err != nil {
					fail(err)
					return
				}
			}
		case "file":
			if pending != nil {
				fail(errorf(http.StatusBadRequest, api.CodeBadRequest, "one file per upload"))
				return
			}
			if pending, err = s.receive(part); err != nil {
				fail(err)
				return
			}
		default:
			io.Copy(io.Discard, io.LimitReader(part, multipartSlack))
		}
		part.Close()
	}
	if pending == nil {
		fail(errorf(http.StatusBadRequest, api.CodeBadRequest, `multipart field "file" is missing`))
		return
	}
	if se == nil {
		se = s.sessions.create(s.principal(r))
	}
	u, err := se.CommitUpload(pending, nil)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.cfg.Observer.UploadReceived(transportName, u.Size)
	s.log.Info("upload stored", zap.String("session", se.ID()), zap.String("file_id", u.FileID), zap.String("file", u.Filename), zap.Int64("size", u.Size))
	writeJSON(w, http.StatusOK, map[string]any{"file_id": u.FileID, "filename": u.Filename, "size": u.Size, "sha256": u.SHA256, "session_id": se.ID()})
}

// receive streams one file part into a new pending upload.
func (s *Server) receive(part *multipart.Part) (*uploads.Pending, error) {
	p, err := s.cfg.Chat.BeginStreamUpload(part.FileName())
	if err != nil {
		return nil, err
	}
	buf := make([]byte, copyBuf)
	if _, err := io.CopyBuffer(onlyWriter{p}, part, buf); err != nil {
		p.Abort()
		return nil, s.bodyError(err)
	}
	p.End()
	return p, nil
}

// onlyWriter hides a Pending's other methods from io.CopyBuffer.
type onlyWriter struct{ io.Writer }

// bodyError maps an error reading the request body.
func (s *Server) bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) || errors.Is(err, uploads.ErrTooLarge) {
		return errorf(http.StatusRequestEntityTooLarge, api.CodeTooLarge, fmt.Sprintf("upload larger than the %s limit", bytesize.Short(s.cfg.Chat.MaxUpload())))
	}
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	if errors.Is(err, uploads.ErrQuota) {
		return s.classify(err)
	}
	return errorf(http.StatusBadRequest, api.CodeBadRequest, "reading the upload: "+err.Error())
}

// handleListFiles lists a conversation's uploads (?session_id=).
func (s *Server) handleListFiles(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("session_id")
	if id == "" {
		s.writeError(w, r, errorf(http.StatusBadRequest, api.CodeBadRequest, "session_id is required"))
		return
	}
	se, err := s.sessions.get(s.principal(r), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	_, ups := se.History()
	writeJSON(w, http.StatusOK, map[string]any{"session_id": se.ID(), "files": fileViews(ups)})
}
