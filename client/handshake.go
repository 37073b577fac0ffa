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
	err := c.exchangeHello()
	if !stop() {
		return fmt.Errorf("client: handshake: %w", ctx.Err())
	}
	if err != nil {
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
func (c *Conn) exchangeHello() error {
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
	var (
		gotHello, greeted bool
		greeting          strings.Builder
	)
	for !gotHello || !greeted {
		f, err := c.r.ReadFrame()
		if err != nil {
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
		case isEnd(f):
			greeted = true
		case f.Type == nplt.ChatText:
			greeting.Write(f.Payload)
		case f.Type == nplt.Error:
			se, err := decodeServerError(f.Payload)
			if err != nil {
				return err
			}
			return se
		default:
			c.log.Debug("ignoring frame during handshake", zap.Stringer("type", f.Type))
		}
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
