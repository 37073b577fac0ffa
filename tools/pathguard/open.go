package pathguard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Open checks path like Check and opens the file it resolves to for
// reading. It closes the gap between checking a name and using it: the
// resolved path is opened one component at a time from "/" without
// following any symbolic link (a link swapped in after the check makes
// the open fail with ErrChanged), and the opened file itself is checked
// again — its type (a regular file or a directory, else ErrNotRegular),
// its hard link count (ErrHardLink, unless Config.AllowHardlinks) and,
// on Linux, the path the kernel reports for the descriptor, which must
// still be allowed. It returns the open file and the resolved path.
//
// A file that does not exist is an *Error of kind ErrInvalid wrapping
// fs.ErrNotExist: unlike Check, Open cannot accept a name to be created
// later.
func (v *Validator) Open(path string) (*os.File, string, error) {
	return v.open(path, readFlags, false)
}

// Pin is Open for a file a child process will open. It returns a
// descriptor that grants nothing by itself (O_PATH on Linux: no read, no
// side effects of opening a FIFO or a device) after the same checks, but
// accepts any type of file but a symbolic link. Hand the descriptor to
// the child (exec.Cmd.ExtraFiles) and let it open FDPath of its number:
// the kernel then opens the very file that was checked, whatever the name
// leads to by then.
func (v *Validator) Pin(path string) (*os.File, string, error) {
	return v.open(path, pinFlags, true)
}

// readFlags open the last component of a path for Open.
const readFlags = unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY

func (v *Validator) open(path string, final int, anyType bool) (*os.File, string, error) {
	resolved, err := v.Check(path)
	if err != nil {
		return nil, "", err
	}
	if v.afterCheck != nil {
		v.afterCheck()
	}
	fd, err := openNoFollow(resolved, final)
	if err == nil && v.afterOpen != nil {
		v.afterOpen()
	}
	switch {
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
		// Check saw directories and no link at the end; now a link (or a
		// file where a directory was) is in the way.
		return nil, "", refuse(ErrChanged, path, err)
	case err != nil:
		return nil, "", refuse(ErrInvalid, path, err)
	}
	f := os.NewFile(uintptr(fd), resolved)
	if err := v.verify(f, path, resolved, anyType); err != nil {
		f.Close()
		return nil, "", err
	}
	return f, resolved, nil
}

// verify checks the file opened for path: its type, its links and, where
// the kernel tells, where it really is.
func (v *Validator) verify(f *os.File, path, resolved string, anyType bool) error {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return refuse(ErrInvalid, path, err)
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		return refuse(ErrChanged, path, nil)
	case unix.S_IFREG:
		if st.Nlink > 1 && !v.allowHardlinks {
			e := refuse(ErrHardLink, path, nil)
			e.Links = uint64(st.Nlink)
			return e
		}
	case unix.S_IFDIR:
	default:
		// Devices, FIFOs and sockets: never outside the roots, approved
		// or not (a raw disk reads every file, the deny list's too).
		if !anyType || !v.inside(resolved) {
			return refuse(ErrNotRegular, path, nil)
		}
	}
	at, ok := fdTarget(f)
	if !ok || at == resolved {
		return nil
	}
	// The file was renamed, or reached by a path the walk did not take:
	// it must still be allowed where it is now.
	if strings.HasSuffix(at, " (deleted)") || !filepath.IsAbs(at) || v.allowed(path, at, at) != nil {
		return refuse(ErrChanged, path, nil)
	}
	return nil
}

// openNoFollow opens the clean absolute path p one component at a time,
// refusing symbolic links everywhere, and opens the last component with
// flags final.
func openNoFollow(p string, final int) (int, error) {
	segs := splitSegments(p)
	if len(segs) == 0 {
		return openat(unix.AT_FDCWD, "/", final|unix.O_CLOEXEC)
	}
	dir, err := openat(unix.AT_FDCWD, "/", dirFlags|unix.O_CLOEXEC)
	if err != nil {
		return -1, err
	}
	for i, s := range segs {
		flags := dirFlags | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if i == len(segs)-1 {
			flags = final | unix.O_NOFOLLOW | unix.O_CLOEXEC
		}
		fd, err := openat(dir, s, flags)
		unix.Close(dir)
		if err != nil {
			return -1, err
		}
		dir = fd
	}
	return dir, nil
}

// openat is unix.Openat retried on EINTR.
func openat(dir int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, 0)
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}
