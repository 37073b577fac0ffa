package client

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"opsassist/api"
	"opsassist/internal/partfile"
	"opsassist/nplt"
	"opsassist/rdt"
)

// ErrChecksum means a file downloaded over NPLT does not match its
// SHA-256; nothing was written at the destination.
var ErrChecksum = errors.New("client: sha256 mismatch")

// DownloadNPLT fetches the file named by token over this connection
// (FILE_REQUEST), the fallback when RDT's UDP is blocked. It writes
// PATH.part afresh (internal/partfile; a partial RDT download of the
// path is replaced), checks the size and SHA-256 from FILE_METADATA (and
// want, if set), then renames it to path; a failure after FILE_METADATA
// deletes PATH.part (a refusal before it leaves an earlier RDT attempt's
// partial file alone). progress, if set, gets the bytes so far.
func (c *Conn) DownloadNPLT(ctx context.Context, token, path, want string, progress func(rdt.Progress)) (rdt.Stats, error) {
	start := time.Now()
	r, end, err := c.begin(ctx, false)
	if err != nil {
		return rdt.Stats{}, err
	}
	defer end()
	if err := c.writeJSON(nplt.FileRequest, nplt.FileRequestPayload{DownloadToken: token}); err != nil {
		return rdt.Stats{}, err
	}
	var (
		meta    *nplt.FileMeta
		part    *partfile.File
		got     int64
		serr    error
		lastRep time.Time
	)
	defer func() {
		if part != nil {
			part.Discard()
		}
	}()
	for {
		fr, err := r.next(ctx)
		if err != nil {
			return rdt.Stats{}, joinServerError(serr, err)
		}
		switch {
		case fr.Type == nplt.Error:
			se, err := decodeServerError(fr.Payload)
			if err != nil {
				return rdt.Stats{}, err
			}
			serr = se
		case fr.Type == nplt.FileMetadata && meta == nil:
			var m nplt.FileMeta
			if err := json.Unmarshal(fr.Payload, &m); err != nil || m.Size < 0 || len(m.SHA256) != 64 {
				return rdt.Stats{}, fmt.Errorf("%w: bad %v %q", ErrProtocol, fr.Type, fr.Payload)
			}
			if want != "" && m.SHA256 != want {
				return rdt.Stats{}, fmt.Errorf("%w: the server sends sha256 %s, want %s", ErrChecksum, m.SHA256, want)
			}
			meta = &m
			if part, err = partfile.Create(path, partfile.ID{Token: token, SHA256: m.SHA256}); err != nil {
				return rdt.Stats{}, err
			}
			part.SetSize(m.Size)
		case fr.Type == nplt.FileData && part != nil:
			if got+int64(len(fr.Payload)) > meta.Size {
				return rdt.Stats{}, fmt.Errorf("%w: more than the %d bytes announced", ErrProtocol, meta.Size)
			}
			if err := part.WriteAt(fr.Payload, uint64(got)); err != nil {
				return rdt.Stats{}, err
			}
			got += int64(len(fr.Payload))
			if now := time.Now(); progress != nil && now.Sub(lastRep) > 100*time.Millisecond {
				lastRep = now
				el := now.Sub(start)
				progress(rdt.Progress{Received: got, Size: meta.Size, Elapsed: el, Rate: float64(got) / el.Seconds()})
			}
		case isEnd(fr):
			if serr != nil {
				return rdt.Stats{}, serr
			}
			if meta == nil || got != meta.Size {
				return rdt.Stats{}, fmt.Errorf("%w: download ended after %d bytes", ErrProtocol, got)
			}
			sum, err := hex.DecodeString(meta.SHA256)
			if err != nil { // not hex: no file has it
				return rdt.Stats{}, fmt.Errorf("%w: %s", ErrChecksum, path)
			}
			if err := part.Commit([32]byte(sum)); errors.Is(err, partfile.ErrChecksum) {
				return rdt.Stats{}, fmt.Errorf("%w: %s", ErrChecksum, path)
			} else if err != nil {
				return rdt.Stats{}, err
			}
			part = nil
			if progress != nil {
				progress(rdt.Progress{Received: got, Size: got, Elapsed: time.Since(start)})
			}
			return rdt.Stats{Size: got, BytesReceived: got, Duration: time.Since(start), Transport: api.TransportNPLT}, nil
		default:
			c.log.Debug("ignoring frame in download reply")
		}
	}
}
