package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	igolden "opsassist/internal/golden"
	"opsassist/rdt"
)

// TestProgressGolden keeps what a terminal shows of an upload and a
// download from the first byte to 100 %, on a fake clock: the bar, the
// sizes, the rate (the average once done, never "0 B/s") and the ETA.
// Regenerate with go test ./cli -update.
func TestProgressGolden(t *testing.T) {
	var b bytes.Buffer
	start := time.Unix(1000, 0)
	clock := start
	var tty bytes.Buffer
	p := newProgressPrinter(&tty, true, func() time.Time { return clock })
	const size = 80000000
	for i := int64(0); i <= 4; i++ {
		clock = start.Add(time.Duration(i) * time.Second)
		p.update(i*size/4, size)
	}
	p.finish()
	fmt.Fprintf(&b, "upload, terminal bytes:\n%q\n\n", tty.String())

	b.WriteString("download:\n")
	for _, pr := range []rdt.Progress{
		{Received: 0, Size: size},
		{Received: size / 4, Size: size, Rate: 20 << 20, ETA: 3 * time.Second, Elapsed: time.Second},
		{Received: size / 2, Size: size, Rate: 19 << 20, ETA: 2 * time.Second, Elapsed: 2 * time.Second},
		{Received: size - 1, Size: size, Rate: 1 << 10, ETA: time.Second, Elapsed: 4 * time.Second},
		{Received: size, Size: size, Rate: 0, Elapsed: 4 * time.Second},
		{Received: 2048, Size: -1, Rate: 1024},
	} {
		b.WriteString(RenderDownloadProgress(pr) + "\n")
	}
	igolden.Check(t, filepath.Join("testdata", "progress.golden"), b.String(), *update)
}
