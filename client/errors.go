package client

import (
	"errors"
	"fmt"
)

// Errors returned by the client.
var (
	// ErrConnectionLost wraps the cause (io.EOF, a net error, …) when the
	// connection fails; requests in flight return it.
	ErrConnectionLost = errors.New("client: connection lost")
	// ErrProtocol is returned when the server sends a frame the client
	// cannot decode where it expects one.
	ErrProtocol = errors.New("client: protocol error")
	// ErrEmptyMessage is returned by Chat for an empty message, which the
	// protocol cannot carry.
	ErrEmptyMessage = errors.New("client: empty message")
)

// ServerError is an ERROR frame the server sent in reply to a request.
type ServerError struct {
	// Code is the protocol error code, e.g. "not_found" (nplt.Code*).
	Code string
	// Message is the human-readable explanation.
	Message string
}

// Error returns "server error [code]: message".
func (e *ServerError) Error() string {
	return fmt.Sprintf("server error [%s]: %s", e.Code, e.Message)
}

// Is reports whether target is a *ServerError with the same Code, so
// errors.Is(err, &ServerError{Code: nplt.CodeNotFound}) matches any
// not_found error.
func (e *ServerError) Is(target error) bool {
	t, ok := target.(*ServerError)
	return ok && t.Code == e.Code
}

// joinServerError returns err alone, or serr and err joined when the reply
// already carried an ERROR before err ended it.
func joinServerError(serr, err error) error {
	if serr == nil {
		return err
	}
	return errors.Join(serr, err)
}
