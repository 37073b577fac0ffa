package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/nplt"
)

// handshake sends HELLO and reads frames until it has both the HELLO reply
// and the end of the greeting reply, in either order. It runs before the
// reader goroutine starts, so it reads and writes the connection directly.
func (c *Conn) handshake(ctx context.Context) error {
	deadline := time.Now().Add(c.opts.HandshakeTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := c.nc.SetDeadline(deadline); err != nil {
		return fmt.Errorf("client: handshake: %w", err)
	}
	// A cancelled ctx interrupts a blocked read or write.
	stop := context.AfterFunc(ctx, func() {
		if err := c.nc.SetDeadline(time.Unix(1, 0)); err != nil {
			c.log.Debug("interrupting handshake", zap.Error(err))
		}
	})
	err := c.exchangeHello(deadline)
	if !stop() {
		return fmt.Errorf("client: handshake: %w", ctx.Err())
	}
	if err != nil {
		if errors.Is(err, ErrUnknownSession) || errors.Is(err, ErrNotNPLT) {
			return err // already says what went wrong
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("client: handshake timed out: %w", err)
		}
		return fmt.Errorf("client: handshake: %w", err)
	}
	if err := c.nc.SetDeadline(time.Time{}); err != nil {
		return fmt.Errorf("client: handshake: %w", err)
	}
	return nil
}

// exchangeHello does the handshake's I/O.
//
// When HELLO asks to resume a conversation the server does not know, the
// server answers with an error reply (ERROR not_found, end) before its
// HELLO reply, which names the new conversation it started instead. The
// greeting reply comes before both (no token) or after both (token), so
// the error reply's end must not be taken for the greeting's. exchangeHello
// reads the whole exchange, then reports the failed resume as
// ErrUnknownSession; a HELLO reply naming another conversation without an
// ERROR is reported the same way.
//
// HELLO is followed by a PING whose payload is probePayload: an NPLT
// server answers it with a PONG the handshake ignores, while an HTTP
// server takes the line break for the end of a malformed request line
// and answers 400 at once, which checkFirstReply recognises.
func (c *Conn) exchangeHello(deadline time.Time) error {
	hello, err := json.Marshal(nplt.HelloPayload{
		Client:     clientName,
		Version:    c.opts.Version,
		ClientType: c.opts.ClientType,
		Token:      c.opts.Token,
		SessionID:  c.opts.SessionID,
	})
	if err != nil {
		return fmt.Errorf("encoding hello: %w", err)
	}
	if err := c.writeDirect(nplt.Hello, hello); err != nil {
		return err
	}
	if err := c.writeDirect(nplt.Ping, []byte(probePayload)); err != nil {
		return err
	}
	if err := c.checkFirstReply(deadline); err != nil {
		return err
	}
	var (
		gotHello, greeted bool
		inErrorReply      bool         // between the resume's ERROR and its end
		resumeErr         *ServerError // the server refused to resume
		greeting          strings.Builder
	)
	for !gotHello || !greeted || inErrorReply {
		f, err := c.r.ReadFrame()
		if err != nil {
			if resumeErr != nil {
				// The server gave its answer; the rest does not matter.
				return unknownSessionError(c.opts.SessionID, resumeErr)
			}
			return fmt.Errorf("%w: %w", ErrConnectionLost, err)
		}
		switch {
		case f.Type == nplt.Hello:
			if err := json.Unmarshal(f.Payload, &c.hello); err != nil {
				return fmt.Errorf("%w: decoding %v: %w", ErrProtocol, f.Type, err)
			}
			gotHello = true
		case f.Type == nplt.Ping:
			if err := c.writeDirect(nplt.Pong, f.Payload); err != nil {
				return err
			}
		case isHeartbeat(f):
			if err := c.writeDirect(nplt.Pong, f.Payload); err != nil {
				return err
			}
		case isEnd(f) && inErrorReply:
			inErrorReply = false
		case isEnd(f):
			greeted = true
		case f.Type == nplt.ChatText && inErrorReply:
			c.log.Debug("ignoring text of the resume error reply")
		case f.Type == nplt.ChatText:
			greeting.Write(f.Payload)
		case f.Type == nplt.Error:
			se, err := decodeServerError(f.Payload)
			if err != nil {
				return err
			}
			if c.opts.SessionID == "" || se.Code != api.CodeNotFound || resumeErr != nil {
				return se // the server refused the connection
			}
			resumeErr, inErrorReply = se, true
		default:
			c.log.Debug("ignoring frame during handshake", zap.Stringer("type", f.Type))
		}
	}
	if resumeErr != nil {
		return unknownSessionError(c.opts.SessionID, resumeErr)
	}
	if c.opts.SessionID != "" && c.hello.SessionID != "" && !strings.HasPrefix(c.hello.SessionID, strings.TrimSpace(c.opts.SessionID)) {
		return unknownSessionError(c.opts.SessionID, nil)
	}
	c.greeting = greeting.String()
	return nil
}

// writeDirect writes and flushes one frame under the handshake's deadline.
func (c *Conn) writeDirect(t nplt.Type, payload []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.w.WriteFrame(t, payload); err != nil {
		return fmt.Errorf("writing %v: %w", t, err)
	}
	if err := c.w.Flush(); err != nil {
		return fmt.Errorf("%w: writing %v: %w", ErrConnectionLost, t, err)
	}
	return nil
}

// probePayload is the payload of the PING sent after HELLO. Its line
// break ends an HTTP request line, so an HTTP server answers at once.
const probePayload = "nplt?\r\n\r\n"

// httpPrefix starts every HTTP/1.x response.
const httpPrefix = "HTTP/"

// checkFirstReply waits up to HelloTimeout (and at most until deadline)
// for the first bytes of the server's reply and reports ErrHTTPServer or
// ErrNotNPLT when they cannot start an NPLT frame or do not come. It
// consumes nothing; deadline is restored for the rest of the handshake.
func (c *Conn) checkFirstReply(deadline time.Time) error {
	first := time.Now().Add(c.opts.HelloTimeout)
	if first.After(deadline) {
		first = deadline
	}
	if err := c.nc.SetReadDeadline(first); err != nil {
		return fmt.Errorf("setting the first reply's deadline: %w", err)
	}
	b, err := c.br.Peek(nplt.HeaderSize)
	if errors.Is(err, os.ErrDeadlineExceeded) && first.Equal(deadline) {
		// The whole handshake's time is up, not only the first reply's.
		return fmt.Errorf("%w: %w", ErrConnectionLost, err)
	}
	if err := firstReplyError(b, err, c.opts.HelloTimeout); err != nil {
		return err
	}
	if err := c.nc.SetReadDeadline(deadline); err != nil {
		return fmt.Errorf("restoring the handshake deadline: %w", err)
	}
	return nil
}

// firstReplyError judges the first bytes b of a reply to HELLO and the
// error of peeking them; wait is how long the peek waited at most. It
// returns nil when b can start an NPLT frame, or when the peer closed
// the connection (the frame reader then reports the loss).
func firstReplyError(b []byte, err error, wait time.Duration) error {
	if strings.HasPrefix(string(b), httpPrefix) {
		return ErrHTTPServer
	}
	if len(b) == nplt.HeaderSize {
		h, herr := nplt.ParseHeader(b)
		if herr != nil || !h.Type.Known() {
			return fmt.Errorf("%w: its reply starts with %q", ErrNotNPLT, b)
		}
		return nil
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		if len(b) > 0 {
			return fmt.Errorf("%w: its reply starts with %q", ErrNotNPLT, b)
		}
		return fmt.Errorf("%w: no reply to HELLO within %v: %w", ErrNotNPLT, wait, err)
	}
	return nil
}
