package pathguard

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// TestDefaultDenyWideRoots: with "/" among the roots (an operator's
// choice), credentials under /etc and a home directory, and every
// process's and thread's environment, memory and descriptors, stay
// refused, whichever name of the process is used; their harmless
// neighbours stay readable.
func TestDefaultDenyWideRoots(t *testing.T) {
	v, err := New(Config{Roots: []string{"/"}})
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	pid := strconv.Itoa(os.Getpid())
	// The calling thread's id: this goroutine may move, but the task
	// directory of any thread of ours is as good.
	tid := strconv.Itoa(syscall.Gettid())
	var denied []string
	for _, name := range []string{
		".config/containers/auth.json", "cluster.kubeconfig", "prod.KUBECONFIG", ".oci/config", ".oci/key.pem",
		".s3cfg", ".boto", "http.keytab",
		".mozilla/firefox/abc.default/logins.json", ".mozilla/firefox/abc.default/key4.db",
		".mozilla/firefox/abc.default/key3.db", ".mozilla/firefox/abc.default/cookies.sqlite",
		".config/google-chrome/Default/Login Data", ".config/chromium/Default/login data",
	} {
		denied = append(denied, filepath.Join(home, name))
	}
	denied = append(denied,
		"/etc/wireguard/wg0.conf", "/etc/wireguard", "/etc/NetworkManager/system-connections/home.nmconnection",
		"/etc/mysql/debian.cnf", "/etc/krb5.keytab",
	)
	for _, proc := range []string{"/proc/self", "/proc/thread-self", "/proc/" + pid, "/proc/self/task/" + tid, "/proc/" + pid + "/task/" + tid} {
		for _, f := range []string{"environ", "mem", "fd", "fd/0", "map_files", "root", "root/etc/hostname", "cwd", "cwd/x"} {
			denied = append(denied, proc+"/"+f)
		}
	}
	for _, p := range denied {
		if _, err := v.Check(p); !errors.Is(err, ErrForbidden) {
			t.Errorf("%s: %v, want ErrForbidden", p, err)
		}
	}
	for _, p := range []string{
		"/etc/hostname", "/etc/mysql/my.cnf", "/proc/meminfo", "/proc/self/status", "/proc/thread-self/stat",
		filepath.Join(home, ".config/containers/registries.conf"), filepath.Join(home, ".mozilla/firefox/profiles.ini"),
	} {
		if _, err := v.Check(p); err != nil {
			t.Errorf("%s: %v, want allowed", p, err)
		}
	}
}
