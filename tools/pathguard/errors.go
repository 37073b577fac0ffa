package pathguard

import "errors"

// Errors returned by Check, wrapped with the offending path. Match them
// with errors.Is.
var (
	// ErrOutsideRoots means the resolved path is not inside any root.
	ErrOutsideRoots = errors.New("pathguard: path outside allowed roots")
	// ErrForbidden means the path, as given or resolved, matches a deny
	// pattern.
	ErrForbidden = errors.New("pathguard: path forbidden")
	// ErrInvalid means the path cannot name a file: it is empty,
	// contains a NUL byte, or cannot be resolved (a component that is not
	// a directory, a symbolic link loop, a permission error).
	ErrInvalid = errors.New("pathguard: invalid path")
)
