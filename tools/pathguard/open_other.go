//go:build !linux

package pathguard

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

const (
	// pinFlags open the last component for Pin; without O_PATH it is
	// opened for reading, without blocking on a FIFO.
	pinFlags = readFlags
	// dirFlags open the directories on the way.
	dirFlags = unix.O_RDONLY | unix.O_DIRECTORY
)

// fdTarget is unknown where /proc/self/fd does not exist.
func fdTarget(*os.File) (string, bool) { return "", false }

// FDPath returns the name under which a process opens its own descriptor
// fd again: /dev/fd/N.
func FDPath(fd int) string { return "/dev/fd/" + strconv.Itoa(fd) }
