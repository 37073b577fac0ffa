//go:build unix

package datalock

import (
	"os"

	"golang.org/x/sys/unix"
)

var errWouldBlock = unix.EWOULDBLOCK

// lock takes an exclusive flock on f without waiting. flock locks belong
// to the open file description, so a second open of the same file in
// this process conflicts too.
func lock(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err != unix.EINTR {
			return err
		}
	}
}
