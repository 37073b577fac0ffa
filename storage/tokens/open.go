package tokens

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ErrFileChanged means the file at a token's path is not the file the
// token was issued for: another file, a link, or another size.
var ErrFileChanged = errors.New("tokens: file changed since the token was issued")

// open opens the token's file for reading and checks it is still the
// file the token was issued for: a regular file, reached without
// following a link at the last component, of the token's size, and —
// when the token records one — with the same device and inode, so a
// name swapped for a link or another file between issue and download
// serves nothing. Errors wrap ErrFileChanged, or the open error
// (fs.ErrNotExist for a file that is gone).
func (t Token) open() (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(t.Path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, nil, fmt.Errorf("%w: %s is now a symbolic link", ErrFileChanged, t.Filename)
	}
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	dev, ino := FileID(st)
	if !st.Mode().IsRegular() || st.Size() != t.Size || t.Ino != 0 && (dev != t.Dev || ino != t.Ino) {
		f.Close()
		return nil, nil, fmt.Errorf("%w: %s", ErrFileChanged, t.Filename)
	}
	return f, st, nil
}

// FileID returns the device and inode numbers of a file, or zeros where
// the platform does not report them.
func FileID(fi fs.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}
