package pathguard

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestApprovedPinRefusesDevicesOutsideRoots: an approved path outside
// the roots is a regular file or a directory, never a device, FIFO or
// socket; /dev is denied but for null, zero and urandom.
func TestApprovedPinRefusesDevicesOutsideRoots(t *testing.T) {
	base := t.TempDir()
	root, out := filepath.Join(base, "root"), filepath.Join(base, "out")
	for _, d := range []string{root, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(out, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := New(Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/vda", "/dev/sda", "/dev/loop0", "/dev/kmsg", "/dev/mem", "/dev/fd/0", "/dev/stdin", fifo} {
		f, _, err := v.Approved().Pin(p)
		if err == nil {
			f.Close()
			t.Errorf("approved Pin(%s) accepted", p)
			continue
		}
		if !errors.Is(err, ErrForbidden) && !errors.Is(err, ErrNotRegular) && !errors.Is(err, ErrInvalid) {
			t.Errorf("approved Pin(%s): %v, want a refusal", p, err)
		}
	}
	for _, p := range []string{"/dev/kmsg", "/dev/mem", "/dev/loop0"} {
		if c, _ := v.Classify(p); c != Secret {
			t.Errorf("Classify(%s) = %v, want secret (denied, never asked)", p, c)
		}
	}
	for _, p := range []string{"/dev/null", "/dev/zero", "/dev/urandom"} {
		f, _, err := v.Approved().Pin(p)
		if err == nil {
			f.Close()
			t.Errorf("approved Pin(%s) accepted a device outside the roots", p)
		}
		if c, _ := v.Classify(p); c == Secret {
			t.Errorf("Classify(%s) = secret, want it not on the deny list", p)
		}
	}
	if f, _, err := v.Approved().Pin(out); err != nil {
		t.Errorf("approved Pin of a directory outside the roots: %v", err)
	} else {
		f.Close()
	}
}

// TestProtectedByResolvedPath: a protected directory is refused by the
// path as written, through a link to it and by its real path when it is
// itself reached through a link; an exempt directory under it is not.
func TestProtectedByResolvedPath(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, real := filepath.Join(base, "root"), filepath.Join(base, "disk", "data")
	for _, d := range []string{root, filepath.Join(real, "uploads", "c1"), filepath.Join(real, "history")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(real, "history", "h.json"), filepath.Join(real, "uploads", "c1", "u.txt"), filepath.Join(base, "conf.yaml")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(base, "data")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "conf.yaml"), filepath.Join(root, "c")); err != nil {
		t.Fatal(err)
	}
	v, err := New(Config{Roots: []string{root}, Protected: []string{link, filepath.Join(base, "conf.yaml")}, Exempt: []string{filepath.Join(link, "uploads")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(link, "history", "h.json"), filepath.Join(real, "history", "h.json"), link, real, filepath.Join(base, "conf.yaml"), filepath.Join(root, "c")} {
		if c, _ := v.Classify(p); c != Secret {
			t.Errorf("Classify(%s) = %v, want secret", p, c)
		}
		if _, err := v.Approved().Check(p); !errors.Is(err, ErrForbidden) {
			t.Errorf("approved Check(%s) = %v, want ErrForbidden", p, err)
		}
	}
	for _, p := range []string{filepath.Join(link, "uploads", "c1", "u.txt"), filepath.Join(real, "uploads", "c1", "u.txt")} {
		if c, _ := v.Classify(p); c != Outside {
			t.Errorf("Classify(%s) = %v, want outside (exempt)", p, c)
		}
	}
}

// TestDefaultDenyCredentials: the credentials files of cluster, cloud
// and infrastructure tools are on the default deny list.
func TestDefaultDenyCredentials(t *testing.T) {
	v, err := New(Config{Roots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/etc/kubernetes/admin.conf", "/etc/kubernetes/pki/ca.key", "/home/u/.kube/prod-kubeconfig.yaml",
		"/srv/kubeconfig", "/root/.cargo/credentials.toml", "/root/.terraformrc", "/root/.terraform.d/credentials.tfrc.json",
		"/etc/credstore/db", "/etc/credstore.encrypted/db", "/root/.docker/config.json", "/root/.netrc", "/root/.pgpass",
		"/root/.git-credentials", "/root/.aws/credentials", "/root/.config/gcloud/credentials.db", "/etc/rancher/k3s/k3s.yaml"} {
		if c, _ := v.Classify(p); c != Secret {
			t.Errorf("Classify(%s) = %v, want secret", p, c)
		}
	}
}
