package pathguard

import (
	"errors"
	"fmt"
	"io/fs"
)

// Errors returned by Check, Open and Pin, inside an *Error that names the
// offending path. Match them with errors.Is.
var (
	// ErrOutsideRoots means the resolved path is not inside any root.
	ErrOutsideRoots = errors.New("pathguard: path outside allowed roots")
	// ErrForbidden means the path, as given or resolved, matches a deny
	// pattern.
	ErrForbidden = errors.New("pathguard: path forbidden")
	// ErrInvalid means the path cannot name a file: it is empty,
	// contains a NUL byte, or cannot be resolved (a component that is not
	// a directory, a symbolic link loop, a permission error). Open and
	// Pin also return it, with fs.ErrNotExist, for a file that does not
	// exist.
	ErrInvalid = errors.New("pathguard: invalid path")
	// ErrHardLink means Open or Pin found a regular file with more than
	// one hard link: another name for it may lie outside the roots or
	// match a deny pattern (a link to /etc/shadow planted in a root).
	ErrHardLink = errors.New("pathguard: file has several hard links")
	// ErrChanged means the path changed between the check and the open:
	// a symbolic link appeared where the check saw a file or directory,
	// or the opened file is no longer where it was checked.
	ErrChanged = errors.New("pathguard: path changed while being opened")
	// ErrNotRegular means Open found something other than a regular file
	// or a directory (a FIFO, a device, a socket).
	ErrNotRegular = errors.New("pathguard: not a regular file or directory")
)

// Error is a refused path. Its message is meant for the person or model
// that named the path; code matches Kind (and Err) with errors.Is.
type Error struct {
	// Path is the path as given.
	Path string
	// Kind is one of the sentinel errors above.
	Kind error
	// Pattern is the deny pattern matched, for ErrForbidden.
	Pattern string
	// Links is the hard link count, for ErrHardLink.
	Links uint64
	// Err is the underlying cause, if any (an errno, fs.ErrNotExist).
	Err error
}

// Error explains the refusal in a sentence that names the path.
func (e *Error) Error() string {
	switch e.Kind {
	case ErrOutsideRoots:
		return fmt.Sprintf("%q is outside the directories the assistant may read", e.Path)
	case ErrForbidden:
		return fmt.Sprintf("%q is refused: it may hold secrets (deny pattern %q)", e.Path, e.Pattern)
	case ErrHardLink:
		return fmt.Sprintf("%q is refused: the file has %d hard links, so it may be a copy of a file outside the allowed directories", e.Path, e.Links)
	case ErrChanged:
		return fmt.Sprintf("%q is refused: it changed while being opened (a symbolic link was put in its place)", e.Path)
	case ErrNotRegular:
		return fmt.Sprintf("%q is not a regular file or directory", e.Path)
	}
	switch {
	case errors.Is(e.Err, fs.ErrNotExist):
		return fmt.Sprintf("%q does not exist", e.Path)
	case e.Err != nil:
		return fmt.Sprintf("%q is not a usable path: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%q is not a usable path", e.Path)
}

// Unwrap returns the kind and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// refuse returns an *Error of kind for path.
func refuse(kind error, path string, cause error) *Error {
	return &Error{Path: path, Kind: kind, Err: cause}
}
