package npltserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/nplt"
	"opsassist/storage/tokens"
)

// downloadChunk is the FILE_DATA payload size of downloads over NPLT.
const downloadChunk = 32 << 10

// TokenStore redeems download tokens; *tokens.Store implements it.
type TokenStore interface {
	Redeem(c tokens.Claim, now time.Time) (tokens.Grant, error)
}

var _ TokenStore = (*tokens.Store)(nil)

// handleFileRequest queues the download of a token's file over this
// connection: the fallback when RDT's UDP does not get through. The
// checks are tokens.Store.Redeem's, as over HTTP: the token must be known
// and live, the connection's principal's (tokens.Token.Owner: an offer
// made to it outside a conversation, or by a direct call) or issued in a
// conversation it may see (chat.Service.MayDownload), and its path must still be the very file
// it was issued for (no link, same device, inode and size); the client
// verifies the SHA-256 in FILE_METADATA.
func (c *conn) handleFileRequest(f nplt.Frame) bool {
	var req nplt.FileRequestPayload
	if err := unmarshalStrict(f.Payload, &req); err != nil || req.DownloadToken == "" {
		return c.enqueueError(api.CodeBadJSON, `FILE_REQUEST wants JSON {"download_token"}`)
	}
	return c.enqueue(func(ctx context.Context) { c.sendDownload(ctx, req.DownloadToken) })
}

// sendDownload is the worker's half of handleFileRequest.
func (c *conn) sendDownload(ctx context.Context, token string) {
	if c.srv.cfg.Tokens == nil {
		c.replyError(api.CodeNotFound, "downloads over NPLT are not enabled on this server")
		return
	}
	g, err := c.srv.cfg.Tokens.Redeem(tokens.Claim{ID: token, MaySee: c.sess.MayDownload, Principal: c.sess.Principal().ID}, time.Now())
	switch {
	case errors.Is(err, tokens.ErrExpired):
		c.replyError(api.CodeTokenExpired, "download token expired")
		return
	case errors.Is(err, tokens.ErrFileChanged):
		c.replyError(api.CodeFileChanged, "the file changed since the token was issued")
		return
	case errors.Is(err, tokens.ErrFileGone):
		c.replyError(api.CodeFileChanged, "the file is gone since the token was issued")
		return
	case err != nil:
		// Unknown, or another principal's token: as good as unknown.
		c.replyError(api.CodeTokenUnknown, "unknown download token")
		return
	}
	tok, file := g.Token, g.File
	defer file.Close()
	if c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: tok.Filename, Size: tok.Size, SHA256: tok.SHA256}) != nil {
		return
	}
	start := time.Now()
	buf := make([]byte, downloadChunk)
	var sent int64
	for sent < tok.Size {
		if ctx.Err() != nil {
			return // the connection is going away; no end frame can follow
		}
		n, err := io.ReadFull(file, buf[:min(int64(len(buf)), tok.Size-sent)])
		if err != nil {
			// Mid-reply, an ERROR tells the client the bytes stop here.
			c.log.Warn("nplt download failed", zap.String("file", tok.Filename), zap.Error(err))
			c.replyError(api.CodeInternal, fmt.Sprintf("reading the file failed after %d bytes", sent))
			return
		}
		if c.send(nplt.FileData, append([]byte(nil), buf[:n]...)) != nil {
			return
		}
		sent += int64(n)
	}
	c.log.Info("nplt download done", zap.String("file", tok.Filename), zap.Int64("size", sent), zap.Duration("duration", time.Since(start)))
	c.end()
}
