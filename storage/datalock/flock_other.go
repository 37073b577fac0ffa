//go:build !unix

package datalock

import (
	"errors"
	"os"
)

var errWouldBlock = errors.New("datalock: would block")

// lock does nothing where flock is missing: there the data directory is
// not guarded against a second daemon.
func lock(*os.File) error { return nil }
