package rdt

import (
	"errors"
	"fmt"
)

// Errors returned by Download.
var (
	// ErrNoResponse means no RDT packet arrived within the first-packet
	// timeout: UDP is probably blocked, and the caller may fall back.
	ErrNoResponse = errors.New("rdt: no response from server")
	// ErrTimeout means the server went silent in the middle of a
	// download. Running the download again resumes it.
	ErrTimeout = errors.New("rdt: server stopped responding")
	// ErrChecksum means the received file's SHA-256 does not match.
	ErrChecksum = errors.New("rdt: sha256 mismatch")
	// ErrUnknownToken, ErrExpiredToken, ErrWrongFile and ErrBusy are what
	// a RemoteError with the matching code unwraps to.
	ErrUnknownToken = errors.New("rdt: unknown download token")
	ErrExpiredToken = errors.New("rdt: download token expired")
	ErrWrongFile    = errors.New("rdt: token is for another file")
	ErrBusy         = errors.New("rdt: server busy")
	// ErrRemote is what a RemoteError with any other code unwraps to.
	ErrRemote = errors.New("rdt: transfer refused")
	// ErrBadConfig reports an unusable ClientConfig.
	ErrBadConfig = errors.New("rdt: bad config")
)

// RemoteError is an ERROR packet received from the peer.
type RemoteError struct {
	Code   ErrorCode
	Reason string
}

// Error describes the error.
func (e *RemoteError) Error() string {
	return fmt.Sprintf("rdt: server error %s: %s", e.Code, e.Reason)
}

// Unwrap returns the sentinel matching the code.
func (e *RemoteError) Unwrap() error {
	switch e.Code {
	case CodeUnknownToken:
		return ErrUnknownToken
	case CodeExpiredToken:
		return ErrExpiredToken
	case CodeWrongFile:
		return ErrWrongFile
	case CodeBusy:
		return ErrBusy
	case CodeChecksum:
		return ErrChecksum
	}
	return ErrRemote
}
