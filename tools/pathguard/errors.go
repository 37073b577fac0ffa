package pathguard

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"

	"opsassist/internal/runecut"
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
	p := shown(e.Path)
	switch e.Kind {
	case ErrOutsideRoots:
		return fmt.Sprintf("%s is outside the directories the assistant may read", p)
	case ErrForbidden:
		return fmt.Sprintf("%s is refused: it may hold secrets (deny pattern %q)", p, e.Pattern)
	case ErrHardLink:
		return fmt.Sprintf("%s is refused: the file has %d hard links, so it may be a copy of a file outside the allowed directories", p, e.Links)
	case ErrChanged:
		return fmt.Sprintf("%s is refused: it changed while being opened (a symbolic link was put in its place)", p)
	case ErrNotRegular:
		return fmt.Sprintf("%s is not a regular file or directory", p)
	}
	switch {
	case errors.Is(e.Err, fs.ErrNotExist):
		return fmt.Sprintf("%s does not exist", p)
	case e.Err != nil:
		cause := e.Err
		var pe *fs.PathError
		if errors.As(cause, &pe) {
			cause = pe.Err // the path, maybe long, is named already
		}
		return fmt.Sprintf("%s is not a usable path: %v", p, cause)
	}
	return fmt.Sprintf("%s is not a usable path", p)
}

// maxShown caps the path quoted in an error message: a path is client
// input, and a 60 KB one must not come back whole in every refusal.
const maxShown = 160

// shown is p for an error message: quoted, and if longer than maxShown
// bytes cut to its head and tail around "…", on rune boundaries.
func shown(p string) string {
	if len(p) <= maxShown {
		return strconv.Quote(p)
	}
	head, tail := runecut.Head(p, maxShown*2/3), runecut.Tail(p, maxShown/3)
	return strconv.Quote(head) + "…" + strconv.Quote(tail) + fmt.Sprintf(" (%d bytes)", len(p))
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
