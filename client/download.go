package client

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/internal/partfile"
	"opsassist/rdt"
)

// DefaultRDTPort is the RDT server's port when --rdt does not name one.
const DefaultRDTPort = "9998"

// DownloadResult describes a verified download.
type DownloadResult struct {
	Path      string `json:"path"`
	Size      int64  `json:"size"`
	Transport string `json:"transport"`
	Resumed   int64  `json:"resumed,omitempty"`
	Duration  string `json:"duration"`
}

// DownloadRequest is one file to fetch.
type DownloadRequest struct {
	// Token is the offer's download token.
	Token string
	// Path is where the file is written (Path.part while it arrives).
	Path string
	// SHA256, when set, is the hash the file must have.
	SHA256 string
	// RDTAddr is the RDT server (see RDTAddr).
	RDTAddr string
}

// Fetch downloads over RDT; when no RDT packet arrives within
// FirstPacketTimeout it asks the server to send the file over an NPLT
// connection (from conn) instead. A busy refusal is retried with backoff
// (BusyRetry).
//
// A failure that no retry can mend (see definitive), or one before any
// byte arrived, removes the PATH.part and its record this call created;
// a partial file that can be resumed is kept and the error then matches
// ErrPartialKept.
func (c *Downloader) Fetch(ctx context.Context, req DownloadRequest, conn func(context.Context) (*Conn, func(), error), progress func(rdt.Progress)) (DownloadResult, error) {
	_, statErr := os.Stat(req.Path + partfile.Suffix)
	fresh := errors.Is(statErr, fs.ErrNotExist)
	res, err := c.fetch(ctx, req, conn, progress)
	if err == nil {
		return res, nil
	}
	part := req.Path + partfile.Suffix
	switch {
	case definitive(err) || fresh && emptyFile(part):
		// Nothing to resume: a refusal, or not one byte arrived.
		if fresh {
			for _, p := range []string{part, part + partfile.RecordSuffix} {
				if rerr := os.Remove(p); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
					c.logger().Warn("removing partial download", zap.String("path", p), zap.Error(rerr))
				}
			}
		}
	case exists(part):
		err = &keptError{err: err}
	}
	return DownloadResult{}, err
}

// ErrPartialKept is joined to a download's error when PATH.part was
// kept for the same download to resume.
var ErrPartialKept = errors.New("client: partial download kept for resuming")

// WithoutPartialKept returns err without the ErrPartialKept that Fetch
// joined to it, for showing the cause alone.
func WithoutPartialKept(err error) error {
	var k *keptError
	if errors.As(err, &k) {
		return k.err
	}
	return err
}

// keptError is a resumable download failure: err, with PATH.part kept.
type keptError struct{ err error }

func (e *keptError) Error() string   { return e.err.Error() + " (" + ErrPartialKept.Error() + ")" }
func (e *keptError) Unwrap() []error { return []error{e.err, ErrPartialKept} }

// definitive reports whether a failed download cannot succeed by trying
// again with the same token: the server does not know the token, it
// expired or names another file, the bytes did not match, the request
// was wrong, or the server refused it with an ERROR.
func definitive(err error) bool {
	var se *ServerError
	return errors.Is(err, rdt.ErrUnknownToken) || errors.Is(err, rdt.ErrExpiredToken) ||
		errors.Is(err, rdt.ErrWrongFile) || errors.Is(err, rdt.ErrChecksum) || errors.Is(err, rdt.ErrBadConfig) ||
		errors.Is(err, rdt.ErrRemote) || errors.Is(err, ErrChecksum) || errors.As(err, &se)
}

// emptyFile reports whether path is a file with no bytes (or is gone).
func emptyFile(path string) bool {
	fi, err := os.Stat(path)
	return err != nil || fi.Size() == 0
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// fetch is Fetch without the clean-up.
func (c *Downloader) fetch(ctx context.Context, req DownloadRequest, conn func(context.Context) (*Conn, func(), error), progress func(rdt.Progress)) (DownloadResult, error) {
	st, err := c.downloadRDT(ctx, rdt.ClientConfig{Addr: req.RDTAddr, Token: req.Token, Path: req.Path, SHA256: req.SHA256,
		Progress: progress, Logger: c.logger().Named("rdt"), FirstPacketTimeout: c.FirstPacketTimeout})
	if errors.Is(err, rdt.ErrNoResponse) && conn != nil {
		c.logger().Info("no rdt packet; falling back to nplt", zap.String("rdt", req.RDTAddr))
		nc, release, derr := conn(ctx)
		if derr != nil {
			return DownloadResult{}, fmt.Errorf("%w; falling back to NPLT: %w", err, derr)
		}
		defer release()
		st, err = nc.DownloadNPLT(ctx, req.Token, req.Path, req.SHA256, progress)
	}
	if err != nil {
		return DownloadResult{}, err
	}
	return DownloadResult{Path: req.Path, Size: st.Size, Transport: st.Transport, Resumed: st.Resumed,
		Duration: st.Duration.Round(time.Millisecond).String()}, nil
}

// RDTAddr returns the RDT address to use: explicit if given, else the
// offer's, else the NPLT server's host on DefaultRDTPort. An unspecified
// host (0.0.0.0, ::) becomes the NPLT server's host, and so does a
// loopback host offered by a server reached at another address.
func RDTAddr(explicit, offered, server string) string {
	serverHost, _, err := net.SplitHostPort(server)
	if err != nil {
		serverHost = server
	}
	addr := explicit
	if addr == "" {
		addr = offered
	}
	if addr == "" {
		return net.JoinHostPort(serverHost, DefaultRDTPort)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		return net.JoinHostPort(serverHost, port)
	}
	if explicit == "" && isLoopback(host) && !isLoopback(serverHost) {
		return net.JoinHostPort(serverHost, port)
	}
	return addr
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// OfferPath is where a client saves an offered file: the base name only,
// so a server cannot steer the write elsewhere. An existing file is not
// overwritten: "name-1.ext", "name-2.ext"… are tried, unless a partial
// download of the name waits to be resumed.
func OfferPath(dir string, o api.Offer) (string, error) {
	name := filepath.Base(filepath.Clean("/" + strings.ReplaceAll(o.Filename, "\\", "/")))
	if name == "/" || name == "." || name == ".." || name == "" {
		return "", fmt.Errorf("offer has no usable file name %q", o.Filename)
	}
	if dir == "" {
		dir = "."
	}
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	p := filepath.Join(dir, name)
	for i := 1; i < 1000; i++ {
		if _, err := os.Stat(p + partfile.Suffix); err == nil {
			return p, nil // resume it
		}
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		p = filepath.Join(dir, fmt.Sprintf("%s-%d%s", base, i, ext))
	}
	return "", fmt.Errorf("no free file name for %q in %s", name, dir)
}
