package client

import (
	"context"
	"sync"

	"opsassist/nplt"
)

// request is one request's inbox: the reader goroutine pushes the frames of
// its reply, the goroutine that made the request takes them. The inbox is
// unbounded so the reader never waits for a slow consumer and can always
// answer PING at once.
type request struct {
	upload bool // UPLOAD_PROGRESS frames are routed here

	wake chan struct{} // capacity 1: something was pushed or failed

	mu        sync.Mutex
	frames    []nplt.Frame
	err       error // set when the connection fails before the reply ends
	abandoned bool  // the caller gave up; later frames are dropped
}

func newRequest(upload bool) *request {
	return &request{upload: upload, wake: make(chan struct{}, 1)}
}

// push appends a frame of the reply. The payload must not be shared.
func (r *request) push(f nplt.Frame) {
	r.mu.Lock()
	if !r.abandoned {
		r.frames = append(r.frames, f)
	}
	r.mu.Unlock()
	r.signal()
}

// fail ends the request with err once the frames already pushed are taken.
func (r *request) fail(err error) {
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.mu.Unlock()
	r.signal()
}

func (r *request) signal() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// abandon drops the frames still queued and those still to come: the reply
// keeps its place in the connection's queue until its end arrives, so it
// cannot be mistaken for the next request's reply.
func (r *request) abandon() {
	r.mu.Lock()
	r.abandoned = true
	r.frames = nil
	r.mu.Unlock()
}

// poll returns the next frame if one is queued (ok), or the failure once
// the queue is empty.
func (r *request) poll() (f nplt.Frame, ok bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.frames) > 0 {
		f = r.frames[0]
		r.frames[0] = nplt.Frame{}
		r.frames = r.frames[1:]
		return f, true, nil
	}
	return nplt.Frame{}, false, r.err
}

// next waits for the next frame of the reply. When ctx ends first it
// abandons the request and returns ctx's error.
func (r *request) next(ctx context.Context) (nplt.Frame, error) {
	for {
		f, ok, err := r.poll()
		if ok {
			return f, nil
		}
		if err != nil {
			return nplt.Frame{}, err
		}
		select {
		case <-r.wake:
		case <-ctx.Done():
			r.abandon()
			return nplt.Frame{}, ctx.Err()
		}
	}
}
