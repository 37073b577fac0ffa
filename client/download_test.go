package client

import (
	"os"
	"path/filepath"
	"testing"

	"opsassist/api"
)

func TestRDTAddr(t *testing.T) {
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
		if got := RDTAddr(c.explicit, c.offered, c.server); got != c.want {
			t.Errorf("RDTAddr(%q, %q, %q) = %q, want %q", c.explicit, c.offered, c.server, got, c.want)
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
		got, err := OfferPath("dl", api.Offer{Filename: name})
		if err != nil || got != filepath.Join("dl", want) {
			t.Errorf("%q: %q %v", name, got, err)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), nil, 0o600)
	if got, _ := OfferPath(dir, api.Offer{Filename: "a.txt"}); got != filepath.Join(dir, "a-1.txt") {
		t.Errorf("existing file: %q", got)
	}
	os.WriteFile(filepath.Join(dir, "b.bin"), nil, 0o600)
	os.WriteFile(filepath.Join(dir, "b.bin.part"), nil, 0o600)
	if got, _ := OfferPath(dir, api.Offer{Filename: "b.bin"}); got != filepath.Join(dir, "b.bin") {
		t.Errorf("partial download: %q", got)
	}
	for _, bad := range []string{"", "..", "/", "."} {
		if _, err := OfferPath("dl", api.Offer{Filename: bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
