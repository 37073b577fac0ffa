package npltserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/authlimit"
	"opsassist/nplt"
	"opsassist/storage/uploads"
)

// outFrame is a frame waiting in a connection's outgoing queue.
type outFrame struct {
	t       nplt.Type
	payload []byte
}

// job is one request, run by the connection's worker in arrival order.
type job struct {
	run func(ctx context.Context)
	// drop, if set, releases what run would have used when the job is
	// skipped (connection closing).
	drop func()
	// refusals is how many requests the reader refused (queue full)
	// after the job queued before this one: they are answered
	// server_busy, in order, before this job runs.
	refusals int
}

// conn is one NPLT connection.
type conn struct {
	srv  *Server
	id   uint64 // in order of acceptance
	nc   net.Conn
	log  *zap.Logger
	sess *chat.Session

	// ext is set once the client sent HELLO: it may receive extension
	// frames.
	ext atomic.Bool

	out  chan outFrame
	jobs chan job

	// refusedMu guards refused, and orders the reader's enqueue against
	// the worker's check for an empty queue (enqueueJob, nextJob).
	refusedMu sync.Mutex
	// refused counts requests refused since the last one queued: the
	// queue was full. The next job queued carries them, or the worker
	// answers them once the queue is empty.
	refused int
	// askWake wakes a reader waiting for room in the queue when the turn
	// asks the user (markAsked). Buffered, one slot.
	askWake chan struct{}

	ctx    context.Context // cancelled to abort the request in progress
	cancel context.CancelFunc

	draining  atomic.Bool   // shutdown: finish the current request only
	wroteDone chan struct{} // closed when the writer exits
	stopWrite chan struct{} // closed to ask the writer to flush and exit
	closeOnce sync.Once

	// Owned by the reader goroutine.
	upload     *uploads.Pending
	discarding bool
	uploadSeen time.Time // when the upload last received data (upload.go)

	// waiting is set while the connection is counted as waiting to
	// authenticate under waitKey (pending.go). Guarded by srv.mu.
	waiting bool
	waitKey netip.Prefix
	// chatter is set while the connection counts toward MaxClients.
	// Guarded by srv.mu.
	chatter bool
	// evicted is set when a newer connection took this one's place among
	// those waiting to authenticate (Server.evictWaiting).
	evicted atomic.Bool

	// reply is the chat reply in progress (permission.go).
	reply replyState

	// toolStop cancels the direct call in progress (TOOL_CALL), nil
	// between calls; toolQueued are the direct calls queued behind the
	// request in progress, oldest first (tools.go).
	toolMu     sync.Mutex
	toolStop   context.CancelFunc
	toolQueued []*queuedCall

	// udpPort is the client's UDP port for RDT, 0 if not told.
	udpPort    atomic.Int32
	nextReport int64
}

// newConn returns a connection of s. Without tokens it acts for the
// local operator; with them for nobody (the zero principal, which sees
// nothing) until authenticate replaces its session with one of the
// principal its HELLO's token names.
func newConn(s *Server, nc net.Conn, id uint64) *conn {
	who := chat.Local()
	if s.authRequired() {
		who = chat.Principal{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &conn{
		srv:       s,
		id:        id,
		nc:        nc,
		log:       s.log.With(zap.Uint64("conn", id), zap.Stringer("remote", nc.RemoteAddr())),
		sess:      s.cfg.Chat.NewSession(api.ClientCLI, who),
		out:       make(chan outFrame, s.cfg.QueueFrames),
		jobs:      make(chan job, s.cfg.QueueRequests),
		askWake:   make(chan struct{}, 1),
		ctx:       ctx,
		cancel:    cancel,
		wroteDone: make(chan struct{}),
		stopWrite: make(chan struct{}),
	}
}

// serve runs the connection until it ends. A panic in its reader (the
// HELLO exchange included), writer or worker goroutine is logged with its
// stack and closes this connection, the reader's after an ERROR
// (internal); the caller then releases its slots and the server goes on.
func (c *conn) serve() {
	c.log.Debug("connection opened")
	defer func() {
		if p := recover(); p != nil { // in the closing steps below
			c.log.Error("closing connection panicked", zap.Any("panic", p), zap.Stack("stack"))
			c.abort()
		}
	}()
	go c.writeSafely()
	workDone := make(chan struct{})
	go func() {
		defer close(workDone)
		c.workSafely()
	}()

	reason := c.readSafely()

	close(c.jobs)
	if reason != errShutdown {
		c.cancel() // the client is gone or broke the protocol: stop its work
	}
	<-workDone
	if c.upload != nil {
		c.abortBroken(c.upload) // its state may be what panicked
		c.log.Info("upload aborted", zap.String("file", c.upload.Name()), zap.Int64("received", c.upload.Received()), zap.Error(reason))
	}
	switch {
	case reason == errShutdown:
		c.replyError(api.CodeShuttingDown, "server is shutting down")
	case reason == errIdle:
		c.replyError(api.CodeIdleTimeout, "no data received for "+c.srv.cfg.IdleTimeout.String())
	}
	close(c.stopWrite)
	<-c.wroteDone
	c.nc.Close()
	c.cancel()
	c.log.Debug("connection closed", zap.NamedError("reason", reason))
}

// readSafely is readLoop with a panic turned into an ERROR (internal)
// for the client and errPanicked.
func (c *conn) readSafely() (reason error) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("connection reader panicked", zap.Any("panic", p), zap.Stack("stack"))
			if c.ext.Load() {
				c.replyError(api.CodeInternal, internalMessage)
			} else { // perhaps mid-HELLO: both forms, as a refusal
				c.sendRefusal(api.CodeInternal, internalMessage)
			}
			reason = errPanicked
		}
	}()
	return c.readLoop()
}

// writeSafely is writeLoop; a panic in it closes the connection, which
// ends the reader and so the connection.
func (c *conn) writeSafely() {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("connection writer panicked", zap.Any("panic", p), zap.Stack("stack"))
			c.abort()
		}
	}()
	c.writeLoop()
}

// workSafely is workLoop; a panic outside a job (runJob recovers those)
// closes the connection and drops the jobs still queued.
func (c *conn) workSafely() {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("connection worker panicked", zap.Any("panic", p), zap.Stack("stack"))
			c.abort()
			for j := range c.jobs { // until the reader, woken by abort, closes it
				if j.drop != nil {
					j.drop()
				}
			}
		}
	}()
	c.workLoop()
}

// Reasons a reader loop ends.
var (
	errPanicked  = errors.New("reader panicked")
	errShutdown  = errors.New("server shutting down")
	errIdle      = errors.New("idle timeout")
	errStalled   = errors.New("client stalled mid-frame")
	errThrottled = errors.New("too many wrong tokens from this address")
)

// readLoop reads and dispatches frames until the connection ends, and
// returns why.
func (c *conn) readLoop() error {
	br := bufio.NewReaderSize(c.nc, 4096)
	fr := nplt.NewReader(br)
	if c.srv.authRequired() {
		if err := c.authenticate(fr); err != nil {
			return err
		}
	} else {
		c.enqueue(c.greet)
	}
	cfg := &c.srv.cfg
	lastRecv := time.Now()
	heartbeatSent := false
	var idleAt time.Time // when the idle wait ends; zero: not started
	for {
		uploadAt, ok := c.expireStalledUpload()
		if !ok {
			if c.shuttingDown() {
				return errShutdown
			}
			return net.ErrClosed // the writer is gone
		}
		if idleAt.IsZero() {
			wait := cfg.IdleTimeout / 2
			if heartbeatSent {
				wait = cfg.IdleTimeout - time.Since(lastRecv)
			}
			idleAt = time.Now().Add(wait)
		}
		at := idleAt
		if !uploadAt.IsZero() && uploadAt.Before(at) {
			at = uploadAt // wake to abort a stalled upload
		}
		// Set the deadline, then look at draining: drain sets the flag,
		// then a past deadline, so one of the two always stops the read.
		c.setReadDeadline(at)
		if c.shuttingDown() {
			return errShutdown
		}
		if _, err := br.Peek(1); err != nil {
			if c.shuttingDown() {
				return errShutdown
			}
			if !isTimeout(err) {
				return err
			}
			if time.Now().Before(idleAt) {
				continue // the upload's deadline, not the idle one
			}
			idleAt = time.Time{}
			if time.Since(lastRecv) >= cfg.IdleTimeout {
				return errIdle
			}
			if !heartbeatSent {
				c.heartbeat()
				heartbeatSent = true
			}
			continue
		}
		c.setReadDeadline(time.Now().Add(cfg.StallTimeout))
		if c.shuttingDown() {
			return errShutdown
		}
		f, err := fr.ReadFrame()
		if err != nil {
			if c.shuttingDown() {
				return errShutdown
			}
			if isTimeout(err) {
				return errStalled
			}
			if errors.Is(err, nplt.ErrShortHeader) || errors.Is(err, nplt.ErrShortPayload) {
				return fmt.Errorf("client closed mid-frame: %w", err)
			}
			return err
		}
		lastRecv = time.Now()
		heartbeatSent = false
		idleAt = time.Time{}
		if !c.dispatchSafely(f) {
			if c.shuttingDown() {
				return errShutdown
			}
			return net.ErrClosed // the writer is gone
		}
	}
}

// shuttingDown reports whether the server asked this connection to stop:
// either its drain flag or the server's quit channel, whichever is seen
// first.
func (c *conn) shuttingDown() bool {
	if c.draining.Load() {
		return true
	}
	select {
	case <-c.srv.quit:
		return true
	default:
		return false
	}
}

// setReadDeadline sets the read deadline. It can fail only on a closed
// connection, which the next read reports.
func (c *conn) setReadDeadline(t time.Time) {
	if err := c.nc.SetReadDeadline(t); err != nil {
		c.log.Debug("setting read deadline", zap.Error(err))
	}
}

// authenticate requires a HELLO with the configured token as the first
// frame, within HelloTimeout, which over TLS bounds the handshake too
// (both ways). A wrong token counts against the client's address in the
// shared limiter; an address over its limit is refused with
// too_many_attempts whatever it sends. A connection evicted meanwhile
// (evict) is refused with server_busy. Once authenticated, the
// connection counts toward MaxClients.
func (c *conn) authenticate(fr *nplt.Reader) error {
	// The writer is idle until the HELLO is answered: no write deadline
	// of its to clobber.
	if err := c.nc.SetDeadline(time.Now().Add(c.srv.cfg.HelloTimeout)); err != nil {
		c.log.Debug("setting hello deadline", zap.Error(err))
	}
	if c.shuttingDown() {
		return errShutdown
	}
	if c.evicted.Load() {
		return c.refuseEvicted()
	}
	f, err := fr.ReadFrame()
	if err != nil {
		if c.shuttingDown() {
			return errShutdown
		}
		if c.evicted.Load() {
			return c.refuseEvicted()
		}
		if isTimeout(err) {
			c.sendRefusal(api.CodeUnauthorized, "authentication required: send HELLO with a token")
			return errors.New("no HELLO before timeout")
		}
		return err
	}
	lim, addr := c.srv.cfg.Limiter, authlimit.AddrOf(c.nc.RemoteAddr().String())
	if lim.Blocked(addr, time.Now()) {
		c.sendRefusal(api.CodeTooManyAttempts, authlimit.Message)
		return errThrottled
	}
	if f.Type != nplt.Hello {
		c.sendRefusal(api.CodeUnauthorized, "authentication required: send HELLO with a valid token")
		return errors.New("unauthorized")
	}
	who, ok, guessed := c.helloToken(f.Payload)
	if !ok {
		if guessed {
			lim.Fail(addr, time.Now())
		}
		c.sendRefusal(api.CodeUnauthorized, "authentication required: send HELLO with a valid token")
		return errors.New("unauthorized")
	}
	// Take a max_clients place before the HELLO reply goes out.
	if !c.srv.authenticated(c) {
		c.sendRefusal(api.CodeServerBusy, "server busy: too many clients")
		return errors.New("authenticated, but the server is full")
	}
	// The connection acts for the token's principal from here on. No
	// job has been queued yet, so the worker sees only this session.
	c.sess = c.srv.cfg.Chat.NewSession(api.ClientCLI, who)
	c.log.Debug("authenticated", zap.String("user", who.Name), zap.String("role", who.Role))
	c.handleHello(f)
	c.enqueue(c.greet)
	return nil
}

// errEvicted ends a connection that was waiting to authenticate when a
// newer one took its place.
var errEvicted = errors.New("evicted while waiting to authenticate")

// evict asks a connection waiting for its HELLO to give up its place:
// its reader wakes and refuses it with server_busy.
func (c *conn) evict() {
	c.evicted.Store(true)
	c.setReadDeadline(time.Now())
}

// refuseEvicted tells an evicted connection why it closes.
func (c *conn) refuseEvicted() error {
	c.sendRefusal(api.CodeServerBusy, msgBusyWaiting)
	return errEvicted
}

func isTimeout(err error) bool {
	return errors.Is(err, os.ErrDeadlineExceeded)
}

// dispatch hands one frame to its handler. The payload is valid only
// during the call. It returns false when the connection is shutting down.
func (c *conn) dispatch(f nplt.Frame) bool {
	if f.Type != nplt.FileData {
		c.discarding = false
	}
	switch f.Type {
	case nplt.ChatText:
		return c.handleChat(f)
	case nplt.FileMetadata:
		return c.handleFileMeta(f)
	case nplt.FileData:
		return c.handleFileData(f)
	case nplt.Hello:
		c.handleHello(f)
	case nplt.Ping:
		c.handlePing(f)
	case nplt.Pong:
		// A client answering our PING; receiving it already reset the idle timer.
	case nplt.ModelSwitch:
		return c.handleModelSwitch(f)
	case nplt.HistoryRequest:
		return c.handleHistoryRequest()
	case nplt.ClearRequest:
		return c.enqueue(c.replyClear)
	case nplt.SessionList:
		return c.handleSessionList(f)
	case nplt.SessionNew:
		return c.enqueue(c.replySessionNew)
	case nplt.SessionSwitch:
		return c.handleSessionSwitch(f)
	case nplt.SessionDelete:
		return c.handleSessionDelete(f)
	case nplt.SessionRename:
		return c.handleSessionRename(f)
	case nplt.SessionExport:
		return c.handleSessionExport(f)
	case nplt.ClientUDPPort:
		return c.handleClientUDPPort(f)
	case nplt.FileRequest:
		return c.handleFileRequest(f)
	case nplt.PermissionResponse:
		return c.handlePermissionResponse(f)
	case nplt.PermissionGrants:
		return c.handlePermissionGrants(f)
	case nplt.Answer:
		return c.handleAnswer(f)
	case nplt.Cancel:
		return c.handleCancel(f)
	case nplt.ToolList:
		return c.handleToolList(f)
	case nplt.ToolCall:
		return c.handleToolCall(f)
	default:
		return c.enqueueError(api.CodeUnknownType, "unknown frame type "+f.Type.String())
	}
	return true
}

// enqueue queues a request for the worker.
func (c *conn) enqueue(run func(context.Context)) bool { return c.enqueueJob(job{run: run}) }

// enqueueJob queues a request for the worker. While the queue is full
// it waits for room (back-pressure on a client that pipelines requests)
// — unless the turn in progress has asked the user, whose answer, CANCEL
// and PING the reader must go on reading (STYLE rule 18): then the
// request is dropped and counted, and answered ERROR server_busy in its
// place in the reply order (job.refusals, nextJob). It returns false,
// having dropped the job, if the connection is closing.
func (c *conn) enqueueJob(j job) bool {
	for {
		queued, refused := c.tryEnqueue(&j)
		if queued {
			return true
		}
		if refused {
			c.log.Debug("request refused: queue full while the user is asked", zap.Int("queue", cap(c.jobs)))
			if j.drop != nil {
				j.drop()
			}
			return true
		}
		select {
		case c.jobs <- j:
			return true
		case <-c.askWake: // the turn asked the user: try again
			continue
		case <-c.srv.quit:
		case <-c.wroteDone:
		}
		if j.drop != nil {
			j.drop()
		}
		return false
	}
}

// tryEnqueue queues j if there is room, carrying the requests refused
// before it; on a full queue it refuses j if the turn asked the user.
// Neither: j keeps the refusals it carries and the caller waits.
func (c *conn) tryEnqueue(j *job) (queued, refused bool) {
	c.refusedMu.Lock()
	defer c.refusedMu.Unlock()
	j.refusals += c.refused
	c.refused = 0
	select {
	case c.jobs <- *j:
		return true, false
	default:
	}
	if c.reply.waiting() {
		c.refused = j.refusals + 1
		return false, true
	}
	return false, false
}

// msgQueueFull answers a request refused because the connection's queue
// was full.
const msgQueueFull = "服务器繁忙：此连接排队的请求过多，请稍后重试 server busy: too many requests queued on this connection; retry later"

// nextJob returns the next queued job, or false once the queue is
// closed. Before waiting on an empty queue it answers the requests
// refused since the last job (the reader counts them under refusedMu
// only while the queue is full, so they came after every job run).
func (c *conn) nextJob() (job, bool) {
	select {
	case j, ok := <-c.jobs:
		return j, ok
	default:
	}
	c.refusedMu.Lock()
	n := 0
	if len(c.jobs) == 0 {
		n, c.refused = c.refused, 0
	}
	c.refusedMu.Unlock()
	c.answerRefused(n)
	j, ok := <-c.jobs
	return j, ok
}

// answerRefused answers n refused requests server_busy, unless the
// connection is stopping.
func (c *conn) answerRefused(n int) {
	for range n {
		if c.shuttingDown() || c.ctx.Err() != nil {
			return
		}
		c.replyError(api.CodeServerBusy, msgQueueFull)
	}
}

// enqueueError queues an error reply.
func (c *conn) enqueueError(code, msg string) bool {
	return c.enqueue(func(context.Context) { c.replyError(code, msg) })
}

// abortBroken aborts an upload left behind by a panic, whose state may be
// what panicked: a second panic is logged, not let through.
func (c *conn) abortBroken(p *uploads.Pending) {
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("aborting upload panicked", zap.Any("panic", r), zap.Stack("stack"))
		}
	}()
	p.Abort()
}

// workLoop runs requests in order. During shutdown it finishes the
// request in progress and drops the rest.
func (c *conn) workLoop() {
	for {
		j, ok := c.nextJob()
		if !ok {
			return
		}
		if c.shuttingDown() || c.ctx.Err() != nil {
			if j.drop != nil {
				j.drop()
			}
			continue
		}
		c.answerRefused(j.refusals)
		c.runJob(j)
	}
}

// internalMessage is what a client is told of a request that panicked;
// no user text is at hand to pick a language, so it says it in both.
const internalMessage = "内部错误：请求未能完成，问题已记录在服务器日志中。internal error: the request failed on the server and was logged."

// runJob runs one request. A panic in it is logged with its stack and
// answered with an ERROR (code internal) and the end of the reply; the
// connection goes on serving.
func (c *conn) runJob(j job) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("request panicked", zap.Any("panic", p), zap.Stack("stack"))
			c.replyError(api.CodeInternal, internalMessage)
		}
	}()
	j.run(c.ctx)
}

// dispatchSafely is dispatch with a panic turned into an internal error
// reply: the upload in progress, if any, is aborted (its remaining data
// is discarded) and the connection goes on reading.
func (c *conn) dispatchSafely(f nplt.Frame) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("frame handler panicked", zap.Stringer("type", f.Type), zap.Any("panic", p), zap.Stack("stack"))
			if p := c.upload; p != nil {
				c.upload, c.discarding = nil, true
				c.abortBroken(p)
			}
			ok = c.enqueueError(api.CodeInternal, internalMessage)
		}
	}()
	return c.dispatch(f)
}

// writeLoop is the only writer to the socket. It batches queued frames
// into one flush. Each write is bounded by WriteTimeout; any write error
// closes the connection, since a frame cut short would misframe
// everything after it.
func (c *conn) writeLoop() {
	defer close(c.wroteDone)
	w := nplt.NewWriter(c.nc)
	// Every call that may reach the socket gets a fresh deadline, so a
	// client that reads slowly but steadily is never cut off.
	deadline := func() {
		if err := c.nc.SetWriteDeadline(time.Now().Add(c.srv.cfg.WriteTimeout)); err != nil {
			c.log.Debug("setting write deadline", zap.Error(err))
		}
	}
	write := func(f outFrame) bool {
		deadline()
		if err := w.WriteFrame(f.t, f.payload); err != nil {
			c.log.Debug("write failed; closing", zap.Stringer("type", f.t), zap.Error(err))
			c.abort()
			return false
		}
		return true
	}
	flush := func() bool {
		deadline()
		if err := w.Flush(); err != nil {
			c.log.Debug("write failed; closing", zap.Error(err))
			c.abort()
			return false
		}
		return true
	}
	for {
		select {
		case f := <-c.out:
			if !write(f) || len(c.out) == 0 && !flush() {
				return
			}
		case <-c.stopWrite:
			for {
				select {
				case f := <-c.out:
					if !write(f) {
						return
					}
				default:
					flush()
					return
				}
			}
		}
	}
}

// send queues a frame, waiting for room. It fails once the writer is
// gone.
func (c *conn) send(t nplt.Type, payload []byte) error {
	select {
	case c.out <- outFrame{t, payload}:
		return nil
	case <-c.wroteDone:
		return net.ErrClosed
	}
}

// trySend queues a frame if there is room, dropping it otherwise. It is
// for frames that are only informative (progress).
func (c *conn) trySend(t nplt.Type, payload []byte) {
	select {
	case c.out <- outFrame{t, payload}:
	default:
	}
}

// drain asks the connection to finish its current request and close.
func (c *conn) drain() {
	c.draining.Store(true)
	c.setReadDeadline(time.Now()) // wake the reader
}

// abort closes the connection at once, cancelling its request.
func (c *conn) abort() {
	c.closeOnce.Do(func() {
		c.cancel()
		c.nc.Close()
	})
}

// refuseLinger is how long a refused connection is drained before close.
const refuseLinger = time.Second

// refusalFrames is what a client that cannot be served receives before
// the connection closes: a readable reply for published clients, then the
// ERROR frame HELLO clients look for (a published client may stop at a
// type it does not know, but the connection is closing anyway).
func refusalFrames(code, msg string) []outFrame {
	return []outFrame{
		{nplt.ChatText, []byte("错误 [" + code + "]: " + msg)},
		{nplt.ChatText, nil},
		{nplt.Error, errorPayload(code, msg)},
	}
}

// sendRefusal queues refusalFrames.
func (c *conn) sendRefusal(code, msg string) {
	for _, f := range refusalFrames(code, msg) {
		if c.send(f.t, f.payload) != nil {
			return
		}
	}
}

// refuse tells a client the server cannot take it and closes, within
// timeout: the deadline is set both ways, since over TLS the first write
// runs the handshake, which reads the client's ClientHello.
func refuse(nc net.Conn, timeout time.Duration, code, msg string) {
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(timeout))
	w := nplt.NewWriter(nc)
	for _, f := range refusalFrames(code, msg) {
		if w.WriteFrame(f.t, f.payload) != nil {
			return
		}
	}
	if w.Flush() != nil {
		return
	}
	// Let the client read the refusal before the close resets the
	// connection: half-close, then drain what it sends for a moment.
	if cw, ok := nc.(interface{ CloseWrite() error }); ok && cw.CloseWrite() == nil {
		nc.SetReadDeadline(time.Now().Add(min(refuseLinger, timeout)))
		io.Copy(io.Discard, io.LimitReader(nc, 1<<16))
	}
}

// portFromPayload parses a CLIENT_UDP_PORT payload: JSON {"port":N},
// decimal text, or a big-endian u16.
func portFromPayload(p []byte) (int, error) {
	if len(p) == 2 && (p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9') {
		if n := int(p[0])<<8 | int(p[1]); n != 0 {
			return n, nil
		}
		return 0, errors.New("port 0 out of range")
	}
	var v struct {
		Port *int `json:"port"`
	}
	if err := unmarshalStrict(p, &v); err == nil && v.Port != nil {
		if *v.Port < 1 || *v.Port > 65535 {
			return 0, fmt.Errorf("port %d out of range", *v.Port)
		}
		return *v.Port, nil
	}
	n, err := strconv.Atoi(string(p))
	if err != nil || n < 1 || n > 65535 {
		return 0, fmt.Errorf("want JSON {\"port\":N}, a decimal port or a u16")
	}
	return n, nil
}
