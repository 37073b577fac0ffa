package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"opsassist/client"
	"opsassist/internal/bytesize"
	"opsassist/rdt"
)

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

// downloadLineZh is DownloadLine in Chinese, for the REPL in a zh
// locale ("opsassist download" keeps DownloadLine on stdout, for
// scripts).
func downloadLineZh(d client.DownloadResult) string {
	line := fmt.Sprintf("已下载 %s（%s），经 %s，用时 %s，sha256 已校验", d.Path, bytesize.Format(d.Size), d.Transport, tenths(d.Duration))
	if d.Resumed > 0 {
		line += fmt.Sprintf("，从 %s 处续传", bytesize.Format(d.Resumed))
	}
	return line
}

// downloadDone says that "opsassist download" finished. stdout carries
// DownloadLine, the same English line in every locale, for scripts; in
// a Chinese locale a person reads downloadLineZh instead — on stdout
// when it is a terminal (no script reads it), else on stderr beside the
// script's line.
func (c *CLI) downloadDone(res client.DownloadResult) error {
	if c.chinese() && isTerminal(c.stdout()) {
		_, err := fmt.Fprintf(c.stdout(), "%s\n", downloadLineZh(res))
		return err
	}
	if _, err := fmt.Fprintf(c.stdout(), "%s\n", DownloadLine(res)); err != nil {
		return err
	}
	if c.chinese() {
		c.printf(c.stderr(), "%s\n", downloadLineZh(res))
	}
	return nil
}

// DownloadLine formats a download confirmation: the line "opsassist
// download" prints on stdout for scripts, English in every locale.
func DownloadLine(d client.DownloadResult) string {
	line := fmt.Sprintf("downloaded %s (%s) over %s in %s, sha256 verified", d.Path, bytesize.Format(d.Size), d.Transport, tenths(d.Duration))
	if d.Resumed > 0 {
		line += fmt.Sprintf(", resumed after %s", bytesize.Format(d.Resumed))
	}
	return line
}

// tenths is a download's duration (DownloadResult.Duration, to the
// millisecond) as people read it: a second or more to one decimal
// ("5.9s"), less as it is ("250ms"); a text it cannot read stays as is.
func tenths(d string) string {
	v, err := time.ParseDuration(d)
	if err != nil || v < time.Second {
		return d
	}
	return v.Round(100 * time.Millisecond).String()
}

// RenderDownloadProgress formats one progress line of a download: bar,
// percent, bytes, current rate (at 100 %, the average over the transfer)
// and ETA. It is a pure function of p.
func RenderDownloadProgress(p rdt.Progress) string { return renderDownloadProgress(p, 0) }

// renderDownloadProgress is RenderDownloadProgress for a download that
// resumed with resumed bytes already on disk: its rate and ETA count
// only the bytes received in this run (received − resumed over
// Elapsed), not the resumed ones nor a recent rate that has none yet.
func renderDownloadProgress(p rdt.Progress, resumed int64) string {
	rate, eta := p.Rate, p.ETA
	if resumed > 0 && p.Elapsed > 0 {
		rate = float64(max(p.Received-resumed, 0)) / p.Elapsed.Seconds()
		eta = 0
		if rate > 0 && p.Size > p.Received {
			eta = time.Duration(float64(p.Size-p.Received) / rate * float64(time.Second))
		}
	}
	if p.Size < 0 {
		return fmt.Sprintf("%s received  %s/s", bytesize.Format(p.Received), bytesize.Format(int64(rate)))
	}
	line := RenderProgress(p.Received, p.Size, 0)
	line = strings.TrimSuffix(line, "  -")
	rateText := bytesize.Format(int64(rate)) + "/s"
	if rate <= 0 {
		rateText = "-" // nothing measured in this run yet, not "0 B/s"
	}
	if p.Received >= p.Size { // done: the recent rate is 0 once the last packet is in
		rateText = "-"
		if p.Elapsed > 0 {
			rateText = bytesize.Format(int64(float64(p.Received-resumed)/p.Elapsed.Seconds())) + "/s"
		}
	}
	line += "  " + rateText
	if eta > 0 {
		line += "  ETA " + eta.Round(time.Second).String()
	}
	return line
}

// downloadPrinter draws a download's progress bar on a terminal.
type downloadPrinter struct {
	out   io.Writer
	tty   bool
	drawn bool
	seen  bool  // an update came
	base  int64 // bytes held at the first update: resumed from PATH.part
	zh    bool  // the CLI's language is Chinese
}

// update draws p. Before the server has said anything (no size, no
// byte) there is nothing to show: no "0 B received 0 B/s" while a
// refusal, such as an unknown token, may still be on its way. The bytes
// held at the first update were resumed, not received in this run: the
// rate leaves them out (renderDownloadProgress), and a line says at
// once where the download resumes.
func (d *downloadPrinter) update(p rdt.Progress) {
	if !d.seen {
		d.seen, d.base = true, p.Received
		if p.Received > 0 {
			fmt.Fprintf(d.out, pick(d.zh, "从 %s 处继续下载\n", "resuming after %s\n"), bytesize.Format(p.Received))
		}
	}
	if !d.tty || p.Size < 0 && p.Received == 0 {
		return
	}
	d.drawn = true
	fmt.Fprintf(d.out, "\r%s\x1b[K", renderDownloadProgress(p, d.base))
}

// busy is client.Downloader.OnBusy: the server refused the download as
// busy and it is asked for again after delay. On a terminal the live
// line says so ("server busy; retrying in D (attempt N)") until the next
// retry or the first bar overwrites it; off one only the first refusal
// gets a line.
func (d *downloadPrinter) busy(attempt int, _ error, delay time.Duration) {
	line := fmt.Sprintf(pick(d.zh, "服务器繁忙，%s 后重试（第 %d 次）", "server busy; retrying in %s (attempt %d)"), retryDelay(delay), attempt+1)
	if !d.tty {
		if attempt == 1 {
			fmt.Fprintln(d.out, line)
		}
		return
	}
	d.drawn = true
	fmt.Fprintf(d.out, "\r%s\x1b[K", style(true, ansiDim, line))
}

func (d *downloadPrinter) finish() {
	if d.drawn {
		io.WriteString(d.out, "\n")
	}
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
		return c.flagError(fs, err)
	}
	if len(pos) != 1 || out == "" {
		return c.usageError("download", c.say("download 需要 TOKEN 和 -o PATH", "download needs a TOKEN and -o PATH"))
	}
	ctx, stop := c.interruptible(ctx)
	defer stop()
	pp := &downloadPrinter{out: c.stderr(), tty: !cfg.json && isTerminal(c.stderr()), zh: c.chinese()}
	// Without --rdt the server's HELLO names its RDT address (rdt_addr),
	// the one its offers carry; that connection is kept for a fallback
	// over NPLT. A server that cannot be reached now still leaves RDT at
	// the default address to try.
	var offered string
	var pre *client.Conn
	if rdtAddr == "" {
		if conn, err := client.Dial(ctx, cfg.server, c.options(cfg)); err == nil {
			pre, offered = conn, conn.Hello().RDTAddr
		}
	}
	defer func() {
		if pre != nil {
			c.closeConn(pre)
		}
	}()
	dial := func(ctx context.Context) (*client.Conn, func(), error) {
		if conn := pre; conn != nil {
			pre = nil
			return conn, func() { c.closeConn(conn) }, nil
		}
		conn, err := client.Dial(ctx, cfg.server, c.options(cfg))
		if err != nil {
			return nil, nil, err
		}
		return conn, func() { c.closeConn(conn) }, nil
	}
	dl := c.downloader()
	dl.OnBusy = pp.busy
	res, err := dl.Fetch(ctx, client.DownloadRequest{Token: pos[0], Path: out, SHA256: sum, RDTAddr: client.RDTAddr(rdtAddr, offered, cfg.server)}, dial, pp.update)
	pp.finish()
	if err != nil {
		c.printf(c.stderr(), "opsassist: %s%s\n", c.say("下载：", "download: "), c.friendly(err, cfg.server, cfg.debug))
		return ExitError
	}
	if cfg.json {
		jl := newJSONLines(c.stdout())
		jl.encode(res)
		err = jl.error()
	} else {
		err = c.downloadDone(res)
	}
	if err != nil {
		c.printf(c.stderr(), "opsassist: writing output: %v\n", err)
		return ExitError
	}
	return ExitOK
}
