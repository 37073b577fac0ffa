// Package golden compares test output with testdata/*.golden files, for
// structured output a reviewer should see change: prompts, tool schemas.
// The -update flag belongs to each test binary:
//
//	var update = flag.Bool("update", false, "rewrite testdata/*.golden")
//	…
//	golden.Check(t, filepath.Join("testdata", "x.golden"), got, *update)
package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// Check fails t unless the file holds exactly got. With update it first
// writes got to the file, creating its directory.
func Check(t testing.TB, file, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (review the change, then rerun with -update); got:\n%s", file, got)
	}
}
