package fileupload

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"opsassist/storage/history"
)

// ErrReplaced means an upload's file is no longer the file that was
// uploaded: a symbolic link, a hard link or something other than a
// regular file is at its path.
var ErrReplaced = errors.New("the uploaded file was replaced on the server; upload it again")

// openUpload opens u's file for reading, refusing a symbolic link at its
// name, and checks the file actually opened (fstat on the descriptor, not
// a second look-up of the name): a regular file with a single link.
// Uploads are written by the server, so anything else was put there by
// someone else.
func openUpload(u history.Upload) (*os.File, error) {
	f, err := os.OpenFile(u.FilePath, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%w (a symbolic link)", ErrReplaced)
	}
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	var why string
	switch sys, _ := st.Sys().(*syscall.Stat_t); {
	case !st.Mode().IsRegular():
		why = "not a regular file"
	case sys != nil && sys.Nlink > 1:
		why = fmt.Sprintf("%d hard links", sys.Nlink)
	}
	if why != "" {
		f.Close()
		return nil, fmt.Errorf("%w (%s)", ErrReplaced, why)
	}
	return f, nil
}
