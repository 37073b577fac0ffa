//go:build unix

package mcp

import (
	"io"
	"os"
	"syscall"
)

// readBuffered reads what f (a pipe) holds now, without waiting: io.EOF
// when it holds nothing.
func readBuffered(f *os.File, p []byte) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var (
		n    int
		rerr error
	)
	err = rc.Read(func(fd uintptr) bool {
		for {
			n, rerr = syscall.Read(int(fd), p)
			if rerr != syscall.EINTR {
				return true // never wait for more
			}
		}
	})
	switch {
	case err != nil:
		return 0, err
	case rerr != nil || n <= 0:
		return 0, io.EOF // EAGAIN: nothing buffered; 0: no writer left
	}
	return n, nil
}
