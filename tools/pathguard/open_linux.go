package pathguard

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

const (
	// pinFlags open the last component for Pin: a path-only descriptor.
	pinFlags = unix.O_PATH
	// dirFlags open the directories on the way: path-only, so search
	// permission is enough, as for a lookup by name.
	dirFlags = unix.O_PATH | unix.O_DIRECTORY
)

// fdTarget returns where the kernel says f is open.
func fdTarget(f *os.File) (string, bool) {
	p, err := os.Readlink(FDPath(int(f.Fd())))
	return p, err == nil
}

// FDPath returns the name under which a process opens its own descriptor
// fd again: /proc/self/fd/N.
func FDPath(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }
