package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"opsassist/client"
	"opsassist/rdt"
)

func TestRenderProgress(t *testing.T) {
	tests := []struct {
		sent, total int64
		elapsed     time.Duration
		want        string
	}{
		{0, 10 << 20, 0, "[........................]   0.0%  0 B / 10.0 MiB  -"},
		{4718592, 10 << 20, 3 * time.Second, "[##########..............]  45.0%  4.5 MiB / 10.0 MiB  1.5 MiB/s"},
		{10 << 20, 10 << 20, 2 * time.Second, "[########################] 100.0%  10.0 MiB / 10.0 MiB  5.0 MiB/s"},
		{0, 0, time.Second, "[########################] 100.0%  0 B / 0 B  0 B/s"},
		{1536, 1000, time.Second, "[########################] 100.0%  1.5 KiB / 1000 B  1.5 KiB/s"},
		{512, 1024, 500 * time.Millisecond, "[############............]  50.0%  512 B / 1.0 KiB  1.0 KiB/s"},
	}
	for _, tt := range tests {
		if got := RenderProgress(tt.sent, tt.total, tt.elapsed); got != tt.want {
			t.Errorf("RenderProgress(%d, %d, %v)\n got %q\nwant %q", tt.sent, tt.total, tt.elapsed, got, tt.want)
		}
	}
}

func TestProgressPrinter(t *testing.T) {
	start := time.Unix(1000, 0)
	clock := start
	now := func() time.Time { return clock }

	var tty bytes.Buffer
	p := newProgressPrinter(&tty, true, now)
	p.update(0, 2048)
	clock = start.Add(time.Second)
	p.update(1024, 2048)
	p.update(1024, 2048) // unchanged: no redraw
	clock = start.Add(2 * time.Second)
	p.update(2048, 2048)
	p.finish()
	want := "\r" + RenderProgress(0, 2048, 0) + "\x1b[K" +
		"\r" + RenderProgress(1024, 2048, time.Second) + "\x1b[K" +
		"\r" + RenderProgress(2048, 2048, 2*time.Second) + "\x1b[K\n"
	if tty.String() != want {
		t.Errorf("terminal output\n got %q\nwant %q", tty.String(), want)
	}

	var plain bytes.Buffer
	p = newProgressPrinter(&plain, false, now)
	p.update(0, 10)
	p.update(10, 10)
	p.finish()
	if plain.Len() != 0 {
		t.Errorf("non-terminal output %q, want nothing", plain.String())
	}
}

func TestStatusLine(t *testing.T) {
	long := strings.Repeat("é", 200)
	tests := []struct{ typ, content, want string }{
		{"thinking", "checking load", "[thinking] checking load"},
		{"generating", "", "[generating]"},
		{"tool_result", "line one\nline two", "[tool_result] line one…"},
		{"tool_call", long, "[tool_call] " + strings.Repeat("é", 160) + "…"},
	}
	for _, tt := range tests {
		if got := StatusLine(tt.typ, tt.content); got != tt.want {
			t.Errorf("StatusLine(%q, %q) = %q, want %q", tt.typ, tt.content, got, tt.want)
		}
	}
}
func TestRenderDownloadProgress(t *testing.T) {
	got := RenderDownloadProgress(rdt.Progress{Received: 5 << 20, Size: 10 << 20, Rate: 2 << 20, ETA: 2500 * time.Millisecond})
	want := "[############............]  50.0%  5.0 MiB / 10.0 MiB  2.0 MiB/s  ETA 3s"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if got := RenderDownloadProgress(rdt.Progress{Received: 2048, Size: -1}); got != "2.0 KiB received  0 B/s" {
		t.Fatalf("unknown size: %q", got)
	}
	// At 100 % the recent rate has dropped to 0: the average is shown.
	got = RenderDownloadProgress(rdt.Progress{Received: 80000000, Size: 80000000, Rate: 0, Elapsed: 4 * time.Second})
	if want := "[########################] 100.0%  76.3 MiB / 76.3 MiB  19.1 MiB/s"; got != want {
		t.Fatalf("done:\ngot  %q\nwant %q", got, want)
	}
	if got := RenderDownloadProgress(rdt.Progress{Received: 10, Size: 10}); got != "[########################] 100.0%  10 B / 10 B  -" {
		t.Fatalf("done at once: %q", got)
	}
}

// TestDownloadPrinterResumedRate: a download resumed at 58 % shows the
// rate of the bytes received in this run, not "0 B/s" while the recent
// rate has no samples, nor the resumed bytes counted as received now.
func TestDownloadPrinterResumedRate(t *testing.T) {
	var b strings.Builder
	d := &downloadPrinter{out: &b, tty: true}
	const size = 100 << 20
	d.update(rdt.Progress{Received: 58 << 20, Size: size})
	d.update(rdt.Progress{Received: 60 << 20, Size: size, Elapsed: time.Second})
	d.update(rdt.Progress{Received: 66 << 20, Size: size, Elapsed: 4 * time.Second})
	d.update(rdt.Progress{Received: size, Size: size, Elapsed: 10 * time.Second})
	d.finish()
	lines := strings.Split(strings.ReplaceAll(b.String(), "\x1b[K", ""), "\r")
	for i, want := range map[int]string{2: "  2.0 MiB/s  ETA 20s", 3: "  2.0 MiB/s  ETA 17s", 4: "  4.2 MiB/s\n"} {
		if i >= len(lines) || !strings.HasSuffix(lines[i], want) {
			t.Errorf("update %d: %q, want it to end in %q", i, lines, want)
		}
	}
	if strings.Contains(b.String(), " 0 B/s") {
		t.Errorf("shows 0 B/s: %q", b.String())
	}
}

// TestDownloadPrinterSaysResume: a resumed download says so before its
// first bar, in the CLI's language, and that bar shows "-" for the rate
// (nothing received in this run yet), even with time already elapsed.
func TestDownloadPrinterSaysResume(t *testing.T) {
	for zh, want := range map[bool]string{false: "resuming after 4.6 MiB\n", true: "从 4.6 MiB 处继续下载\n"} {
		var b strings.Builder
		d := &downloadPrinter{out: &b, tty: true, zh: zh}
		const held, size = 46 << 20 / 10, 10 << 20
		d.update(rdt.Progress{Received: held, Size: size, Elapsed: time.Millisecond})
		d.finish()
		got := strings.ReplaceAll(b.String(), "\x1b[K", "")
		if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "MiB  -\n") {
			t.Errorf("zh=%v: %q", zh, got)
		}
	}
	var b strings.Builder
	d := &downloadPrinter{out: &b}
	d.update(rdt.Progress{Received: 0, Size: 10})
	if b.Len() != 0 {
		t.Errorf("a download from the start says %q", b.String())
	}
}

// TestDownloadPrinterBusy: a busy refusal is said on the live line in
// the CLI's language, each retry rewriting it, and the bar overwrites it;
// off a terminal only the first refusal gets a line.
func TestDownloadPrinterBusy(t *testing.T) {
	for zh, want := range map[bool][]string{
		false: {"server busy; retrying in 0.2s (attempt 2)", "server busy; retrying in 0.5s (attempt 3)"},
		true:  {"服务器繁忙，0.2s 后重试（第 2 次）", "服务器繁忙，0.5s 后重试（第 3 次）"},
	} {
		var b strings.Builder
		d := &downloadPrinter{out: &b, tty: true, zh: zh}
		busy := &rdt.RemoteError{Code: rdt.CodeBusy}
		d.busy(1, busy, 190*time.Millisecond)
		d.busy(2, busy, 450*time.Millisecond)
		d.update(rdt.Progress{Received: 5, Size: 10, Elapsed: time.Second})
		d.finish()
		got := strings.Split(b.String(), "\r")
		if len(got) != 4 || !strings.Contains(got[1], want[0]) || !strings.Contains(got[2], want[1]) ||
			!strings.HasSuffix(got[1], "\x1b[K") || !strings.HasSuffix(got[3], "\n") {
			t.Errorf("zh=%v: %q", zh, got)
		}
		b.Reset()
		d = &downloadPrinter{out: &b, zh: zh}
		d.busy(1, busy, 190*time.Millisecond)
		d.busy(2, busy, 450*time.Millisecond)
		d.finish()
		if b.String() != want[0]+"\n" {
			t.Errorf("zh=%v off a terminal: %q", zh, b.String())
		}
	}
}

// TestDownloadLineTenths: the download lines give the time to one
// decimal.
func TestDownloadLineTenths(t *testing.T) {
	r := client.DownloadResult{Path: "a", Size: 1, Transport: "rdt", Duration: "5.914s"}
	if got := DownloadLine(r); !strings.Contains(got, " in 5.9s,") {
		t.Errorf("%q", got)
	}
	if got := downloadLineZh(r); !strings.Contains(got, "用时 5.9s") {
		t.Errorf("%q", got)
	}
	for in, want := range map[string]string{"250ms": "250ms", "1m2.04s": "1m2s", "x": "x"} {
		if got := tenths(in); got != want {
			t.Errorf("tenths(%q) = %q, want %q", in, got, want)
		}
	}
}
