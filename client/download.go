package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"

	"opsassist/internal/bytesize"
	"opsassist/internal/partfile"
	"opsassist/nplt"
	"opsassist/rdt"
)

// DefaultRDTPort is the RDT server's port when --rdt does not name one.
const DefaultRDTPort = "9998"

// Environment variables read by downloads.
const (
	// EnvRDT is the RDT server address (host:port) for "download".
	EnvRDT = "OPSASSIST_RDT"
	// EnvDownload says what the REPL does with a DOWNLOAD_OFFER: "auto"
	// (download at once, the default) or "ask" (download after a yes;
	// /download fetches it later).
	EnvDownload = "OPSASSIST_DOWNLOAD"
	// EnvDownloadDir is where the REPL saves offered files. Default: the
	// current directory.
	EnvDownloadDir = "OPSASSIST_DOWNLOAD_DIR"
)

// DownloadResult describes a verified download.
type DownloadResult struct {
	Path      string `json:"path"`
	Size      int64  `json:"size"`
	Transport string `json:"transport"`
	Resumed   int64  `json:"resumed,omitempty"`
	Duration  string `json:"duration"`
}

// DownloadLine formats a download confirmation for people.
func DownloadLine(d DownloadResult) string {
	line := fmt.Sprintf("downloaded %s (%s) over %s in %s, sha256 verified", d.Path, bytesize.Format(d.Size), d.Transport, d.Duration)
	if d.Resumed > 0 {
		line += fmt.Sprintf(", resumed after %s", bytesize.Format(d.Resumed))
	}
	return line
}

// RenderDownloadProgress formats one progress line of a download: bar,
// percent, bytes, current rate and ETA. It is a pure function of p.
func RenderDownloadProgress(p rdt.Progress) string {
	if p.Size < 0 {
		return fmt.Sprintf("%s received  %s/s", bytesize.Format(p.Received), bytesize.Format(int64(p.Rate)))
	}
	line := RenderProgress(p.Received, p.Size, 0)
	line = strings.TrimSuffix(line, "  -")
	line += "  " + bytesize.Format(int64(p.Rate)) + "/s"
	if p.ETA > 0 {
		line += "  ETA " + p.ETA.Round(time.Second).String()
	}
	return line
}

// downloadPrinter draws a download's progress bar on a terminal.
type downloadPrinter struct {
	out   io.Writer
	tty   bool
	drawn bool
}

func (d *downloadPrinter) update(p rdt.Progress) {
	if !d.tty {
		return
	}
	d.drawn = true
	fmt.Fprintf(d.out, "\r%s\x1b[K", RenderDownloadProgress(p))
}

func (d *downloadPrinter) finish() {
	if d.drawn {
		io.WriteString(d.out, "\n")
	}
}

// downloadRequest is one file to fetch.
type downloadRequest struct {
	token, path, sha256, rdtAddr string
}

// fetch downloads over RDT; when no RDT packet arrives within 3 s it asks
// the server to send the file over an NPLT connection (from conn)
// instead.
func (c *CLI) fetch(ctx context.Context, req downloadRequest, conn func(context.Context) (*Conn, func(), error), progress func(rdt.Progress)) (DownloadResult, error) {
	st, err := rdt.Download(ctx, rdt.ClientConfig{Addr: req.rdtAddr, Token: req.token, Path: req.path, SHA256: req.sha256,
		Progress: progress, Logger: c.logger().Named("rdt"), FirstPacketTimeout: c.FirstPacketTimeout})
	if errors.Is(err, rdt.ErrNoResponse) && conn != nil {
		c.logger().Info("no rdt packet; falling back to nplt", zap.String("rdt", req.rdtAddr))
		nc, release, derr := conn(ctx)
		if derr != nil {
			return DownloadResult{}, fmt.Errorf("%w; falling back to NPLT: %w", err, derr)
		}
		defer release()
		st, err = nc.DownloadNPLT(ctx, req.token, req.path, req.sha256, progress)
	}
	if err != nil {
		return DownloadResult{}, err
	}
	return DownloadResult{Path: req.path, Size: st.Size, Transport: st.Transport, Resumed: st.Resumed,
		Duration: st.Duration.Round(time.Millisecond).String()}, nil
}

// rdtAddrFor returns the RDT address to use: explicit if given, else the
// offer's, else the NPLT server's host on DefaultRDTPort. An unspecified
// host (0.0.0.0, ::) becomes the NPLT server's host, and so does a
// loopback host offered by a server reached at another address.
func rdtAddrFor(explicit, offered, server string) string {
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

// runDownload runs "opsassist download TOKEN -o PATH [--rdt HOST:PORT]".
func (c *CLI) runDownload(ctx context.Context, cfg cliConfig, args []string) int {
	fs := c.flagSet("download", &cfg)
	fs.BoolVar(&cfg.json, "json", cfg.json, "")
	var out, rdtAddr, sum string
	fs.StringVar(&out, "o", "", "")
	fs.StringVar(&rdtAddr, "rdt", c.getenv(EnvRDT), "")
	fs.StringVar(&sum, "sha256", "", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return c.flagError(err)
	}
	if len(pos) != 1 || out == "" {
		c.printf(c.stderr(), "opsassist: download needs a TOKEN and -o PATH\n%s", usageText)
		return ExitUsage
	}
	ctx, stop := c.interruptible(ctx)
	defer stop()
	pp := &downloadPrinter{out: c.stderr(), tty: !cfg.json && isTerminal(c.stderr())}
	dial := func(ctx context.Context) (*Conn, func(), error) {
		conn, err := Dial(ctx, cfg.server, c.options(cfg))
		if err != nil {
			return nil, nil, err
		}
		return conn, func() { c.closeConn(conn) }, nil
	}
	res, err := c.fetch(ctx, downloadRequest{token: pos[0], path: out, sha256: sum, rdtAddr: rdtAddrFor(rdtAddr, "", cfg.server)}, dial, pp.update)
	pp.finish()
	if err != nil {
		c.printf(c.stderr(), "opsassist: download: %v\n", err)
		return ExitError
	}
	if cfg.json {
		jl := newJSONLines(c.stdout())
		jl.encode(res)
		err = jl.error()
	} else {
		_, err = fmt.Fprintf(c.stdout(), "%s\n", DownloadLine(res))
	}
	if err != nil {
		c.printf(c.stderr(), "opsassist: writing output: %v\n", err)
		return ExitError
	}
	return ExitOK
}

// offerPath is where the REPL saves an offered file: the base name only,
// so a server cannot steer the write elsewhere. An existing file is not
// overwritten: "name-1.ext", "name-2.ext"… are tried, unless a partial
// download of the name waits to be resumed.
func offerPath(dir string, o nplt.DownloadOfferPayload) (string, error) {
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
