package client

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"opsassist/nplt"
)

// uploadChunk is the FILE_DATA payload size.
const uploadChunk = nplt.MaxPayload

// Upload sends the file at path: it hashes the file, sends FILE_METADATA
// {filename, size, sha256} and the bytes as FILE_DATA frames, and waits for
// the confirmation reply (UPLOAD_DONE, CHAT_TEXT, end). progress, if not
// nil, is called with the bytes sent so far, starting with 0.
//
// A file larger than the server's limit (HELLO's max_upload) is refused
// before anything is sent, with an *UploadSizeError (ErrUploadTooLarge).
// An ERROR in the reply, which the server may send before all bytes are
// sent, stops the upload and is returned as a *ServerError. If ctx ends
// while bytes are being sent, Upload closes the connection, because the
// server would otherwise wait for the rest of the file.
func (c *Conn) Upload(ctx context.Context, path string, progress func(sent, total int64)) (nplt.UploadDonePayload, error) {
	if progress == nil {
		progress = func(int64, int64) {}
	}
	f, err := os.Open(path)
	if err != nil {
		return nplt.UploadDonePayload{}, fmt.Errorf("client: upload: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if err := c.checkSize(path, fi.Size()); err != nil {
			return nplt.UploadDonePayload{}, err
		}
	}
	meta, err := fileMeta(f, filepath.Base(path))
	if errors.Is(err, ErrNotRegular) {
		return nplt.UploadDonePayload{}, &fs.PathError{Op: "upload", Path: path, Err: ErrNotRegular}
	}
	if err != nil {
		return nplt.UploadDonePayload{}, fmt.Errorf("client: upload %s: %w", path, err)
	}
	return c.upload(ctx, meta, f, progress)
}

// UploadData sends data as a file called name, as Upload sends a file:
// for text that is not in a file, such as piped standard input.
func (c *Conn) UploadData(ctx context.Context, name string, data []byte, progress func(sent, total int64)) (nplt.UploadDonePayload, error) {
	if progress == nil {
		progress = func(int64, int64) {}
	}
	sum := sha256.Sum256(data)
	meta := nplt.FileMeta{Filename: name, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
	return c.upload(ctx, meta, bytes.NewReader(data), progress)
}

// upload sends meta, then meta.Size bytes of f, and waits for the reply.
func (c *Conn) upload(ctx context.Context, meta nplt.FileMeta, f io.Reader, progress func(sent, total int64)) (nplt.UploadDonePayload, error) {
	if err := c.checkSize(meta.Filename, meta.Size); err != nil {
		return nplt.UploadDonePayload{}, err
	}
	r, end, err := c.begin(ctx, true)
	if err != nil {
		return nplt.UploadDonePayload{}, err
	}
	defer end()
	if err := c.writeJSON(nplt.FileMetadata, meta); err != nil {
		return nplt.UploadDonePayload{}, err
	}
	u := uploadReply{c: c}
	progress(0, meta.Size)
	if err := c.sendFile(ctx, r, &u, f, meta.Size, progress); err != nil {
		return nplt.UploadDonePayload{}, err
	}
	for !u.ended {
		fr, err := r.next(ctx)
		if err != nil {
			return nplt.UploadDonePayload{}, joinServerError(u.serr, err)
		}
		u.handle(fr)
	}
	if u.serr != nil {
		return nplt.UploadDonePayload{}, u.serr
	}
	if u.perr != nil {
		return nplt.UploadDonePayload{}, u.perr
	}
	if !u.gotDone {
		return nplt.UploadDonePayload{}, fmt.Errorf("%w: upload reply without %v: %q", ErrProtocol, nplt.UploadDone, u.text.String())
	}
	return u.done, nil
}

// fileMeta hashes f from its start and rewinds it.
func fileMeta(f *os.File, name string) (nplt.FileMeta, error) {
	st, err := f.Stat()
	if err != nil {
		return nplt.FileMeta{}, err
	}
	if !st.Mode().IsRegular() {
		return nplt.FileMeta{}, ErrNotRegular
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return nplt.FileMeta{}, fmt.Errorf("hashing: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nplt.FileMeta{}, fmt.Errorf("rewinding: %w", err)
	}
	return nplt.FileMeta{Filename: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// sendFile sends size bytes of f as FILE_DATA frames. Between frames it
// takes any reply frames already received, and stops early when one of
// them is an ERROR.
func (c *Conn) sendFile(ctx context.Context, r *request, u *uploadReply, f io.Reader, size int64, progress func(sent, total int64)) error {
	buf := make([]byte, uploadChunk)
	for sent := int64(0); sent < size; {
		for {
			fr, ok, err := r.poll()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			u.handle(fr)
		}
		if u.serr != nil || u.ended {
			return nil // the server refused the upload; its reply follows or has ended
		}
		if err := ctx.Err(); err != nil {
			c.abort(fmt.Errorf("upload cancelled: %w", err))
			return fmt.Errorf("client: upload cancelled, connection closed: %w", err)
		}
		n := int(min(int64(len(buf)), size-sent))
		if _, err := io.ReadFull(f, buf[:n]); err != nil {
			c.abort(fmt.Errorf("upload source failed: %w", err))
			return fmt.Errorf("client: reading upload source (file changed?), connection closed: %w", err)
		}
		if err := c.write(nplt.FileData, buf[:n]); err != nil {
			return err
		}
		sent += int64(n)
		progress(sent, size)
	}
	return nil
}

// uploadReply collects the frames of an upload's reply.
type uploadReply struct {
	c       *Conn
	done    nplt.UploadDonePayload
	gotDone bool
	text    strings.Builder
	serr    error // ERROR from the server
	perr    error // undecodable frame
	ended   bool
}

func (u *uploadReply) handle(f nplt.Frame) {
	switch {
	case f.Type == nplt.UploadProgress:
		// Progress is advisory (the server may drop it), so a bad one is
		// logged, not fatal.
		var p nplt.UploadProgressPayload
		if err := json.Unmarshal(f.Payload, &p); err != nil {
			u.c.log.Debug("undecodable upload progress", zap.Error(err))
			return
		}
		u.c.log.Debug("upload progress", zap.Int64("received", p.Received), zap.Int64("size", p.Size))
	case f.Type == nplt.UploadDone:
		if err := json.Unmarshal(f.Payload, &u.done); err != nil {
			u.perr = fmt.Errorf("%w: decoding %v: %w", ErrProtocol, f.Type, err)
			return
		}
		u.gotDone = true
		u.c.setSessionID(u.done.SessionID)
	case f.Type == nplt.Error:
		se, err := decodeServerError(f.Payload)
		if err != nil {
			u.perr = err
			return
		}
		u.serr = se
	case isEnd(f):
		u.ended = true
	case f.Type == nplt.ChatText:
		u.text.Write(f.Payload)
	default:
		u.c.log.Debug("ignoring frame in upload reply", zap.Stringer("type", f.Type))
	}
}

// ErrUploadTooLarge matches the *UploadSizeError of an upload refused
// before sending: the file is larger than HELLO's max_upload.
var ErrUploadTooLarge = errors.New("client: file larger than the server's upload limit")

// UploadSizeError is an upload refused before sending: Name (the path
// given, or the file name) has Size bytes, over the server's Limit.
type UploadSizeError struct {
	Name        string
	Size, Limit int64
}

func (e *UploadSizeError) Error() string {
	return fmt.Sprintf("%v: %s has %d bytes, the limit is %d", ErrUploadTooLarge, e.Name, e.Size, e.Limit)
}

// Is makes errors.Is(err, ErrUploadTooLarge) true.
func (e *UploadSizeError) Is(target error) bool { return target == ErrUploadTooLarge }

// checkSize refuses size bytes of name over HELLO's max_upload (0: no
// limit announced).
func (c *Conn) checkSize(name string, size int64) error {
	if limit := c.Hello().MaxUpload; limit > 0 && size > limit {
		return &UploadSizeError{Name: name, Size: size, Limit: limit}
	}
	return nil
}
