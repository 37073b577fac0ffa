package client

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
	"opsassist/rdt"
)

// silentUDP is an RDT address where nothing answers, so a download
// falls back to NPLT after the (tiny) first-packet timeout.
func silentUDP(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	return pc.LocalAddr().String()
}

// refuseToken answers a FILE_REQUEST with ERROR token_unknown.
func refuseToken(fc *npltfake.Conn) {
	fc.Handshake()
	fc.Expect(nplt.FileRequest)
	fc.Error(api.CodeTokenUnknown, "unknown download token")
	fc.End()
	fc.ReadUntilEOF()
}

func partFiles(path string) []string {
	var left []string
	for _, p := range []string{path + rdt.PartSuffix, path + rdt.PartSuffix + rdt.RecordSuffix} {
		if _, err := os.Stat(p); err == nil {
			left = append(left, filepath.Base(p))
		}
	}
	return left
}

// TestFetchUnknownTokenLeavesNothing: a refused token is a definitive
// failure; the PATH.part and record the attempt created are removed.
func TestFetchUnknownTokenLeavesNothing(t *testing.T) {
	c := dial(t, npltfake.New(t, refuseToken), Options{})
	path := filepath.Join(t.TempDir(), "f.bin")
	d := &Downloader{FirstPacketTimeout: 10 * time.Millisecond}
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := d.Fetch(ctx, DownloadRequest{Token: "abc", Path: path, RDTAddr: silentUDP(t)},
		func(context.Context) (*Conn, func(), error) { return c, func() {}, nil }, nil)
	if !errors.Is(err, &ServerError{Code: api.CodeTokenUnknown}) || errors.Is(err, ErrPartialKept) {
		t.Fatalf("err = %v, want token_unknown, nothing kept", err)
	}
	if left := partFiles(path); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestFetchKeepsAnEarlierPartial: a partial file that was there before
// the call is not this call's to delete.
func TestFetchKeepsAnEarlierPartial(t *testing.T) {
	c := dial(t, npltfake.New(t, refuseToken), Options{})
	path := filepath.Join(t.TempDir(), "f.bin")
	if err := os.WriteFile(path+rdt.PartSuffix, []byte("earlier"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := &Downloader{FirstPacketTimeout: 10 * time.Millisecond}
	ctx, cancel := testContext(t)
	defer cancel()
	if _, err := d.Fetch(ctx, DownloadRequest{Token: "abc", Path: path, RDTAddr: silentUDP(t)},
		func(context.Context) (*Conn, func(), error) { return c, func() {}, nil }, nil); err == nil {
		t.Fatal("download succeeded")
	}
	if _, err := os.Stat(path + rdt.PartSuffix); err != nil {
		t.Errorf("earlier partial file removed: %v", err)
	}
}

// TestFetchNothingReceivedLeavesNothing: without a fallback, no RDT
// answer at all leaves no empty partial file to "resume".
func TestFetchNothingReceivedLeavesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.bin")
	d := &Downloader{FirstPacketTimeout: 10 * time.Millisecond}
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := d.Fetch(ctx, DownloadRequest{Token: "abc", Path: path, RDTAddr: silentUDP(t)}, nil, nil)
	if !errors.Is(err, rdt.ErrNoResponse) || errors.Is(err, ErrPartialKept) {
		t.Fatalf("err = %v, want no response, nothing kept", err)
	}
	if left := partFiles(path); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestWithoutPartialKept(t *testing.T) {
	cause := errors.New("rdt: server stopped responding")
	err := error(&keptError{err: cause})
	if !errors.Is(err, ErrPartialKept) || !errors.Is(err, cause) || WithoutPartialKept(err) != cause {
		t.Fatalf("keptError %v does not unwrap to both", err)
	}
}
