package pathguard

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// approvedFixture is a root, a readable file outside it, a secret
// outside it, and links inside the root to both.
type approvedFixture struct {
	v                       *Validator
	root, outside, secret   string
	linkOutside, linkSecret string
	inside, secretInside    string
}

func newApprovedFixture(t *testing.T) approvedFixture {
	t.Helper()
	base := t.TempDir()
	f := approvedFixture{root: filepath.Join(base, "root")}
	other := filepath.Join(base, "other")
	for _, d := range []string{f.root, other, filepath.Join(other, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.inside = filepath.Join(f.root, "notes.txt")
	f.secretInside = filepath.Join(f.root, "server.pem")
	f.outside = filepath.Join(other, "hostname")
	f.secret = filepath.Join(other, ".ssh", "config")
	for _, p := range []string{f.inside, f.secretInside, f.outside, f.secret} {
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f.linkOutside = filepath.Join(f.root, "host")
	f.linkSecret = filepath.Join(f.root, "cfg")
	if err := os.Symlink(f.outside, f.linkOutside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.secret, f.linkSecret); err != nil {
		t.Fatal(err)
	}
	v, err := New(Config{Roots: []string{f.root}, BaseDir: f.root})
	if err != nil {
		t.Fatal(err)
	}
	f.v = v
	return f
}

// TestClassify: inside a root, outside every root, a secret (as
// written, or reached through a link inside the root), and unusable.
func TestClassify(t *testing.T) {
	f := newApprovedFixture(t)
	for _, tc := range []struct {
		path string
		want Class
	}{
		{f.inside, Inside},
		{"notes.txt", Inside},
		{f.outside, Outside},
		{f.linkOutside, Outside},
		{f.secret, Secret},
		{f.linkSecret, Secret},
		{f.secretInside, Secret},
		{"/proc/self/environ", Secret},
		{"/etc/shadow", Secret},
		{"", Unusable},
		{"a\x00b", Unusable},
	} {
		if got, _ := f.v.Classify(tc.path); got != tc.want {
			t.Errorf("Classify(%q) = %s, want %s", tc.path, got, tc.want)
		}
	}
}

// TestApprovedOpensOutsideButNotDenied: the Approved validator opens a
// file outside the roots, directly or through a link inside them, and
// still refuses secrets — through a link inside the root too — and the
// plain validator still refuses the outside file.
func TestApprovedOpensOutsideButNotDenied(t *testing.T) {
	f := newApprovedFixture(t)
	if _, _, err := f.v.Open(f.outside); !errors.Is(err, ErrOutsideRoots) {
		t.Fatalf("plain Open outside: %v, want ErrOutsideRoots", err)
	}
	a := f.v.Approved()
	for _, p := range []string{f.outside, f.linkOutside, f.inside} {
		file, _, err := a.Open(p)
		if err != nil {
			t.Fatalf("approved Open(%s): %v", p, err)
		}
		file.Close()
		pin, _, err := a.Pin(p)
		if err != nil {
			t.Fatalf("approved Pin(%s): %v", p, err)
		}
		pin.Close()
	}
	for _, p := range []string{f.secret, f.linkSecret, f.secretInside, "/etc/shadow"} {
		if _, _, err := a.Open(p); !errors.Is(err, ErrForbidden) {
			t.Fatalf("approved Open(%s): %v, want ErrForbidden", p, err)
		}
		if _, _, err := a.Pin(p); !errors.Is(err, ErrForbidden) {
			t.Fatalf("approved Pin(%s): %v, want ErrForbidden", p, err)
		}
	}
	// A hard link outside the roots is still refused.
	hard := filepath.Join(filepath.Dir(f.outside), "hard")
	if err := os.Link(f.outside, hard); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Open(hard); !errors.Is(err, ErrHardLink) {
		t.Fatalf("approved Open of a hard link: %v, want ErrHardLink", err)
	}
}
