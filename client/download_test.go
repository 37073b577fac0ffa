package client

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"opsassist/nplt"
	"opsassist/rdt"
)

func TestRDTAddrFor(t *testing.T) {
	cases := []struct{ explicit, offered, server, want string }{
		{"", "", "10.0.0.5:9999", "10.0.0.5:9998"},
		{"", "127.0.0.1:7000", "127.0.0.1:9999", "127.0.0.1:7000"},
		{"", "0.0.0.0:7000", "ops.example:9999", "ops.example:7000"},
		{"", "[::]:7000", "10.0.0.5:9999", "10.0.0.5:7000"},
		{"h:1", "127.0.0.1:7000", "x:9999", "h:1"},
		{"", "127.0.0.1:7000", "10.0.0.5:9999", "10.0.0.5:7000"},
		{"127.0.0.1:1", "", "10.0.0.5:9999", "127.0.0.1:1"},
	}
	for _, c := range cases {
		if got := rdtAddrFor(c.explicit, c.offered, c.server); got != c.want {
			t.Errorf("rdtAddrFor(%q, %q, %q) = %q, want %q", c.explicit, c.offered, c.server, got, c.want)
		}
	}
}

func TestOfferPathKeepsTheBaseName(t *testing.T) {
	for name, want := range map[string]string{
		"report.txt":        "report.txt",
		"../../etc/passwd":  "passwd",
		"/abs/path/x.bin":   "x.bin",
		`..\..\win\evil.sh`: "evil.sh",
	} {
		got, err := offerPath("dl", nplt.DownloadOfferPayload{Filename: name})
		if err != nil || got != filepath.Join("dl", want) {
			t.Errorf("%q: %q %v", name, got, err)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), nil, 0o600)
	if got, _ := offerPath(dir, nplt.DownloadOfferPayload{Filename: "a.txt"}); got != filepath.Join(dir, "a-1.txt") {
		t.Errorf("existing file: %q", got)
	}
	os.WriteFile(filepath.Join(dir, "b.bin"), nil, 0o600)
	os.WriteFile(filepath.Join(dir, "b.bin.part"), nil, 0o600)
	if got, _ := offerPath(dir, nplt.DownloadOfferPayload{Filename: "b.bin"}); got != filepath.Join(dir, "b.bin") {
		t.Errorf("partial download: %q", got)
	}
	for _, bad := range []string{"", "..", "/", "."} {
		if _, err := offerPath("dl", nplt.DownloadOfferPayload{Filename: bad}); err == nil {
			t.Errorf("%q accepted", bad)
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
}
