package client

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

func TestUpload1MiB(t *testing.T) {
	path, data := npltfake.WriteFile(t, "big.log", 1<<20)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Upload(data, "big.log")
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	var calls []int64
	done, err := c.Upload(ctx, path, func(sent, total int64) {
		if total != 1<<20 {
			t.Errorf("total = %d", total)
		}
		calls = append(calls, sent)
	})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	want := nplt.UploadDonePayload{FileID: "file-1", Filename: "big.log", Size: 1 << 20, SHA256: hex.EncodeToString(sum[:]), SessionID: npltfake.Session}
	if done != want {
		t.Errorf("done = %+v, want %+v", done, want)
	}
	if len(calls) != 18 || calls[0] != 0 || calls[len(calls)-1] != 1<<20 {
		t.Errorf("progress calls = %v", calls)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i] <= calls[i-1] {
			t.Errorf("progress not increasing: %v", calls)
		}
	}
}

func TestUploadRefusedEarly(t *testing.T) {
	path, _ := npltfake.WriteFile(t, "huge.bin", 5*nplt.MaxPayload)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.FileMetadata)
		fc.Error(api.CodeUploadTooLarge, "too large")
		fc.End()
		// Discard FILE_DATA the client sent before it saw the error.
		for {
			f := fc.Read()
			if f.Type == nplt.FileData {
				continue
			}
			if f.Type != nplt.SessionList {
				fc.Fail("got %v, want SESSION_LIST", f.Type)
			}
			break
		}
		fc.Result(KindSessionList, SessionList{Current: npltfake.Session})
		fc.Text("sessions")
		fc.End()
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := c.Upload(ctx, path, nil)
	if !errors.Is(err, &ServerError{Code: api.CodeUploadTooLarge}) {
		t.Fatalf("err = %v, want upload_too_large", err)
	}
	if _, err := c.Sessions(ctx); err != nil {
		t.Fatalf("connection unusable after refused upload: %v", err)
	}
}

func TestUploadEmptyFile(t *testing.T) {
	path, data := npltfake.WriteFile(t, "empty.txt", 0)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Upload(data, "empty.txt")
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	done, err := c.Upload(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if done.Size != 0 || done.FileID != "file-1" {
		t.Errorf("done = %+v", done)
	}
}

func TestUploadMissingFile(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.ReadUntilEOF() // nothing may be sent
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := c.Upload(ctx, filepath.Join(t.TempDir(), "nope"), nil)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want fs.ErrNotExist", err)
	}
}

// TestUploadData: bytes without a file go up as Upload sends a file,
// under the given name, in several FILE_DATA frames.
func TestUploadData(t *testing.T) {
	_, data := npltfake.WriteFile(t, "x", 3*nplt.MaxPayload/2)
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Upload(data, "stdin.txt")
		fc.ReadUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	done, err := c.UploadData(ctx, "stdin.txt", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if done.Filename != "stdin.txt" || done.Size != int64(len(data)) || done.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("done = %+v", done)
	}
}

// TestUploadOverMaxUploadSendsNothing: a file larger than HELLO's
// max_upload is refused before FILE_METADATA, with its size and the
// limit, and no progress is reported.
func TestUploadOverMaxUploadSendsNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.bin")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100<<20 + 1); err != nil { // sparse: one byte over 100 MiB
		t.Fatal(err)
	}
	f.Close()
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.ExpectClose() // nothing sent
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err = c.Upload(ctx, path, func(sent, total int64) { t.Errorf("progress %d/%d", sent, total) })
	var se *UploadSizeError
	if !errors.As(err, &se) || !errors.Is(err, ErrUploadTooLarge) || se.Size != 100<<20+1 || se.Limit != 100<<20 {
		t.Fatalf("err = %v, want an UploadSizeError", err)
	}
	if _, err := c.UploadData(ctx, "x", make([]byte, 100<<20+1), nil); !errors.Is(err, ErrUploadTooLarge) {
		t.Errorf("UploadData: err = %v", err)
	}
	c.Close()
}
