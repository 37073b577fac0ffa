package audit

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// validLog returns the bytes of a log file with n records and its HEAD.
func validLog(t testing.TB, n int) (log, head []byte) {
	dir := filepath.Join(t.TempDir(), "audit")
	l, err := Open(dir, Options{Now: func() time.Time { return day0 }})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := l.Record(call(i)); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	log, err = os.ReadFile(filepath.Join(dir, file1))
	if err != nil {
		t.Fatal(err)
	}
	head, err = os.ReadFile(filepath.Join(dir, headName))
	if err != nil {
		t.Fatal(err)
	}
	return log, head
}

// FuzzVerify feeds arbitrary bytes as a log file and HEAD: Verify never
// panics and answers a Report or an error; a log it accepts, Open
// accepts and continues so that Verify still accepts it, one record
// more. The same bytes split over two days' files verify or fail the
// same way as a whole when the split falls between lines.
func FuzzVerify(f *testing.F) {
	log, head := validLog(f, 3)
	f.Add(log, head)
	f.Add(log, []byte(nil))
	f.Add(log[:len(log)-5], head)
	f.Add([]byte("garbage\n"), []byte(nil))
	f.Add([]byte(`{"seq":1,"prev":"`+zeroHash+`"}`+"\n"), []byte(`{"seq":1,"hash":"`+zeroHash+`"}`))
	f.Fuzz(func(t *testing.T, log, head []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, file1), log, 0o600); err != nil {
			t.Fatal(err)
		}
		if head != nil {
			if err := os.WriteFile(filepath.Join(dir, headName), head, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := Verify(dir)
		if err != nil {
			var be *BrokenError
			if !errors.As(err, &be) {
				t.Fatalf("Verify: %v, not a BrokenError", err)
			}
			return
		}
		if i := strings.Index(string(log), "\n"); i >= 0 && i+1 < len(log) {
			split := t.TempDir()
			os.WriteFile(filepath.Join(split, file1), log[:i+1], 0o600)
			os.WriteFile(filepath.Join(split, file2), log[i+1:], 0o600)
			if head != nil {
				os.WriteFile(filepath.Join(split, headName), head, 0o600)
			}
			if r2, err := Verify(split); err != nil || r2.Records != rep.Records || r2.Head != rep.Head {
				t.Fatalf("split in two files: %+v, %v; whole: %+v", r2, err, rep)
			}
		}
		l, err := Open(dir, Options{Now: func() time.Time { return day0 }, noSync: true})
		if err != nil {
			t.Fatalf("Open of a log Verify accepts: %v", err)
		}
		if err := l.Record(call(0)); err != nil {
			t.Fatal(err)
		}
		l.Close()
		if r2, err := Verify(dir); err != nil || r2.Records != rep.Records+1 {
			t.Fatalf("after one more record: %+v, %v (was %d)", r2, err, rep.Records)
		}
	})
}

// TestVerifyMemory checks that an enormous line is reported, not read
// whole.
func TestVerifyMemory(t *testing.T) {
	dir := t.TempDir()
	log, _ := validLog(t, 2)
	big := make([]byte, 16<<20)
	for i := range big {
		big[i] = 'x'
	}
	if err := os.WriteFile(filepath.Join(dir, file1), append(append(log, big...), '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	big = nil
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Verify(dir)
	runtime.ReadMemStats(&after)
	var be *BrokenError
	if !errors.As(err, &be) || be.Line != 3 || !strings.Contains(be.Reason, "longer than") {
		t.Fatalf("Verify: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("Verify allocated %d bytes for a 16 MiB line", alloc)
	}
	l, err := Open(dir, Options{})
	if !errors.As(err, &be) {
		t.Fatalf("Open: %v, %v", l, err)
	}
}
