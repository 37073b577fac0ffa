package server

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	"opsassist/nplt"
	"opsassist/server/chat"
	"opsassist/storage/uploads"
)

// progressStep is how often, in bytes, UPLOAD_PROGRESS is sent.
const progressStep = 1 << 20

// handleFileMeta starts an upload. Every check happens before a byte is
// stored; a refused upload puts the connection in discarding mode so the
// FILE_DATA frames already on their way are dropped quietly.
func (c *conn) handleFileMeta(f nplt.Frame) bool {
	if c.upload != nil {
		c.abortUpload("a new FILE_METADATA arrived")
		c.discarding = true
		return c.enqueueError(nplt.CodeUploadInProgress, "FILE_METADATA during an upload: the earlier upload was aborted; send it again")
	}
	var m nplt.FileMeta
	if err := unmarshalStrict(f.Payload, &m); err != nil {
		c.discarding = true
		return c.enqueueError(nplt.CodeBadJSON, `FILE_METADATA wants JSON {"filename","size","sha256"?}: `+err.Error())
	}
	p, err := c.sess.BeginUpload(m.Filename, m.Size, m.SHA256)
	if err != nil {
		c.discarding = true
		return c.enqueueError(uploadCode(err), uploadMessage(err))
	}
	c.log.Info("upload started", zap.String("file", p.Name()), zap.Int64("size", m.Size))
	c.upload = p
	c.nextReport = progressStep
	if p.Complete() {
		return c.commitUpload()
	}
	return true
}

// handleFileData appends a chunk to the upload in progress.
func (c *conn) handleFileData(f nplt.Frame) bool {
	if c.upload == nil {
		if c.discarding {
			return true
		}
		c.discarding = true
		return c.enqueueError(nplt.CodeUploadNoMetadata, "FILE_DATA without FILE_METADATA")
	}
	if _, err := c.upload.Write(f.Payload); err != nil {
		c.abortUpload(err.Error())
		c.discarding = true
		return c.enqueueError(uploadCode(err), uploadMessage(err))
	}
	if p := c.upload; c.ext.Load() && (p.Received() >= c.nextReport || p.Complete()) {
		c.nextReport = p.Received() + progressStep
		if b, err := marshal(nplt.UploadProgressPayload{Filename: p.Name(), Received: p.Received(), Size: p.Size()}); err == nil {
			c.trySend(nplt.UploadProgress, b)
		}
	}
	if c.upload.Complete() {
		return c.commitUpload()
	}
	return true
}

// commitUpload hands the completed upload to the worker, which stores it
// in the conversation current at that point in the request order, then
// confirms it.
func (c *conn) commitUpload() bool {
	p := c.upload
	c.upload = nil
	return c.enqueueJob(job{drop: p.Abort, run: func(context.Context) {
		u, err := c.sess.CommitUpload(p)
		if err != nil {
			c.log.Warn("upload refused", zap.String("file", p.Name()), zap.Error(err))
			c.replyError(uploadCode(err), uploadMessage(err))
			return
		}
		c.srv.cfg.Metrics.UploadReceived(transportName, u.Size)
		c.log.Info("upload stored", zap.String("file_id", u.FileID), zap.String("file", u.Filename), zap.Int64("size", u.Size))
		if c.ext.Load() {
			err := c.sendJSON(nplt.UploadDone, nplt.UploadDonePayload{
				FileID: u.FileID, Filename: u.Filename, Size: u.Size, SHA256: u.SHA256, SessionID: c.sess.ID(),
			})
			if err != nil {
				return
			}
		}
		c.textReply(fmt.Sprintf("✅ 文件上传成功 File uploaded: %s (file_id: %s, %d bytes, sha256 %s)", u.Filename, u.FileID, u.Size, u.SHA256[:12]))
	}})
}

// abortUpload discards the upload in progress.
func (c *conn) abortUpload(why string) {
	c.log.Info("upload aborted", zap.String("file", c.upload.Name()), zap.Int64("received", c.upload.Received()), zap.String("reason", why))
	c.upload.Abort()
	c.upload = nil
}

// uploadCode maps an upload error to its protocol code.
func uploadCode(err error) string {
	switch {
	case errors.Is(err, uploads.ErrQuota):
		return nplt.CodeQuotaExceeded
	case errors.Is(err, uploads.ErrTooLarge):
		return nplt.CodeUploadTooLarge
	case errors.Is(err, uploads.ErrOverflow):
		return nplt.CodeUploadOverflow
	case errors.Is(err, uploads.ErrChecksum):
		return nplt.CodeUploadChecksum
	case errors.Is(err, uploads.ErrBadName):
		return nplt.CodeUploadBadName
	case errors.Is(err, uploads.ErrBadSize), errors.Is(err, uploads.ErrBadChecksum):
		return nplt.CodeBadRequest
	}
	return chatCode(err)
}

// uploadMessage is the text of an upload refusal: a quota's own
// bilingual message, else the error.
func uploadMessage(err error) string {
	var qe *uploads.QuotaError
	if errors.As(err, &qe) {
		return qe.Message()
	}
	return err.Error()
}

// notifyIndexed tells a HELLO client whether its upload was indexed. It
// runs on an indexing goroutine and never blocks: if the connection's
// queue is full or closed, the notice is dropped (the file listing shows
// the indexed flag too).
func (c *conn) notifyIndexed(n chat.IndexNotice) {
	b, err := marshal(nplt.UploadIndexedPayload{FileID: n.FileID, Filename: n.Filename, SessionID: n.SessionID, Indexed: n.Indexed, Error: n.Error})
	if err != nil {
		return
	}
	c.trySend(nplt.UploadIndexed, b)
}
