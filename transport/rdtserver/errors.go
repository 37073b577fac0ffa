package rdtserver

import "errors"

// Errors returned by the server.
var (
	// ErrServerClosed is returned by Serve after Shutdown or Close.
	ErrServerClosed = errors.New("rdtserver: server closed")
	// ErrBadConfig reports an unusable ServerConfig.
	ErrBadConfig = errors.New("rdtserver: bad config")
)
