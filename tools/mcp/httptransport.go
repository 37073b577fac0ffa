package mcp

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// errStreamBroke is the error (wrapped) headerTransport reports for a
// reply stream that broke: the server may be gone, or alive behind a
// proxy that cut the stream (serve checks which).
var errStreamBroke = errors.New("mcp: HTTP reply stream broke")

// headerTransport sets the configured headers on every request to an
// HTTP server, bounds every reply (limitedBody) and, when down is set,
// tells it that the connection to the server failed: a request could
// not reach the server (dialError: refused, no route, an unknown host),
// or a reply stream — the session's standalone stream (GET), a call's
// stream — broke (errStreamBroke: a read error other than its end, or
// a reply over MaxResponseBytes). The SDK itself would see a server
// gone only after its reconnection attempts, up to about 30 s, the
// session staying ready meanwhile. What the caller ended itself (the
// request's context done: a cancelled call, a session being closed) is
// not reported.
type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
	down    func(error)
}

func (t headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		if derr := dialError(err); derr != nil && t.down != nil && req.Context().Err() == nil {
			t.down(fmt.Errorf("%s request: %w", req.Method, derr))
		}
		return nil, err
	}
	stream := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	resp.Body = &limitedBody{rc: resp.Body, max: MaxResponseBytes, perEvent: stream}
	if stream && t.down != nil {
		resp.Body = &watchedBody{rc: resp.Body, req: req, down: t.down}
	}
	return resp, nil
}

// watchedBody is a reply stream that tells down, once, when a read
// fails with anything but its end while its request is still wanted.
type watchedBody struct {
	rc   io.ReadCloser
	req  *http.Request
	down func(error)
	once sync.Once
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err != nil && err != io.EOF && b.req.Context().Err() == nil {
		b.once.Do(func() { b.down(fmt.Errorf("%w (%s): %w", errStreamBroke, b.req.Method, err)) })
	}
	return n, err
}

func (b *watchedBody) Close() error { return b.rc.Close() }
