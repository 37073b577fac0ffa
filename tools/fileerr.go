package tools

import (
	"errors"
	"io/fs"
	"syscall"
)

// Failure codes for the common ways a named file fails a call; a tool
// marks its error with FileErrorCode where the error arises, and
// UserTextAbout says it in the user's language naming the file.
const (
	// CodeNotFound: a file the call names does not exist (or a component
	// of its path is not a directory).
	CodeNotFound = "not_found"
	// CodeAccessDenied: the system refused access to a file the call
	// names (permission denied).
	CodeAccessDenied = "access_denied"
	// CodeIsDirectory: a file the call names is a directory where a file
	// was wanted.
	CodeIsDirectory = "is_directory"
	// CodeExists: a file the call would create exists already.
	CodeExists = "exists"
)

// FileErrorCode is the failure code of an error about a file: not found,
// access denied, is a directory, exists already; "" for any other error.
func FileErrorCode(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return CodeNotFound
	case errors.Is(err, fs.ErrPermission):
		return CodeAccessDenied
	case errors.Is(err, syscall.EISDIR):
		return CodeIsDirectory
	case errors.Is(err, fs.ErrExist):
		return CodeExists
	}
	return ""
}
