package uploads

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks the kernel to begin writing [off, off+n) of f to disk
// now, without waiting, so the fsync at commit has little left to do.
// Failure only loses the head start, so it is ignored.
func startWriteback(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
