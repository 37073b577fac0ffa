package npltserver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
	"opsassist/storage/history"
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
		return c.enqueueError(api.CodeUploadInProgress, "FILE_METADATA during an upload: the earlier upload was aborted; send it again")
	}
	m, bad := parseFileMeta(f.Payload)
	if bad != nil {
		c.discarding = true
		return c.enqueueError(bad.code, bad.msg)
	}
	p, err := c.sess.BeginUpload(m.Filename, m.Size, m.SHA256)
	if err != nil {
		c.discarding = true
		return c.enqueueError(uploadRefusal(err))
	}
	c.log.Info("upload started", zap.String("file", p.Name()), zap.Int64("size", m.Size))
	c.upload = p
	c.uploadSeen = time.Now()
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
		return c.enqueueError(api.CodeUploadNoMetadata, "FILE_DATA without FILE_METADATA")
	}
	if _, err := c.upload.Write(f.Payload); err != nil {
		c.abortUpload(err.Error())
		c.discarding = true
		return c.enqueueError(uploadRefusal(err))
	}
	if len(f.Payload) > 0 {
		c.uploadSeen = time.Now()
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
	if c.commitInline(p) {
		return true
	}
	return c.enqueueJob(job{drop: p.Abort, run: func(context.Context) {
		if _, err := c.sess.CommitUpload(p, c.confirmUpload); err != nil {
			c.log.Warn("upload refused", zap.String("file", p.Name()), zap.Error(err))
			c.replyError(uploadRefusal(err))
		}
	}})
}

// confirmUpload sends a stored upload's confirmation reply: UPLOAD_DONE
// to HELLO clients, then the text. The chat core calls it before indexing
// starts, so UPLOAD_INDEXED, which goes through the same queue, always
// comes after it.
func (c *conn) confirmUpload(u history.Upload) {
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
}

// expireStalledUpload aborts the upload in progress if it received no
// file data for UploadStallTimeout, and tells the client (upload_timeout;
// FILE_DATA still on its way is dropped quietly). Only data counts as
// progress: PINGs, PONGs and other frames do not, so a client cannot hold
// an upload, and the temp file and quota bytes it has written, open by
// keeping the connection alive. It returns when the upload in progress
// will stall (zero with none), and false if the connection is closing.
func (c *conn) expireStalledUpload() (stallAt time.Time, ok bool) {
	if c.upload == nil {
		return time.Time{}, true
	}
	timeout := c.srv.cfg.UploadStallTimeout
	stallAt = c.uploadSeen.Add(timeout)
	if time.Now().Before(stallAt) {
		return stallAt, true
	}
	c.abortUpload("no file data for " + timeout.String())
	c.discarding = true
	return time.Time{}, c.enqueueError(api.CodeUploadTimeout, fmt.Sprintf(
		"上传超时：%s 内没有收到文件数据，上传已取消，请重新发送。upload timed out: no file data for %s; the upload was aborted, send the file again.", timeout, timeout))
}

// abortUpload discards the upload in progress.
func (c *conn) abortUpload(why string) {
	c.log.Info("upload aborted", zap.String("file", c.upload.Name()), zap.Int64("received", c.upload.Received()), zap.String("reason", why))
	c.upload.Abort()
	c.upload = nil
}

// uploadRefusal is the code and message a client gets for a refused
// upload: the reason as chat.Message words it or, for a
// failure on the server's side (disk full, …), a generic message; the
// log has the details, which name server paths.
func uploadRefusal(err error) (code, msg string) {
	code = uploadCode(err)
	var qe *uploads.QuotaError
	if errors.As(err, &qe) {
		return code, qe.Message()
	}
	var se *uploads.SizeError
	if errors.As(err, &se) {
		return code, se.Message()
	}
	if code == api.CodeInternal {
		return code, "the upload could not be stored because of a server error; try again later (服务器错误，上传未能保存，请稍后重试)"
	}
	return code, chat.Message(err)
}

// uploadCode maps an upload error to its protocol code.
func uploadCode(err error) string {
	switch {
	case errors.Is(err, uploads.ErrQuota):
		return api.CodeQuotaExceeded
	case errors.Is(err, uploads.ErrTooLarge):
		return api.CodeUploadTooLarge
	case errors.Is(err, uploads.ErrOverflow):
		return api.CodeUploadOverflow
	case errors.Is(err, uploads.ErrChecksum):
		return api.CodeUploadChecksum
	case errors.Is(err, uploads.ErrBadName):
		return api.CodeUploadBadName
	case errors.Is(err, uploads.ErrBadSize), errors.Is(err, uploads.ErrBadChecksum):
		return api.CodeBadRequest
	}
	return chatCode(err)
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
