package command

import (
	"errors"
	"os"
	"strconv"
	"syscall"
	"testing"

	"opsassist/tools/pathguard"
)

// TestProcEnvironWithRootSlash: an operator who adds "/" to the allowed
// roots still gets no process's environment, memory or descriptors
// through any whitelisted command, under any name of the process.
func TestProcEnvironWithRootSlash(t *testing.T) {
	f := newFixture(t)
	v, err := pathguard.New(pathguard.Config{Roots: []string{"/"}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Workspace: f.ws, Paths: v})
	if err != nil {
		t.Fatal(err)
	}
	f.e = e
	pid, tid := strconv.Itoa(os.Getpid()), strconv.Itoa(syscall.Gettid())
	for _, p := range []string{
		"/proc/self/environ", "/proc/thread-self/environ", "/proc/" + pid + "/environ",
		"/proc/self/task/" + tid + "/environ", "/proc/" + pid + "/task/" + tid + "/environ",
		"/proc/thread-self/mem", "/proc/self/task/" + tid + "/fd/0", "/proc/self/map_files", "/proc/1/environ",
		"/proc/self/root/proc/self/environ", "/proc/self/cwd/x",
	} {
		for _, call := range [][]string{{"cat", p}, {"head", "-c", "100", p}, {"tail", p}, {"grep", "-a", "PATH", p}, {"ls", "-l", p}} {
			if out, err := f.run(t, t.Context(), call[0], call[1:], 0); !errors.Is(err, pathguard.ErrForbidden) && !errors.Is(err, pathguard.ErrOutsideRoots) {
				t.Errorf("%q: %v, %q, want a refusal", call, err, out.Stdout)
			}
		}
	}
}
