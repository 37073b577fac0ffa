package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"opsassist/internal/npltfake"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// testContext returns a context that ends after npltfake.Timeout.
func testContext(t *testing.T) (context.Context, context.CancelFunc) {
	return context.WithTimeout(t.Context(), npltfake.Timeout)
}

// golden compares got with testdata/name.golden, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}
