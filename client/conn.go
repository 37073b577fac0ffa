package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"sync"
	"time"

	"go.uber.org/zap"

	"opsassist/nplt"
)

// Conn is a connection to an opsassist server. Its request methods are safe
// for concurrent use but run one at a time, in call order as far as the
// mutex allows; the server answers requests in the order it receives them.
type Conn struct {
	nc   net.Conn
	opts Options
	log  *zap.Logger
	br   *bufio.Reader // under r; the handshake peeks the first reply bytes
	r    *nplt.Reader

	// Set by the handshake, read-only afterwards.
	hello    nplt.HelloReply
	greeting string

	// sem admits one request at a time.
	sem chan struct{}

	wmu sync.Mutex // guards w and write deadlines
	w   *nplt.Writer

	mu        sync.Mutex
	pending   []*request // requests whose reply has not ended, oldest first
	sessionID string
	closing   bool  // Close was called
	err       error // why the connection ended; set before done is closed

	done      chan struct{} // closed when the reader goroutine exits
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// Dial connects to the server at addr, sends HELLO and waits for the HELLO
// reply and the greeting reply. It returns a *ServerError if the server
// refuses the connection (e.g. code "unauthorized" or "server_busy").
func Dial(ctx context.Context, addr string, opts Options) (*Conn, error) {
	opts = opts.populate()
	nc, err := opts.Dial(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("client: dial %s: %w", addr, err)
	}
	if opts.TLS != nil {
		nc = tlsClient(nc, addr, opts.TLS) // handshakes within the HELLO deadline
	}
	br := bufio.NewReaderSize(nc, 4096)
	c := &Conn{
		nc:   nc,
		opts: opts,
		log:  opts.Logger.With(zap.String("addr", addr)),
		br:   br,
		r:    nplt.NewReader(br),
		w:    nplt.NewWriter(nc),
		sem:  make(chan struct{}, 1),
		done: make(chan struct{}),
	}
	if err := c.handshake(ctx); err != nil {
		if cerr := nc.Close(); cerr != nil {
			c.log.Debug("close after failed handshake", zap.Error(cerr))
		}
		return nil, err
	}
	c.sessionID = c.hello.SessionID
	c.wg.Add(1)
	go c.readLoop()
	return c, nil
}

// Hello returns the server's HELLO reply.
func (c *Conn) Hello() nplt.HelloReply { return c.hello }

// Greeting returns the text of the greeting reply the server sent when the
// connection opened.
func (c *Conn) Greeting() string { return c.greeting }

// SessionID returns the current conversation as last reported by the
// server (HELLO reply, stream_start, session commands, uploads). Pass it
// as Options.SessionID to resume the conversation on a new connection.
func (c *Conn) SessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID
}

func (c *Conn) setSessionID(id string) {
	if id == "" {
		return
	}
	c.mu.Lock()
	c.sessionID = id
	c.mu.Unlock()
}

// Done returns a channel that is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns why the connection ended, or nil while it is open. After
// Close it matches net.ErrClosed; after a failure it matches
// ErrConnectionLost and the cause.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close closes the connection and waits for its reader goroutine. Requests
// in flight return an error matching net.ErrClosed. Close is idempotent; only
// the first call reports the error from closing the socket.
func (c *Conn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closing = true
		c.mu.Unlock()
		err = c.nc.Close()
	})
	c.wg.Wait()
	return err
}

// abort ends the connection because of cause, unless it already ended.
func (c *Conn) abort(cause error) {
	c.mu.Lock()
	if c.err == nil && !c.closing {
		c.err = fmt.Errorf("%w: %w", ErrConnectionLost, cause)
	}
	c.mu.Unlock()
	c.closeOnce.Do(func() {
		if err := c.nc.Close(); err != nil {
			c.log.Debug("closing after failure", zap.Error(err))
		}
	})
}

// readLoop is the reader goroutine: it reads frames until the connection
// fails and dispatches each one.
func (c *Conn) readLoop() {
	defer c.wg.Done()
	for {
		f, err := c.r.ReadFrame()
		if err != nil {
			c.fail(err)
			return
		}
		f.Payload = bytes.Clone(f.Payload)
		c.dispatch(f)
	}
}

// fail records why the connection ended, fails every pending request and
// closes done.
func (c *Conn) fail(cause error) {
	c.mu.Lock()
	if c.err == nil {
		if c.closing {
			c.err = fmt.Errorf("client: connection closed: %w", net.ErrClosed)
		} else {
			c.err = fmt.Errorf("%w: %w", ErrConnectionLost, cause)
		}
	}
	err, pending := c.err, c.pending
	c.pending = nil
	c.mu.Unlock()
	for _, r := range pending {
		r.fail(err)
	}
	c.log.Debug("connection ended", zap.Error(err))
	close(c.done)
}

// dispatch handles one frame on the reader goroutine.
func (c *Conn) dispatch(f nplt.Frame) {
	switch {
	case f.Type == nplt.Ping:
		c.handlePing(f)
	case f.Type == nplt.Pong:
		// Nothing to do: the client sends PING only to answer heartbeats.
	case isHeartbeat(f):
		c.handleHeartbeat()
	case f.Type == nplt.UploadProgress:
		c.handleUploadProgress(f)
	case f.Type == nplt.Hello:
		c.log.Debug("ignoring hello outside the handshake")
	case f.Type == nplt.UploadIndexed:
		c.unsolicited(f) // never part of a reply
	default:
		c.route(f)
	}
}

// isHeartbeat reports whether f is the published CHAT_TEXT heartbeat.
func isHeartbeat(f nplt.Frame) bool {
	return f.Type == nplt.ChatText && string(f.Payload) == nplt.HeartbeatText
}

// isEnd reports whether f ends a reply.
func isEnd(f nplt.Frame) bool {
	return f.Type == nplt.ChatText && len(f.Payload) == 0
}

// handlePing answers PING with PONG carrying the same payload.
func (c *Conn) handlePing(f nplt.Frame) {
	if err := c.write(nplt.Pong, f.Payload); err != nil {
		c.log.Debug("answering ping", zap.Error(err))
	}
}

// handleHeartbeat answers the published CHAT_TEXT heartbeat with a PONG,
// which tells the server the connection is alive without starting a
// request.
func (c *Conn) handleHeartbeat() {
	if err := c.write(nplt.Pong, []byte(nplt.HeartbeatText)); err != nil {
		c.log.Debug("answering heartbeat", zap.Error(err))
	}
}

// handleUploadProgress hands UPLOAD_PROGRESS to the oldest upload in
// flight. The server may send it while an earlier reply is still
// streaming, so it is not routed by position.
func (c *Conn) handleUploadProgress(f nplt.Frame) {
	c.mu.Lock()
	var r *request
	for _, p := range c.pending {
		if p.upload {
			r = p
			break
		}
	}
	c.mu.Unlock()
	if r == nil {
		c.log.Debug("dropping upload progress outside an upload")
		return
	}
	r.push(f)
}

// route hands f to the oldest request whose reply has not ended, or to
// OnUnsolicited when no request is waiting.
func (c *Conn) route(f nplt.Frame) {
	c.mu.Lock()
	var r *request
	if len(c.pending) > 0 {
		r = c.pending[0]
		if isEnd(f) {
			c.pending[0] = nil
			c.pending = c.pending[1:]
		}
	}
	c.mu.Unlock()
	if r != nil {
		r.push(f)
		return
	}
	c.unsolicited(f)
}

// unsolicited passes a frame that belongs to no request to OnUnsolicited.
func (c *Conn) unsolicited(f nplt.Frame) {
	ev, err := decodeEvent(f)
	if err != nil || ev.Type == EventEnd {
		c.log.Debug("dropping unsolicited frame", zap.Stringer("type", f.Type), zap.Error(err))
		return
	}
	if c.opts.OnUnsolicited == nil {
		c.log.Debug("dropping unsolicited event", zap.String("event", string(ev.Type)))
		return
	}
	c.opts.OnUnsolicited(ev)
}

// begin waits for the request slot and queues a new request. The returned
// end function abandons whatever is left of the reply and frees the slot.
func (c *Conn) begin(ctx context.Context, upload bool) (*request, func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	case <-c.done:
		return nil, nil, c.Err()
	}
	r := newRequest(upload)
	c.mu.Lock()
	if err := c.err; err != nil {
		c.mu.Unlock()
		<-c.sem
		return nil, nil, err
	}
	c.pending = append(c.pending, r)
	c.mu.Unlock()
	return r, func() {
		r.abandon()
		<-c.sem
	}, nil
}

// write sends one frame and flushes it. A failed write leaves the stream
// in an unknown state, so it ends the connection.
func (c *Conn) write(t nplt.Type, payload []byte) error {
	if len(payload) > nplt.MaxPayload {
		return fmt.Errorf("client: %v of %d bytes: %w", t, len(payload), nplt.ErrFrameTooLarge)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.nc.SetWriteDeadline(time.Now().Add(c.opts.WriteTimeout)); err != nil {
		return c.writeFailed(t, err)
	}
	if err := c.w.WriteFrame(t, payload); err != nil {
		return c.writeFailed(t, err)
	}
	if err := c.w.Flush(); err != nil {
		return c.writeFailed(t, err)
	}
	return nil
}

func (c *Conn) writeFailed(t nplt.Type, err error) error {
	err = fmt.Errorf("writing %v: %w", t, err)
	c.abort(err)
	if cerr := c.Err(); cerr != nil {
		return cerr
	}
	return fmt.Errorf("%w: %w", ErrConnectionLost, err)
}

// writeJSON sends v as the JSON payload of a frame of type t.
func (c *Conn) writeJSON(t nplt.Type, v any) error {
	p, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("client: encoding %v: %w", t, err)
	}
	return c.write(t, p)
}
