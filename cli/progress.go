package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"opsassist/internal/bytesize"
)

// progressBarWidth is the number of cells in the progress bar.
const progressBarWidth = 24

// RenderProgress formats one progress line for an upload: bar, percent,
// bytes sent of total and average rate, e.g.
//
//	[###########.............]  45.0%  4.5 MiB / 10.0 MiB  1.5 MiB/s
//
// It is a pure function of its arguments. A zero total counts as done; a
// zero elapsed time shows the rate as "-".
func RenderProgress(sent, total int64, elapsed time.Duration) string {
	frac := 1.0
	if total > 0 {
		frac = min(max(float64(sent)/float64(total), 0), 1)
	}
	filled := int(frac * progressBarWidth)
	bar := strings.Repeat("#", filled) + strings.Repeat(".", progressBarWidth-filled)
	rate := "-"
	if elapsed > 0 {
		rate = bytesize.Format(int64(float64(sent)/elapsed.Seconds())) + "/s"
	}
	// Tenths of a percent rounded down: 100.0% only once every byte is
	// in (79,999,999 of 80,000,000 bytes is 99.9%, not 100.0%).
	permille := int64(1000)
	if total > 0 && sent < total {
		permille = max(sent, 0) * 1000 / total // sizes below 9 PB do not overflow
	}
	return fmt.Sprintf("[%s] %3d.%d%%  %s / %s  %s", bar, permille/10, permille%10, bytesize.Format(sent), bytesize.Format(total), rate)
}

// progressPrinter draws an upload's progress bar on a terminal, redrawing
// the line with '\r' each time the shown percentage changes. On other
// outputs it draws nothing.
type progressPrinter struct {
	out   io.Writer
	tty   bool
	now   func() time.Time
	start time.Time
	last  int // per-mille last drawn; -1 before the first draw
	drawn bool
	err   error // first write error
}

func newProgressPrinter(out io.Writer, tty bool, now func() time.Time) *progressPrinter {
	return &progressPrinter{out: out, tty: tty, now: now, start: now(), last: -1}
}

// update is the progress callback for client.Conn.Upload.
func (p *progressPrinter) update(sent, total int64) {
	if !p.tty || p.err != nil {
		return
	}
	permille := 1000
	if total > 0 {
		permille = int(sent * 1000 / total)
	}
	if permille == p.last {
		return
	}
	p.last = permille
	p.drawn = true
	_, p.err = fmt.Fprintf(p.out, "\r%s\x1b[K", RenderProgress(sent, total, p.now().Sub(p.start)))
}

// finish ends the progress line, if one was drawn.
func (p *progressPrinter) finish() {
	if p.drawn && p.err == nil {
		_, p.err = io.WriteString(p.out, "\n")
	}
}
