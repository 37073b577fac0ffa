package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"opsassist/internal/npltfake"
	"opsassist/nplt"
	"opsassist/rdt"
)

// serveFile is a fake server's answer to one FILE_REQUEST: metadata
// claiming sum, then data in 1000-byte frames, then the end.
func serveFile(data []byte, sum string) func(*npltfake.Conn) {
	return func(fc *npltfake.Conn) {
		fc.Handshake()
		var req nplt.FileRequestPayload
		fc.ExpectJSON(nplt.FileRequest, &req)
		fc.SendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "f.bin", Size: int64(len(data)), SHA256: sum})
		for off := 0; off < len(data); off += 1000 {
			fc.Send(nplt.FileData, data[off:min(off+1000, len(data))])
		}
		fc.End()
	}
}

// TestDownloadNPLT fetches a file over NPLT into place through the part
// file, replacing a partial RDT download of the path and its record.
func TestDownloadNPLT(t *testing.T) {
	data := bytes.Repeat([]byte("opsassist "), 1000)
	sum := sha256.Sum256(data)
	c := dial(t, npltfake.New(t, serveFile(data, hex.EncodeToString(sum[:]))), Options{})
	path := filepath.Join(t.TempDir(), "f.bin")
	os.WriteFile(path+rdt.PartSuffix, []byte("stale partial rdt bytes"), 0o600)
	os.WriteFile(path+rdt.PartSuffix+rdt.RecordSuffix, []byte(`{"token":"tok","size":10000,"ranges":[[0,23]]}`), 0o600)
	ctx, cancel := testContext(t)
	defer cancel()
	st, err := c.DownloadNPLT(ctx, "tok", path, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, data) || st.Size != int64(len(data)) || st.Transport != "nplt" {
		t.Fatalf("downloaded %d bytes (%v), stats %+v", len(got), err, st)
	}
	for _, p := range []string{path + rdt.PartSuffix, path + rdt.PartSuffix + rdt.RecordSuffix} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s left behind", p)
		}
	}
}

// TestDownloadNPLTChecksumMismatch: bytes that do not match the
// announced SHA-256 never reach the destination (an existing file there
// is untouched) and no partial file is left.
func TestDownloadNPLTChecksumMismatch(t *testing.T) {
	data := bytes.Repeat([]byte("opsassist "), 1000)
	sum := sha256.Sum256(append([]byte("x"), data...))
	c := dial(t, npltfake.New(t, serveFile(data, hex.EncodeToString(sum[:]))), Options{})
	path := filepath.Join(t.TempDir(), "f.bin")
	os.WriteFile(path, []byte("previous"), 0o600)
	ctx, cancel := testContext(t)
	defer cancel()
	if _, err := c.DownloadNPLT(ctx, "tok", path, "", nil); !errors.Is(err, ErrChecksum) {
		t.Fatalf("got %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "previous" {
		t.Fatalf("destination now %q", got)
	}
	if _, err := os.Stat(path + rdt.PartSuffix); err == nil {
		t.Error("partial file left behind")
	}
}
