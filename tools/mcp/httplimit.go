package mcp

import (
	"errors"
	"fmt"
	"io"
)

// MaxResponseBytes bounds an HTTP server's reply: a JSON response
// body, or one event of an event stream. The SDK reads a reply whole
// before decoding it, so an unbounded one could take the daemon's
// memory.
const MaxResponseBytes = 16 << 20

// ErrResponseTooLarge is the error (wrapped) of reading a reply over
// MaxResponseBytes.
var ErrResponseTooLarge = errors.New("mcp: HTTP reply too large")

// limitedBody fails a response body's Read once more than max bytes
// came: in all, or, for an event stream (perEvent), since the last
// blank line that ended an event — a long-lived stream may carry any
// number of events.
type limitedBody struct {
	rc       io.ReadCloser
	max      int64
	perEvent bool

	n      int64
	prevNL bool // the last byte (not counting '\r') was '\n'
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.n > b.max {
		return 0, b.tooLarge()
	}
	k, err := b.rc.Read(p)
	if !b.perEvent {
		b.n += int64(k)
	} else {
		for _, c := range p[:k] {
			switch {
			case c == '\r':
			case c == '\n' && b.prevNL:
				b.n = 0
			default:
				b.n++
				b.prevNL = c == '\n'
				if b.n > b.max {
					return 0, b.tooLarge()
				}
			}
		}
	}
	if b.n > b.max {
		return 0, b.tooLarge()
	}
	return k, err
}

func (b *limitedBody) tooLarge() error {
	return fmt.Errorf("%w: over %d MiB", ErrResponseTooLarge, b.max>>20)
}

func (b *limitedBody) Close() error { return b.rc.Close() }
