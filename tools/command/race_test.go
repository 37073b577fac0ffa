package command

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"opsassist/tools/pathguard"
)

// TestSwapRaceNeverLeaks swaps a workspace entry between a harmless file
// and a symbolic link to a secret outside the roots, as fast as it can,
// while commands read the entry. Whatever the timing, no command may
// print the secret: a refusal or the harmless text are the only answers.
func TestSwapRaceNeverLeaks(t *testing.T) {
	f := newFixture(t)
	secret := filepath.Join(filepath.Dir(f.root), "secret.txt")
	write(t, secret, "TOPSECRET\n")
	entry := filepath.Join(f.ws, "entry.txt")
	write(t, entry, "harmless\n")

	// The entry and a spare name swap places atomically
	// (renameat2 RENAME_EXCHANGE), so the entry is the file half of the
	// time and the link the other half.
	spare := entry + ".spare"
	if err := os.Symlink(secret, spare); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := unix.Renameat2(unix.AT_FDCWD, entry, unix.AT_FDCWD, spare, unix.RENAME_EXCHANGE); err != nil {
				t.Error(err)
				return
			}
		}
	})
	defer wg.Wait()
	defer close(stop)

	runs := [][]string{
		{"cat", "entry.txt"},
		{"head", "-n", "1", "entry.txt"},
		{"tail", "-n", "1", "entry.txt"},
		{"grep", "", "entry.txt"},
		{"cat", "./entry.txt", "entry.txt"},
	}
	const n = 600
	refused, read := 0, 0
	for i := range n {
		r := runs[i%len(runs)]
		out, err := f.run(t, t.Context(), r[0], r[1:], 0)
		if strings.Contains(out.Stdout+out.Stderr, "TOPSECRET") || err != nil && strings.Contains(err.Error(), "TOPSECRET") {
			t.Fatalf("run %d: %q leaked the secret: %+v, %v", i, r, out, err)
		}
		if err != nil {
			refused++
		} else {
			read++
		}
	}
	t.Logf("%d runs: %d read the harmless file, %d refused or failed", n, read, refused)
}

// TestPinnedFilesKeepTheirNames runs commands whose output names their
// files: the descriptor paths they really opened are shown as written.
func TestPinnedFilesKeepTheirNames(t *testing.T) {
	f := newFixture(t)
	for _, tt := range []struct {
		cmd       string
		args      []string
		want, not string
	}{
		{"grep", []string{"-H", "port", "config.yaml"}, "config.yaml:port: 8080", ""},
		{"grep", []string{"-c", "o", "config.yaml", "../data/file.txt"}, "../data/file.txt:1", ""},
		{"tail", []string{"-v", "-n1", "config.yaml"}, "==> config.yaml <==\nhost: localhost", ""},
		{"head", []string{"-n1", "config.yaml", "../data/file.txt"}, "==> ../data/file.txt <==\nhello from data", ""},
		{"ls", []string{"-l", "config.yaml"}, " config.yaml\n", "->"},
		{"ls", []string{"../data"}, "file.txt", "/proc/"},
		{"ls", []string{"-ld", "../data"}, "drwx", "->"},
		{"ls", []string{"../data", "config.yaml"}, "../data:\nfile.txt", "/proc/"},
		{"cat", []string{"config.yaml", "../data/file.txt"}, "host: localhost\nhello from data\n", ""},
		{"df", []string{"config.yaml"}, "Mounted on", ""},
	} {
		out, err := f.run(t, t.Context(), tt.cmd, tt.args, 0)
		if err != nil || !strings.Contains(out.Stdout, tt.want) || tt.not != "" && strings.Contains(out.Stdout, tt.not) ||
			strings.Contains(out.Stdout+out.Stderr, "/proc/self/fd") {
			t.Errorf("%s %q: %+v, %v; want %q in stdout", tt.cmd, tt.args, out, err, tt.want)
		}
		if want := commandLine(append([]string{tt.cmd}, tt.args...)); out.Command != want {
			t.Errorf("Command %q, want %q", out.Command, want)
		}
	}
	if out, err := f.run(t, t.Context(), "ls", []string{"-l", "config.yaml"}, 0); err == nil && !strings.HasPrefix(out.Stdout, "-rw") {
		t.Errorf("ls -l of a pinned file shows %q, want the file's own mode", out.Stdout)
	}
}

// TestMissingFileIsRefused: a file that does not exist could be created
// as a link before the command opened it, so it is refused by name.
func TestMissingFileIsRefused(t *testing.T) {
	f := newFixture(t)
	_, err := f.run(t, t.Context(), "cat", []string{"missing.txt"}, 0)
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, pathguard.ErrInvalid) || err.Error() != `"missing.txt" does not exist` {
		t.Fatalf("cat missing.txt: %v", err)
	}
}

// TestPlantedHardLinkRefused plants a hard link to a file outside the
// roots in the workspace: refused unless hard links are allowed.
func TestPlantedHardLinkRefused(t *testing.T) {
	f := newFixture(t)
	secret := filepath.Join(filepath.Dir(f.root), "secret.txt")
	write(t, secret, "TOPSECRET\n")
	if err := os.Link(secret, filepath.Join(f.ws, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"notes.txt"}, {"./notes.txt"}, {"config.yaml", "notes.txt"}} {
		out, err := f.run(t, t.Context(), "cat", args, 0)
		if !errors.Is(err, pathguard.ErrHardLink) || strings.Contains(out.Stdout, "TOPSECRET") {
			t.Errorf("cat %q: %+v, %v; want ErrHardLink", args, out, err)
		}
	}
	v, err := pathguard.New(pathguard.Config{Roots: []string{f.root}, AllowHardlinks: true})
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Workspace: f.ws, Paths: v})
	if err != nil {
		t.Fatal(err)
	}
	f.e = e
	if out, err := f.run(t, t.Context(), "cat", []string{"notes.txt"}, 0); err != nil || out.Stdout != "TOPSECRET\n" {
		t.Errorf("with AllowHardlinks: %+v, %v", out, err)
	}
}

func TestNeverWhitelisted(t *testing.T) {
	for _, c := range []string{"watch", "top", "sh", "bash", "env", "xargs", "find", "sudo", "timeout", "less"} {
		if _, err := NewTiers([]string{"ls", c}); err == nil {
			t.Errorf("NewTiers accepted %q in the whitelist", c)
		}
	}
	if _, err := NewTiers([]string{"ls", "uptime"}); err != nil {
		t.Errorf("uptime: %v", err)
	}
}

// TestTooManyFiles bounds the descriptors one call may hold.
func TestTooManyFiles(t *testing.T) {
	f := newFixture(t)
	args := make([]string, maxPinned+1)
	for i := range args {
		args[i] = "config.yaml"
	}
	if _, err := f.run(t, t.Context(), "cat", args, 0); !errors.Is(err, ErrTooManyFiles) {
		t.Errorf("cat with %d files: %v", len(args), err)
	}
	if out, err := f.run(t, t.Context(), "cat", args[:maxPinned], 0); err != nil || strings.Count(out.Stdout, "port") != maxPinned {
		t.Errorf("cat with %d files: %v", maxPinned, err)
	}
}

// TestTailObsoleteStart: "tail +2 file" starts at line 2, as in GNU tail.
func TestTailObsoleteStart(t *testing.T) {
	f := newFixture(t)
	out, err := f.run(t, t.Context(), "tail", []string{"+2", "config.yaml"}, 0)
	if err != nil || out.Stdout != "host: localhost\n" {
		t.Fatalf("tail +2 config.yaml: %+v, %v", out, err)
	}
}
