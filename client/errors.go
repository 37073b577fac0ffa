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
	// ErrUnknownSession is returned by Dial when the server does not know
	// (or cannot resolve unambiguously) the conversation Options.SessionID
	// names. It wraps the server's not_found *ServerError when there was
	// one. Retrying with the same SessionID cannot succeed, so DialRetry
	// gives up at once.
	ErrUnknownSession = errors.New("client: unknown session")
	// ErrNotNPLT is returned by Dial when the peer is not an NPLT server:
	// its first bytes cannot start an NPLT frame, or it sent nothing
	// within Options.HelloTimeout.
	ErrNotNPLT = errors.New("client: not an NPLT server")
	// ErrHTTPServer is returned by Dial when the peer answered like an
	// HTTP server (its reply starts with "HTTP/"), typically the web
	// port given where the NPLT port belongs. It matches ErrNotNPLT too.
	ErrHTTPServer = fmt.Errorf("%w: it answered like an HTTP server", ErrNotNPLT)
	// ErrNotRegular is returned by Upload, inside an *fs.PathError
	// naming the path, for a directory, device, pipe or socket.
	ErrNotRegular = errors.New("client: not a regular file")
)

// ServerError is an ERROR frame the server sent in reply to a request.
type ServerError struct {
	// Code is the protocol error code, e.g. "not_found" (api.Code*).
	Code string
	// Message is the human-readable explanation.
	Message string
}

// Error returns "server error [code]: message".
func (e *ServerError) Error() string {
	return fmt.Sprintf("server error [%s]: %s", e.Code, e.Message)
}

// Is reports whether target is a *ServerError with the same Code, so
// errors.Is(err, &ServerError{Code: api.CodeNotFound}) matches any
// not_found error.
func (e *ServerError) Is(target error) bool {
	t, ok := target.(*ServerError)
	return ok && t.Code == e.Code
}

// cutReplyError is a server ERROR followed by a failure (a lost
// connection, a cancellation) that ended its reply before the end frame.
type cutReplyError struct {
	server error // the ERROR, a *ServerError
	err    error // what cut the reply short
}

func (e *cutReplyError) Error() string {
	return e.server.Error() + "; then " + e.err.Error()
}

// Unwrap returns both errors, so errors.Is and errors.As match either.
func (e *cutReplyError) Unwrap() []error { return []error{e.server, e.err} }

// joinServerError returns err alone, or serr and err together when the
// reply already carried an ERROR before err ended it.
func joinServerError(serr, err error) error {
	if serr == nil {
		return err
	}
	return &cutReplyError{server: serr, err: err}
}

// Undelivered returns the part of a request's error that was not
// already delivered to the request's EventHandler as an EventError: nil
// for a server ERROR (possibly wrapped), the failure that followed it when
// a reply was cut short, and err itself otherwise. A client that shows
// every event uses it to avoid showing a server ERROR twice.
func Undelivered(err error) error {
	var cut *cutReplyError
	if errors.As(err, &cut) {
		return cut.err
	}
	var se *ServerError
	if errors.As(err, &se) {
		return nil
	}
	return err
}

// unknownSessionError returns the error Dial reports when the server did
// not resume id; se is the server's ERROR, if it sent one.
func unknownSessionError(id string, se *ServerError) error {
	if se == nil {
		return fmt.Errorf("%w %q: the server started a different conversation", ErrUnknownSession, id)
	}
	return fmt.Errorf("%w %q: %w", ErrUnknownSession, id, se)
}
