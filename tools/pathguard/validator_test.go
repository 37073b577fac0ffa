package pathguard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is a directory tree with one root, files the default deny list
// refuses, and links that lead out of the root.
type fixture struct {
	tmp, root, outside string
	v                  *Validator
}

// newFixture builds the tree under t.TempDir():
//
//	root/good.txt, root/data/notes.txt, root/sub/
//	root/.ssh/id_rsa, root/.env, root/repo/.git/config, root/my-SECRET.txt,
//	root/cert.PEM, root/id_ed25519, root/server.key
//	root/escape -> outside/        root/escape-file -> outside/target.txt
//	root/dangling -> outside/new.txt (missing)
//	root/inner -> root/data        root/id_rsa_link -> good.txt
//	root/innocent -> .env          root/loop1 <-> root/loop2
//	outside/target.txt, uploads-evil/x.txt (a sibling of root sharing its prefix)
//
// The validator's root is root and its base directory root/sub.
func newFixture(t testing.TB) *fixture {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{tmp: tmp, root: filepath.Join(tmp, "uploads"), outside: filepath.Join(tmp, "outside")}
	for _, d := range []string{"uploads/data", "uploads/sub", "uploads/.ssh", "uploads/repo/.git", "outside", "uploads-evil"} {
		mkdir(t, filepath.Join(tmp, d))
	}
	for _, p := range []string{
		"uploads/good.txt", "uploads/data/notes.txt", "uploads/.ssh/id_rsa", "uploads/.env",
		"uploads/repo/.git/config", "uploads/my-SECRET.txt", "uploads/cert.PEM", "uploads/id_ed25519",
		"uploads/server.key", "outside/target.txt", "uploads-evil/x.txt",
	} {
		write(t, filepath.Join(tmp, p), "x")
	}
	for link, target := range map[string]string{
		"escape":      f.outside,
		"escape-file": filepath.Join(f.outside, "target.txt"),
		"dangling":    filepath.Join(f.outside, "new.txt"),
		"inner":       filepath.Join(f.root, "data"),
		"id_rsa_link": "good.txt",
		"innocent":    ".env",
		"loop1":       "loop2",
		"loop2":       "loop1",
	} {
		if err := os.Symlink(target, filepath.Join(f.root, link)); err != nil {
			t.Fatal(err)
		}
	}
	f.v, err = New(Config{Roots: []string{f.root}, BaseDir: filepath.Join(f.root, "sub")})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mkdir(t testing.TB, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func write(t testing.TB, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheck(t *testing.T) {
	f := newFixture(t)
	r := f.root
	tests := []struct {
		name string
		path string
		want string // resolved path when accepted
		err  error
	}{
		{"good absolute", r + "/good.txt", r + "/good.txt", nil},
		{"good relative to base", "../data/notes.txt", r + "/data/notes.txt", nil},
		{"root itself", r, r, nil},
		{"dot segments", r + "/./data//notes.txt", r + "/data/notes.txt", nil},
		{"link inside root", r + "/inner/notes.txt", r + "/data/notes.txt", nil},
		{"nonexistent file", r + "/new.txt", r + "/new.txt", nil},
		{"nonexistent dirs", "../a/b/c.txt", r + "/a/b/c.txt", nil},
		{"dotdot over missing dir", r + "/a/../good.txt", r + "/good.txt", nil},

		{"traversal", "../../etc/passwd", "", ErrOutsideRoots},
		{"deep traversal", "../../../../../../../../etc/passwd", "", ErrOutsideRoots},
		{"absolute outside", "/etc/hostname", "", ErrOutsideRoots},
		{"parent of root", r + "/..", "", ErrOutsideRoots},
		{"link to outside dir", r + "/escape/target.txt", "", ErrOutsideRoots},
		{"link to outside file", r + "/escape-file", "", ErrOutsideRoots},
		{"dangling link to outside", r + "/dangling", "", ErrOutsideRoots},
		{"new file through link", r + "/escape/new.txt", "", ErrOutsideRoots},
		// ".." after a link goes to the link target's parent, as in the
		// kernel; a lexical clean would wrongly give root/good.txt.
		{"dotdot after link", r + "/escape/../uploads/good.txt", f.tmp + "/uploads/good.txt", nil},
		{"dotdot after link leaves root", r + "/escape/../outside/target.txt", "", ErrOutsideRoots},
		{"missing dir then link", r + "/a/../escape/target.txt", "", ErrOutsideRoots},
		{"prefix trick", f.tmp + "/uploads-evil/x.txt", "", ErrOutsideRoots},
		{"prefix trick relative", "../../uploads-evil/x.txt", "", ErrOutsideRoots},

		{".ssh dir", r + "/.ssh", "", ErrForbidden},
		{"file in .ssh", r + "/.ssh/id_rsa", "", ErrForbidden},
		{".env", "../.env", "", ErrForbidden},
		{".env upper case", r + "/.ENV", "", ErrForbidden},
		{".git/config", r + "/repo/.git/config", "", ErrForbidden},
		{"secret", r + "/my-SECRET.txt", "", ErrForbidden},
		{"pem", r + "/cert.PEM", "", ErrForbidden},
		{"id_ed25519", r + "/id_ed25519", "", ErrForbidden},
		{"id_rsa not yet written", r + "/id_rsa", "", ErrForbidden},
		{"key", r + "/server.key", "", ErrForbidden},
		{"link named like a key", r + "/id_rsa_link", "", ErrForbidden},
		{"link to a denied file", r + "/innocent", "", ErrForbidden},

		{"empty", "", "", ErrInvalid},
		{"NUL", r + "/good.txt\x00", "", ErrInvalid},
		{"file as directory", r + "/good.txt/x", "", ErrInvalid},
		{"link loop", r + "/loop1", "", ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.v.Check(tt.path)
			if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Fatalf("Check(%q) error = %v, want %v", tt.path, err, tt.err)
			}
			if err != nil && tt.path != "" && !strings.Contains(err.Error(), strings.ReplaceAll(tt.path, "\x00", `\x00`)) {
				t.Errorf("error %q does not name the path", err)
			}
			if got != tt.want {
				t.Errorf("Check(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

// TestCheckSymlinkedRoot configures a root through a link: paths via the
// link and via its target are both inside.
func TestCheckSymlinkedRoot(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(tmp, "real")
	mkdir(t, real)
	write(t, filepath.Join(real, "a.txt"), "a")
	link := filepath.Join(tmp, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	v, err := New(Config{Roots: []string{link}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link + "/a.txt", real + "/a.txt"} {
		got, err := v.Check(p)
		if err != nil || got != real+"/a.txt" {
			t.Errorf("Check(%q) = %q, %v; want %q", p, got, err, real+"/a.txt")
		}
	}
	if _, err := v.Check(tmp + "/link"); err != nil {
		t.Errorf("root link itself: %v", err)
	}
	if _, err := v.Check(tmp); !errors.Is(err, ErrOutsideRoots) {
		t.Errorf("parent of root: %v", err)
	}
}

// TestCheckSystemFiles checks the anchored default patterns with /etc as
// the root.
func TestCheckSystemFiles(t *testing.T) {
	v, err := New(Config{Roots: []string{"/etc"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/etc/shadow", "/etc/passwd", "/etc/../etc/passwd", "/ETC/PASSWD"} {
		if _, err := v.Check(p); !errors.Is(err, ErrForbidden) && !errors.Is(err, ErrOutsideRoots) {
			t.Errorf("Check(%q) = %v, want refusal", p, err)
		}
	}
	if _, err := v.Check("/etc/shadow"); !errors.Is(err, ErrForbidden) {
		t.Errorf("Check(/etc/shadow) = %v, want ErrForbidden", err)
	}
	if _, err := v.Check("/etc/hostname"); err != nil {
		t.Errorf("Check(/etc/hostname) = %v", err)
	}
}

func TestDenyConfig(t *testing.T) {
	f := newFixture(t)
	none, err := New(Config{Roots: []string{f.root}, Deny: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := none.Check(f.root + "/.env"); err != nil {
		t.Errorf("empty deny list refused .env: %v", err)
	}
	custom, err := New(Config{Roots: []string{f.root}, Deny: []string{"data/*.TXT", "/" + strings.TrimPrefix(f.root, "/") + "/sub"}})
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]error{
		f.root + "/data/notes.txt": ErrForbidden,
		f.root + "/sub/new.txt":    ErrForbidden,
		f.root + "/.env":           nil,
		f.root + "/good.txt":       nil,
	} {
		if _, err := custom.Check(p); !errors.Is(err, want) || (want == nil) != (err == nil) {
			t.Errorf("Check(%q) = %v, want %v", p, err, want)
		}
	}
}

func TestNewErrors(t *testing.T) {
	for name, cfg := range map[string]Config{
		"no roots":    {},
		"empty root":  {Roots: []string{""}},
		"bad pattern": {Roots: []string{"/tmp"}, Deny: []string{"[x"}},
		"empty deny":  {Roots: []string{"/tmp"}, Deny: []string{""}},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: New succeeded", name)
		}
	}
}

func TestDefaultDenyIsFresh(t *testing.T) {
	d := DefaultDeny()
	d[0] = "changed"
	if DefaultDeny()[0] != ".ssh" {
		t.Fatal("DefaultDeny shares its slice")
	}
}

func TestDefaultDenyCoversCommonSecrets(t *testing.T) {
	root := t.TempDir()
	v, err := New(Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".env.local", ".env.production", ".aws/credentials", ".netrc", ".git-credentials", ".pgpass", "cert.p12", "cert.pfx", "vault.kdbx"} {
		if _, err := v.Check(filepath.Join(root, name)); !errors.Is(err, ErrForbidden) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
