package pathguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// FuzzCheck feeds arbitrary paths to Check over the fixture tree. Every
// accepted path must already be physical (filepath.EvalSymlinks of its
// existing part changes nothing), lie inside the root and match no default
// deny pattern; when the kernel could open the input, Check must agree
// with filepath.EvalSymlinks about where it leads.
func FuzzCheck(f *testing.F) {
	fx := newFixture(f)
	for _, s := range []string{
		"good.txt", "../good.txt", "../../etc/passwd", fx.root + "/escape/../uploads/good.txt",
		fx.root + "/a/../escape/x", "../dangling", "../inner/../good.txt", "../.SSH/x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		got, err := fx.v.Check(path)
		abs := path
		if !filepath.IsAbs(path) {
			abs = filepath.Join(fx.root, "sub") + "/" + path
		}
		kernel, kerr := filepath.EvalSymlinks(abs)
		if err != nil {
			if !errors.Is(err, ErrOutsideRoots) && !errors.Is(err, ErrForbidden) && !errors.Is(err, ErrInvalid) {
				t.Fatalf("Check(%q): untyped error %v", path, err)
			}
			if errors.Is(err, ErrOutsideRoots) && kerr == nil && within(kernel, fx.root) {
				t.Fatalf("Check(%q) = %v, but it leads to %q", path, err, kernel)
			}
			return
		}
		if kerr == nil && kernel != got {
			t.Fatalf("Check(%q) = %q, EvalSymlinks = %q", path, got, kernel)
		}
		if phys := physical(t, got); phys != got {
			t.Fatalf("Check(%q) = %q, which resolves to %q", path, got, phys)
		}
		if !within(got, fx.root) {
			t.Fatalf("Check(%q) = %q, outside %q", path, got, fx.root)
		}
		if why := deniedOracle(got); why != "" {
			t.Fatalf("Check(%q) = %q, which is denied: %s", path, got, why)
		}
	})
}

// physical resolves the existing part of p with filepath.EvalSymlinks and
// appends the rest.
func physical(t *testing.T, p string) string {
	tail := ""
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(r, tail)
		}
		if !errors.Is(err, fs.ErrNotExist) || p == "/" {
			t.Fatalf("EvalSymlinks(%q): %v", p, err)
		}
		tail = filepath.Join(filepath.Base(p), tail)
		p = filepath.Dir(p)
	}
}

func within(p, root string) bool {
	return p == root || strings.HasPrefix(p, root+"/")
}

// deniedOracle restates the default deny list without the matcher.
func deniedOracle(p string) string {
	lp := strings.ToLower(p)
	if within(lp, "/etc/shadow") || within(lp, "/etc/passwd") {
		return "system file"
	}
	segs := strings.Split(lp, "/")
	for i, s := range segs {
		switch {
		case s == ".ssh", s == ".env":
			return s
		case strings.Contains(s, "secret"), strings.HasSuffix(s, ".pem"), strings.HasPrefix(s, "id_"), strings.HasSuffix(s, ".key"):
			return s
		case s == ".git" && i+1 < len(segs) && segs[i+1] == "config":
			return ".git/config"
		}
	}
	return ""
}

// FuzzOpen feeds arbitrary paths to Open over the fixture tree: every file
// it opens must really lie inside the root (where the kernel says the
// descriptor is), match no default deny pattern and have a single link.
func FuzzOpen(f *testing.F) {
	fx := newFixture(f)
	for _, s := range []string{"../good.txt", "../inner/notes.txt", "../escape-file", "../innocent", "..", "../loop1/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		file, got, err := fx.v.Open(path)
		if err != nil {
			return
		}
		defer file.Close()
		at, err := os.Readlink(FDPath(int(file.Fd())))
		if err != nil {
			t.Fatal(err)
		}
		if at != got || !within(at, fx.root) || deniedOracle(at) != "" {
			t.Fatalf("Open(%q) opened %q (reported %q)", path, at, got)
		}
		if st, err := file.Stat(); err != nil || st.Mode().IsRegular() && st.Sys().(*syscall.Stat_t).Nlink != 1 {
			t.Fatalf("Open(%q): %v, %v", path, st, err)
		}
	})
}
