package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"opsassist/nplt"
)

// writeTestFile writes n pseudo-random bytes to a temp file.
func writeTestFile(t *testing.T, name string, n int) (string, []byte) {
	t.Helper()
	data := make([]byte, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// scriptUpload receives one upload, checks it and confirms it.
func scriptUpload(fc *fakeConn, want []byte, name string) {
	var meta nplt.FileMeta
	fc.expectJSON(nplt.FileMetadata, &meta)
	sum := sha256.Sum256(want)
	if meta.Filename != name || meta.Size != int64(len(want)) || meta.SHA256 != hex.EncodeToString(sum[:]) {
		fc.fail("metadata = %+v", meta)
	}
	var got []byte
	frames := 0
	for int64(len(got)) < meta.Size {
		f := fc.expect(nplt.FileData)
		if len(f.Payload) == 0 || len(f.Payload) > nplt.MaxPayload {
			fc.fail("chunk of %d bytes", len(f.Payload))
		}
		got = append(got, f.Payload...)
		frames++
		if frames == 8 {
			fc.sendJSON(nplt.UploadProgress, nplt.UploadProgressPayload{Filename: name, Received: int64(len(got)), Size: meta.Size})
		}
	}
	if !bytes.Equal(got, want) {
		fc.fail("uploaded bytes differ (%d bytes, want %d)", len(got), len(want))
	}
	if wantFrames := (len(want) + nplt.MaxPayload - 1) / nplt.MaxPayload; frames != wantFrames {
		fc.fail("%d FILE_DATA frames, want %d", frames, wantFrames)
	}
	fc.sendJSON(nplt.UploadProgress, nplt.UploadProgressPayload{Filename: name, Received: meta.Size, Size: meta.Size})
	fc.sendJSON(nplt.UploadDone, nplt.UploadDonePayload{FileID: "file-1", Filename: name, Size: meta.Size, SHA256: meta.SHA256, SessionID: fakeSession})
	fc.text("文件上传成功: " + name + " (file_id file-1)")
	fc.end()
}

func TestUpload1MiB(t *testing.T) {
	path, data := writeTestFile(t, "big.log", 1<<20)
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		scriptUpload(fc, data, "big.log")
		fc.readUntilEOF()
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
	want := nplt.UploadDonePayload{FileID: "file-1", Filename: "big.log", Size: 1 << 20, SHA256: hex.EncodeToString(sum[:]), SessionID: fakeSession}
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
	path, _ := writeTestFile(t, "huge.bin", 5*nplt.MaxPayload)
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		fc.expect(nplt.FileMetadata)
		fc.error(nplt.CodeUploadTooLarge, "too large")
		fc.end()
		// Discard FILE_DATA the client sent before it saw the error.
		for {
			f := fc.read()
			if f.Type == nplt.FileData {
				continue
			}
			if f.Type != nplt.SessionList {
				fc.fail("got %v, want SESSION_LIST", f.Type)
			}
			break
		}
		fc.result(KindSessionList, SessionList{Current: fakeSession})
		fc.text("sessions")
		fc.end()
		fc.readUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := c.Upload(ctx, path, nil)
	if !errors.Is(err, &ServerError{Code: nplt.CodeUploadTooLarge}) {
		t.Fatalf("err = %v, want upload_too_large", err)
	}
	if _, err := c.Sessions(ctx); err != nil {
		t.Fatalf("connection unusable after refused upload: %v", err)
	}
}

func TestUploadEmptyFile(t *testing.T) {
	path, data := writeTestFile(t, "empty.txt", 0)
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		scriptUpload(fc, data, "empty.txt")
		fc.readUntilEOF()
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
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		fc.readUntilEOF() // nothing may be sent
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := c.Upload(ctx, filepath.Join(t.TempDir(), "nope"), nil)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want fs.ErrNotExist", err)
	}
}
