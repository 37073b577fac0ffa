package partfile

import (
	"errors"
	"io/fs"
	"os"
)

// probeSuffix names the empty file finalMode creates beside NAME.part.
const probeSuffix = ".mode"

// finalMode is the mode a file created now in the directory of part
// gets from 0o666, as curl and wget create their downloads: the process
// umask (and any default ACL) applied by the system itself. It creates
// and removes an empty probe file rather than changing the umask, which
// is process-wide and would race with other goroutines' files.
func finalMode(part string) (fs.FileMode, error) {
	probe := part + probeSuffix
	f, err := os.OpenFile(probe, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) {
		// Left by a crash between the two calls below: ours to reuse.
		if err = os.Remove(probe); err == nil {
			f, err = os.OpenFile(probe, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		}
	}
	if err != nil {
		return 0, err
	}
	defer os.Remove(probe)
	st, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	return st.Mode().Perm(), nil
}
