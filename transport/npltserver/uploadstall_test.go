package npltserver

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
	"opsassist/storage/uploads"
)

// withUploadStore gives the server an upload store of maxSize bytes per
// file and maxTotal in all, and hands it to the test.
func withUploadStore(t testing.TB, maxSize, maxTotal int64, ups **uploads.Store) serverOpt {
	return func(_ *Config, cc *chat.Config) {
		s, err := uploads.Open(uploads.Config{Dir: cc.Uploads.Dir(), MaxSize: maxSize, MaxTotal: maxTotal})
		if err != nil {
			t.Fatal(err)
		}
		cc.Uploads, *ups = s, s
	}
}

// storedBytes adds up the committed uploads under dataDir.
func storedBytes(t *testing.T, dataDir string) int64 {
	t.Helper()
	var n int64
	committed, _ := uploadEntries(t, dataDir)
	for _, id := range committed {
		filepath.WalkDir(filepath.Join(dataDir, "uploads", id), func(_ string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				info, _ := d.Info()
				n += info.Size()
			}
			return nil
		})
	}
	return n
}

// startIdleUpload sends FILE_METADATA and one byte of data, then waits
// for the PONG to a PING sent behind them: the byte is written.
func startIdleUpload(c *client, size int64) {
	c.t.Helper()
	c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "idle.bin", Size: size})
	c.send(nplt.FileData, []byte{'x'})
	c.send(nplt.Ping, []byte("sync"))
	for {
		f := c.read()
		if f.Type == nplt.Pong {
			return
		}
		if f.Type != nplt.UploadProgress && f.Type != nplt.Ping {
			c.t.Fatalf("upload start: got %v %q", f.Type, f.Payload)
		}
	}
}

// TestIdleUploadsDoNotHoldTheQuota is the reviewer's scenario: two
// connections declare a 100-byte upload each against a 200-byte server
// quota, send one byte and stop. They hold only the byte each wrote, so
// a third client's small upload is stored; when the idle uploads resume,
// the one that no longer fits is refused with quota_exceeded as its data
// arrives and its temp file removed. Afterwards, aborts, disconnects and
// commits included, the quota counts exactly the bytes on disk.
func TestIdleUploadsDoNotHoldTheQuota(t *testing.T) {
	var ups *uploads.Store
	dir := t.TempDir()
	ts := startServer(t, dir, withUploadStore(t, 100, 200, &ups))
	idle := []*client{dial(t, ts.addr, true), dial(t, ts.addr, true)}
	for _, c := range idle {
		startIdleUpload(c, 100)
	}
	small := dial(t, ts.addr, true)
	if fs := small.upload("small.txt", []byte("hello"), ""); errorCode(t, fs) != "" {
		t.Fatalf("small upload beside two idle ones: %v", fs)
	}

	idle[0].send(nplt.FileData, bytes.Repeat([]byte{'y'}, 99))
	if fs := idle[0].reply(); errorCode(t, fs) != "" {
		t.Fatalf("first idle upload resumed: %v", fs)
	}
	idle[1].send(nplt.FileData, bytes.Repeat([]byte{'y'}, 99))
	fs := idle[1].reply()
	if code := errorCode(t, fs); code != api.CodeQuotaExceeded {
		t.Fatalf("second idle upload past the quota: code %q (%v)", code, fs)
	}
	for _, f := range fs {
		var e nplt.ErrorPayload
		if f.Type == nplt.Error && (json.Unmarshal(f.Payload, &e) != nil || !strings.Contains(e.Message, "99 B more")) {
			t.Errorf("refusal %q: want the 99 bytes the file still needs", f.Payload)
		}
	}
	if committed, temp := uploadEntries(t, dir); len(committed) != 2 || len(temp) != 0 {
		t.Fatalf("after the refusal: committed %v, temp %v", committed, temp)
	}

	// An upload cut off by a disconnect gives back what it wrote.
	gone := dial(t, ts.addr, true)
	startIdleUpload(gone, 50)
	gone.nc.Close()
	waitFor(t, "the disconnected upload's bytes released", func() bool { return ups.Receiving() == 0 })

	if got, disk := ups.Used(), storedBytes(t, dir); got != 105 || disk != 105 {
		t.Fatalf("quota counts %d bytes, %d on disk; want 105", got, disk)
	}
	// Exactly the rest fits: 95 bytes are refused at FILE_METADATA if 96
	// are declared, and stored if 95 are.
	small.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "c.txt", Size: 96})
	if code := errorCode(t, small.reply()); code != api.CodeQuotaExceeded {
		t.Fatalf("96 bytes with 95 free: code %q", code)
	}
	if fs := small.upload("d.txt", make([]byte, 95), ""); errorCode(t, fs) != "" {
		t.Fatalf("95 bytes with 95 free: %v", fs)
	}
	if got, disk := ups.Used(), storedBytes(t, dir); got != 200 || disk != 200 || ups.Receiving() != 0 {
		t.Fatalf("quota counts %d bytes (+%d receiving), %d on disk; want 200", got, ups.Receiving(), disk)
	}
}

// TestStalledUploadIsAborted runs on synctest's clock: an upload that
// receives no file data for the upload stall timeout (default 60 s) is
// aborted with ERROR upload_timeout, counted from its last data, however
// many PINGs keep the connection alive meanwhile; its temp file and quota
// bytes are given back, data still on its way is dropped quietly, and the
// connection goes on serving.
func TestStalledUploadIsAborted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const stall = 60 * time.Second // the default
		var ups *uploads.Store
		dir := t.TempDir()
		pl := newPipeListener()
		startServerOn(t, dir, pl, withUploadStore(t, 100, 100, &ups))
		c := greeted(t, pl.dial(), true)
		c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "slow.bin", Size: 100})
		c.send(nplt.FileData, make([]byte, 10))
		time.Sleep(stall / 2)
		c.send(nplt.FileData, make([]byte, 10)) // progress restarts the clock
		lastData := time.Now()

		// Read on a goroutine of its own, through the end of the
		// upload_timeout reply, noting when the ERROR arrives.
		errAt := make(chan time.Time, 1)
		readDone := make(chan struct{})
		go func() {
			defer close(readDone)
			c.nc.SetReadDeadline(time.Time{})
			var got bool
			for {
				f, err := c.r.ReadFrame()
				if err != nil {
					t.Errorf("read: %v", err)
					return
				}
				switch {
				case f.Type == nplt.Error:
					var e nplt.ErrorPayload
					json.Unmarshal(f.Payload, &e)
					if e.Code != api.CodeUploadTimeout || !strings.Contains(e.Message, "上传超时") || !strings.Contains(e.Message, "no file data for 1m0s") {
						t.Errorf("error %q", f.Payload)
					}
					got = true
					errAt <- time.Now()
				case f.Type == nplt.ChatText && len(f.Payload) == 0 && got:
					return
				case f.Type != nplt.Pong:
					t.Errorf("unexpected %v %q", f.Type, f.Payload)
				}
			}
		}()
		var at time.Time
	ping:
		for {
			select {
			case at = <-errAt:
				break ping
			case <-time.After(7 * time.Second): // heartbeats are not progress
				if time.Since(lastData) > 2*stall {
					t.Fatalf("no upload_timeout %v after the last data", time.Since(lastData))
				}
				c.send(nplt.Ping, []byte("hb"))
			}
		}
		<-readDone
		if d := at.Sub(lastData); d != stall {
			t.Errorf("aborted %v after the last data, want %v", d, stall)
		}
		if _, temp := uploadEntries(t, dir); len(temp) != 0 || ups.Receiving() != 0 {
			t.Fatalf("after the abort: temp %v, %d bytes still booked", temp, ups.Receiving())
		}
		c.send(nplt.FileData, make([]byte, 80)) // late data: dropped quietly
		if fs := c.upload("whole.bin", make([]byte, 100), ""); errorCode(t, fs) != "" {
			t.Fatalf("the whole quota after the abort: %v", fs)
		}
		if ups.Used() != 100 || storedBytes(t, dir) != 100 {
			t.Fatalf("quota counts %d bytes, %d on disk; want 100", ups.Used(), storedBytes(t, dir))
		}
	})
}
