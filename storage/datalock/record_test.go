package datalock

import (
	"errors"
	"os"
	"path/filepath"
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
	want.PID = os.Getpid()
	if err != nil || got != want {
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
// another process's (a daemon killed with SIGKILL leaves one naming its
// dead pid), or that names no address is a *RecordError naming the
// file; no address is returned.
func TestReadRecordRefuses(t *testing.T) {
	const holder = 4242
	for _, c := range []struct {
		name, content string
		holder        int
		want          string
	}{
		{"missing", "", holder, "no such file"},
		{"oversized", `{"pid":4242,"http":"` + strings.Repeat("x", maxRecord) + `"}`, holder, "larger than"},
		{"malformed", `{"pid":4242,"http":`, holder, "malformed"},
		{"stale", `{"pid":999999,"http":"127.0.0.1:8080"}`, holder, "stale: it names pid 999999, not the lock holder"},
		{"no holder", `{"pid":4242,"http":"127.0.0.1:8080"}`, 0, "the lock file names no holder"},
		{"no address", `{"pid":4242}`, holder, "names no http address"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, RecordName)
		if c.name != "missing" {
			os.WriteFile(path, []byte(c.content), 0o600)
		}
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
