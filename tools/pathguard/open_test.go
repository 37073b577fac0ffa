package pathguard

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestOpen(t *testing.T) {
	f := newFixture(t)
	r := f.root
	if err := syscall.Mkfifo(r+"/fifo", 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(f.outside+"/target.txt", r+"/hard"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       string // resolved path when opened
		err        error
	}{
		{"file", r + "/good.txt", r + "/good.txt", nil},
		{"relative", "../data/notes.txt", r + "/data/notes.txt", nil},
		{"link inside root", r + "/inner/notes.txt", r + "/data/notes.txt", nil},
		{"directory", r + "/data", r + "/data", nil},
		{"root", r, r, nil},
		{"missing", r + "/new.txt", "", fs.ErrNotExist},
		{"missing dir", r + "/a/b.txt", "", fs.ErrNotExist},
		{"fifo", r + "/fifo", "", ErrNotRegular},
		{"hard link to a file outside", r + "/hard", "", ErrHardLink},
		{"link outside", r + "/escape-file", "", ErrOutsideRoots},
		{"denied", r + "/.env", "", ErrForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file, got, err := f.v.Open(tt.path)
			if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Fatalf("Open(%q) error = %v, want %v", tt.path, err, tt.err)
			}
			if got != tt.want {
				t.Errorf("Open(%q) = %q, want %q", tt.path, got, tt.want)
			}
			if err != nil {
				if file != nil {
					t.Error("file returned with an error")
				}
				return
			}
			defer file.Close()
			if st, err := file.Stat(); err != nil || st.IsDir() {
				return
			}
			if b, err := io.ReadAll(file); err != nil || string(b) != "x" {
				t.Errorf("read %q, %v", b, err)
			}
		})
	}
}

func TestPin(t *testing.T) {
	f := newFixture(t)
	if err := syscall.Mkfifo(f.root+"/fifo", 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{f.root + "/good.txt", f.root + "/data", f.root + "/fifo"} {
		file, _, err := f.v.Pin(p)
		if err != nil {
			t.Errorf("Pin(%q): %v", p, err)
			continue
		}
		file.Close()
	}
	if err := os.Link(f.outside+"/target.txt", f.root+"/hard"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.v.Pin(f.root + "/hard"); !errors.Is(err, ErrHardLink) {
		t.Errorf("Pin(hard link) = %v, want ErrHardLink", err)
	}
	// The pinned descriptor reopens the checked file.
	file, _, err := f.v.Pin(f.root + "/good.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	b, err := os.ReadFile(FDPath(int(file.Fd())))
	if err != nil || string(b) != "x" {
		t.Errorf("reading %s: %q, %v", FDPath(int(file.Fd())), b, err)
	}
}

func TestAllowHardlinks(t *testing.T) {
	f := newFixture(t)
	if err := os.Link(f.outside+"/target.txt", f.root+"/hard"); err != nil {
		t.Fatal(err)
	}
	v, err := New(Config{Roots: []string{f.root}, AllowHardlinks: true})
	if err != nil {
		t.Fatal(err)
	}
	file, _, err := v.Open(f.root + "/hard")
	if err != nil {
		t.Fatalf("Open with AllowHardlinks: %v", err)
	}
	file.Close()
}

// TestOpenSwapAfterCheck replaces what Check saw with a link out of the
// root between the check and the open: the open must notice.
func TestOpenSwapAfterCheck(t *testing.T) {
	for _, tt := range []struct {
		name, path string
		swap       func(f *fixture) error
	}{
		{"file becomes a link", "good.txt", func(f *fixture) error {
			return replaceWithLink(f.root+"/good.txt", f.outside+"/target.txt")
		}},
		{"directory becomes a link", "data/notes.txt", func(f *fixture) error {
			if err := os.Rename(f.root+"/data", f.root+"/data.old"); err != nil {
				return err
			}
			write(t, f.outside+"/notes.txt", "secret")
			return os.Symlink(f.outside, f.root+"/data")
		}},
	} {
		for _, op := range []string{"Open", "Pin"} {
			t.Run(tt.name+"/"+op, func(t *testing.T) {
				f := newFixture(t)
				f.v.afterCheck = func() {
					if err := tt.swap(f); err != nil {
						t.Fatal(err)
					}
				}
				open := f.v.Open
				if op == "Pin" {
					open = f.v.Pin
				}
				file, _, err := open(f.root + "/" + tt.path)
				if !errors.Is(err, ErrChanged) {
					if file != nil {
						file.Close()
					}
					t.Fatalf("%s after swap: %v, want ErrChanged", op, err)
				}
			})
		}
	}
}

// TestOpenMovedAfterOpen moves the opened file's directory out of the
// root right after the open: the descriptor's path no longer passes.
func TestOpenMovedAfterOpen(t *testing.T) {
	f := newFixture(t)
	f.v.afterOpen = func() {
		if err := os.Rename(f.root+"/data", f.outside+"/data"); err != nil {
			t.Fatal(err)
		}
	}
	file, _, err := f.v.Open(f.root + "/data/notes.txt")
	if !errors.Is(err, ErrChanged) {
		if file != nil {
			file.Close()
		}
		t.Fatalf("Open of a file moved out: %v, want ErrChanged", err)
	}
}

func replaceWithLink(p, target string) error {
	tmp := p + ".swap"
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// TestErrorText checks that refusals read as sentences naming the path,
// without the package prefix of the sentinels.
func TestErrorText(t *testing.T) {
	f := newFixture(t)
	if err := os.Link(f.outside+"/target.txt", f.root+"/hard"); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/etc/passwd":          `"/etc/passwd" is outside the directories the assistant may read`,
		f.root + "/.env":       `"` + f.root + `/.env" is refused: it may hold secrets (deny pattern ".env")`,
		f.root + "/new.txt":    `"` + f.root + `/new.txt" does not exist`,
		f.root + "/hard":       `"` + f.root + `/hard" is refused: the file has 2 hard links`,
		f.root + "/loop1":      `"` + f.root + `/loop1" is not a usable path: too many levels of symbolic links`,
		f.root + "/good.txt/x": `"` + f.root + `/good.txt/x" is not a usable path: not a directory`,
	} {
		_, _, err := f.v.Open(path)
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "pathguard:") {
			t.Errorf("Open(%q) error %q, want it to start with %q", path, err, want)
		}
	}
}

// TestDefaultDenyList checks each kind of secret file the default list
// names, in any case and at any depth, as the file itself or a directory
// on the way.
func TestDefaultDenyList(t *testing.T) {
	root := t.TempDir()
	v, err := New(Config{Roots: []string{root, "/etc", "/proc"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		".ssh/id_ed25519", ".SSH/authorized_keys", ".gnupg/pubring.kbx", "keys/id_rsa", "id_ecdsa.pub", "ssh_host_ed25519_key",
		"tls/server.pem", "tls/server.KEY", "cert.p12", "cert.PFX", "store.jks", "app.keystore", "putty.ppk", "vault.kdbx",
		".env", ".env.production", "prod.env", "repo/.git/config", ".git-credentials", ".netrc", "_netrc", ".pgpass",
		".my.cnf", ".npmrc", ".pypirc", ".vault-token", ".kube/config", "home/u/.docker/config.json", ".config/gh/hosts.yml",
		".aws/credentials", ".aws/config", ".config/gcloud/application_default_credentials.json",
		".config/gcloud/credentials.db", ".azure/accessTokens.json", "credentials", "credentials.json",
		"terraform.tfstate", "terraform.tfstate.backup", ".bash_history", ".zsh_history", ".python_history",
		".mysql_history", ".psql_history", ".node_repl_history", ".histfile", ".lesshst", ".viminfo", "my-Secret.txt",
	} {
		if _, err := v.Check(filepath.Join(root, name)); !errors.Is(err, ErrForbidden) {
			t.Errorf("%s: %v, want ErrForbidden", name, err)
		}
	}
	for _, p := range []string{
		"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/ETC/GSHADOW-", "/etc/passwd", "/etc/sudoers", "/etc/sudoers.d/x",
		"/etc/ssl/private/x.key", "/proc/self/environ", "/proc/1/environ", "/proc/thread-self/environ", "/proc/self/mem",
		"/proc/self/fd/0", "/proc/self/root", "/proc/self/cwd", "/proc/kcore",
	} {
		// Links in /proc may lead out of the roots first; any refusal
		// will do, but the files themselves are denied by name.
		_, err := v.Check(p)
		want := ErrForbidden
		if strings.HasPrefix(p, "/ETC") || strings.Contains(p, "/fd/") || strings.HasSuffix(p, "/root") || strings.HasSuffix(p, "/cwd") {
			want = ErrOutsideRoots
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", p, err, want)
		}
	}
	for _, name := range []string{"notes.txt", "keys.md", "config", "history.log", "environment.md", "docs/credential-rotation.md"} {
		if _, err := v.Check(filepath.Join(root, name)); err != nil {
			t.Errorf("%s: %v, want accepted", name, err)
		}
	}
}

// BenchmarkCheck and BenchmarkPin compare checking a name with checking
// it and opening the file it names without following links.
func BenchmarkCheck(b *testing.B) {
	f := newFixture(b)
	for b.Loop() {
		if _, err := f.v.Check(f.root + "/data/notes.txt"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPin(b *testing.B) {
	f := newFixture(b)
	for b.Loop() {
		file, _, err := f.v.Pin(f.root + "/data/notes.txt")
		if err != nil {
			b.Fatal(err)
		}
		file.Close()
	}
}
