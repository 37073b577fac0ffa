package datalock

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPublishReadRelease: the holder's record is written with its pid,
// mode 0600, read back by a client that knows the holder's pid, and
// removed by Release.
func TestPublishReadRelease(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	want := Record{HTTP: "127.0.0.1:41234", NPLT: "127.0.0.1:41235", RDT: "127.0.0.1:41236", TLS: true, TLSCertSHA256: strings.Repeat("ab", 32), Version: "test"}
	if err := l.Publish(want); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, RecordName)
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("record: %v, mode %v, want 0600", err, fi.Mode())
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
	_, err = Acquire(dir)
	held, ok := errors.AsType[*HeldError](err)
	if !ok {
		t.Fatalf("second Acquire: %v", err)
	}
	got, err := ReadRecord(dir, held.PID)
	want.PID, want.Nonce = os.Getpid(), l.nonce
	if err != nil || got != want || len(got.Nonce) != 32 {
		t.Fatalf("ReadRecord: %+v %v, want %+v", got, err, want)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("record after Release: %v, want it removed", err)
	}
}

// TestPublishUnheld: only the holder publishes.
func TestPublishUnheld(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.Release()
	if err := l.Publish(Record{HTTP: "127.0.0.1:1"}); err == nil {
		t.Fatal("Publish after Release succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, RecordName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("record: %v", err)
	}
}

// TestReadRecordRefuses: a record that is missing, oversized, malformed,
// another holding's (a daemon killed with SIGKILL leaves one naming its
// dead pid; under a reused pid, its nonce is not the lock file's), or
// that names no address is a *RecordError naming the file; no address
// is returned.
func TestReadRecordRefuses(t *testing.T) {
	const holder = 4242
	for _, c := range []struct {
		name, content string
		holder        int
		want          string
		lockFile      string // "4242 n0nce\n" if empty
	}{
		{"missing", "", holder, "no such file", ""},
		{"oversized", `{"pid":4242,"http":"` + strings.Repeat("x", maxRecord) + `"}`, holder, "larger than", ""},
		{"malformed", `{"pid":4242,"http":`, holder, "malformed", ""},
		{"stale", `{"pid":999999,"http":"127.0.0.1:8080"}`, holder, "stale: it names pid 999999, not the lock holder", ""},
		{"no holder", `{"pid":4242,"http":"127.0.0.1:8080"}`, 0, "the lock file names no holder", ""},
		{"no address", `{"pid":4242,"nonce":"n0nce"}`, holder, "names no http address", ""},
		{"other nonce", `{"pid":4242,"nonce":"old","http":"127.0.0.1:8080"}`, holder, "is stale: its nonce is not the lock holder's", ""},
		{"no nonce", `{"pid":4242,"http":"127.0.0.1:8080"}`, holder, "is stale: its nonce is not the lock holder's", ""},
		{"lock file without nonce", `{"pid":4242,"nonce":"","http":"127.0.0.1:8080"}`, holder, "is stale: its nonce is not the lock holder's", "4242\n"},
		{"holder changed", `{"pid":4242,"nonce":"n0nce","http":"127.0.0.1:8080"}`, holder, "the lock file now names pid 4343, not 4242", "4343 n0nce\n"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, RecordName)
		if c.name != "missing" {
			os.WriteFile(path, []byte(c.content), 0o600)
		}
		if c.lockFile == "" {
			c.lockFile = "4242 n0nce\n"
		}
		os.WriteFile(filepath.Join(dir, FileName), []byte(c.lockFile), 0o600)
		r, err := ReadRecord(dir, c.holder)
		re, ok := errors.AsType[*RecordError](err)
		if !ok || !errors.Is(err, ErrNoRecord) || r != (Record{}) {
			t.Errorf("%s: %+v %v, want a *RecordError", c.name, r, err)
			continue
		}
		if re.Path != path || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q and the file named", c.name, err, c.want)
		}
	}
}

// TestReadRecordMatchingNonce: a record whose pid and nonce are the lock
// file's is read (the lock file as a holder writes it, "<pid> <nonce>").
func TestReadRecordMatchingNonce(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, FileName), []byte("4242 n0nce\n"), 0o600)
	os.WriteFile(filepath.Join(dir, RecordName), []byte(`{"pid":4242,"nonce":"n0nce","http":"127.0.0.1:8080"}`), 0o600)
	if r, err := ReadRecord(dir, 4242); err != nil || r.HTTP != "127.0.0.1:8080" {
		t.Fatalf("ReadRecord: %+v %v", r, err)
	}
}

// TestStaleRecordSamePid: a daemon killed with SIGKILL leaves its record;
// the next holder has the same pid (a container's pid 1). From Acquire
// on, before it publishes, no record is read: Acquire removed the old
// one, and one written back under the same pid (a previous holder's
// nonce) is refused.
func TestStaleRecordSamePid(t *testing.T) {
	dir := t.TempDir()
	stale := `{"pid": ` + strconv.Itoa(os.Getpid()) + `, "nonce": "0123456789abcdef0123456789abcdef", "http": "127.0.0.1:41234", "tls": false}`
	path := filepath.Join(dir, RecordName)
	os.WriteFile(path, []byte(stale), 0o600)
	l, err := Acquire(dir) // the new holder, before Publish
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the previous holder's record after Acquire: %v, want it removed", err)
	}
	if r, err := ReadRecord(dir, os.Getpid()); !errors.Is(err, ErrNoRecord) {
		t.Fatalf("ReadRecord before Publish: %+v %v, want ErrNoRecord", r, err)
	}
	os.WriteFile(path, []byte(stale), 0o600) // as if it had survived
	if r, err := ReadRecord(dir, os.Getpid()); !errors.Is(err, ErrNoRecord) || !strings.Contains(err.Error(), "is stale: its nonce is not the lock holder's") {
		t.Fatalf("the previous holder's record under the same pid: %+v %v, want it refused as stale", r, err)
	}
	if err := l.Publish(Record{HTTP: "127.0.0.1:2"}); err != nil {
		t.Fatal(err)
	}
	if r, err := ReadRecord(dir, os.Getpid()); err != nil || r.HTTP != "127.0.0.1:2" {
		t.Fatalf("the new holder's record: %+v %v", r, err)
	}
}

// TestUnpublish: Unpublish removes the record and keeps the lock; a
// second Unpublish, and Release after it, are no error.
func TestUnpublish(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Publish(Record{HTTP: "127.0.0.1:2"}); err != nil {
		t.Fatal(err)
	}
	if err := l.Unpublish(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, RecordName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("record after Unpublish: %v, want it removed", err)
	}
	if _, err := Acquire(dir); !errors.Is(err, ErrHeld) {
		t.Fatalf("Acquire after Unpublish: %v, want the lock still held", err)
	}
	if err := l.Unpublish(); err != nil {
		t.Fatalf("second Unpublish: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
}
