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
// connection (from conn) instead.
func (c *Downloader) Fetch(ctx context.Context, req DownloadRequest, conn func(context.Context) (*Conn, func(), error), progress func(rdt.Progress)) (DownloadResult, error) {
	st, err := rdt.Download(ctx, rdt.ClientConfig{Addr: req.RDTAddr, Token: req.Token, Path: req.Path, SHA256: req.SHA256,
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
