package tokens

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenChecksTheFile issues a token for a file, then replaces the
// file in the ways an attacker with write access to its directory could:
// only the untouched file is served.
func TestOpenChecksTheFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	other := filepath.Join(dir, "other.txt")
	write := func(name, s string) {
		t.Helper()
		if err := os.WriteFile(name, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	issue := func() Token {
		t.Helper()
		os.Remove(p)
		os.Remove(other)
		write(p, "hello")
		write(other, "WORLD")
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		dev, ino := FileID(st)
		return Token{Path: p, Filename: "a.txt", Size: 5, Dev: dev, Ino: ino}
	}
	tok := issue()
	f, _, err := tok.open()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "hello" {
		t.Fatalf("read %q", b)
	}
	for name, change := range map[string]func() error{
		"same size, another file": func() error { return os.Rename(other, p) },
		"link to another file": func() error {
			os.Remove(p)
			return os.Symlink(other, p)
		},
		"other size": func() error { return os.WriteFile(p, []byte("hello!"), 0o600) },
	} {
		tok := issue()
		if err := change(); err != nil {
			t.Fatal(err)
		}
		if f, _, err := tok.open(); !errors.Is(err, ErrFileChanged) {
			if f != nil {
				f.Close()
			}
			t.Errorf("%s: %v, want ErrFileChanged", name, err)
		}
	}
	tok = issue()
	os.Remove(p)
	if _, _, err := tok.open(); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("removed: %v", err)
	}
}
