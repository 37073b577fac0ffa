package client

import (
	"errors"
	"slices"

	"opsassist/nplt"
)

// ErrCancelUnsupported is returned by Cancel when the server did not
// announce nplt.FeatureCancel in its HELLO reply (an older server).
var ErrCancelUnsupported = errors.New("client: server cannot cancel a turn")

// Cancel asks the server to stop the turn it is running for this
// connection (a CANCEL frame). It does not wait: the Chat in progress
// goes on reading, and its reply ends as usual once the server has
// stopped the turn, with what was streamed so far (no ERROR). Without a
// running turn the server ignores it. It may be called while Chat runs,
// from another goroutine. It returns ErrCancelUnsupported if the server
// cannot cancel, and an error matching ErrConnectionLost if the write
// fails.
func (c *Conn) Cancel() error {
	if !slices.Contains(c.hello.Features, nplt.FeatureCancel) {
		return ErrCancelUnsupported
	}
	return c.write(nplt.Cancel, nil)
}
