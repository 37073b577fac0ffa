package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records failures instead of stopping.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }

func TestCheck(t *testing.T) {
	file := filepath.Join(t.TempDir(), "testdata", "x.golden")
	r := &recorder{TB: t}
	if Check(r, file, "a\n", false); !r.failed {
		t.Error("a missing file passed")
	}
	r = &recorder{TB: t}
	if Check(r, file, "a\n", true); r.failed {
		t.Error("update failed")
	}
	if b, _ := os.ReadFile(file); string(b) != "a\n" {
		t.Errorf("file holds %q", b)
	}
	r = &recorder{TB: t}
	if Check(r, file, "a\n", false); r.failed {
		t.Error("the same output failed")
	}
	r = &recorder{TB: t}
	if Check(r, file, "b\n", false); !r.failed {
		t.Error("a different output passed")
	}
}
