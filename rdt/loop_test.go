package rdt

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// silentConn is a PacketConn that never receives anything: a server
// behind a firewall. It records when each datagram was written, and a
// read deadline in the past ends a blocked read, as on a real socket.
type silentConn struct {
	net.PacketConn // unused methods panic

	mu       sync.Mutex
	sent     []time.Time
	types    []Type
	deadline chan struct{} // closed by a deadline in the past
	cleared  bool
}

func newSilentConn() *silentConn { return &silentConn{deadline: make(chan struct{})} }

func (c *silentConn) ReadFrom([]byte) (int, net.Addr, error) {
	c.mu.Lock()
	dl := c.deadline
	c.mu.Unlock()
	<-dl
	return 0, nil, os.ErrDeadlineExceeded
}

func (c *silentConn) WriteTo(b []byte, _ net.Addr) (int, error) {
	p, err := Parse(b)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, time.Now())
	c.types = append(c.types, p.Type)
	return len(b), nil
}

func (c *silentConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case t.IsZero():
		c.cleared = true
		c.deadline = make(chan struct{})
	case t.Before(time.Now()):
		close(c.deadline)
	}
	return nil
}

// TestDownloadTimersVirtual runs Download against a silent server in a
// synctest bubble: the owner loop's timer sends the REQUEST at 0, 25,
// 75, 175, 375, 775, 1575 and 2575 ms and gives up with ErrNoResponse at exactly the
// first-packet timeout; the caller's socket is left usable.
func TestDownloadTimersVirtual(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pc := newSilentConn()
		start := time.Now()
		_, err := Download(context.Background(), ClientConfig{Addr: "127.0.0.1:9", Token: "tok", Path: filepath.Join(t.TempDir(), "out"), Conn: pc})
		if !errors.Is(err, ErrNoResponse) {
			t.Fatalf("got %v", err)
		}
		if el := time.Since(start); el != DefaultFirstPacketTimeout {
			t.Fatalf("gave up after %v", el)
		}
		want := []time.Duration{0, 25 * time.Millisecond, 75 * time.Millisecond, 175 * time.Millisecond, 375 * time.Millisecond,
			775 * time.Millisecond, 1575 * time.Millisecond, 2575 * time.Millisecond}
		pc.mu.Lock()
		defer pc.mu.Unlock()
		if len(pc.sent) != len(want) {
			t.Fatalf("%d datagrams sent: %v", len(pc.sent), pc.types)
		}
		for i, at := range pc.sent {
			if at.Sub(start) != want[i] || pc.types[i] != TypeRequest {
				t.Fatalf("datagram %d: %v at %v, want a REQUEST at %v", i, pc.types[i], at.Sub(start), want[i])
			}
		}
		if !pc.cleared {
			t.Fatal("the read deadline of the caller's socket was not cleared")
		}
	})
}

// TestDownloadCancelVirtual: cancelling the caller's context ends
// Download at once with context.Canceled, tells the server, and keeps a
// record to resume from.
func TestDownloadCancelVirtual(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pc := newSilentConn()
		out := filepath.Join(t.TempDir(), "out")
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel)
		start := time.Now()
		_, err := Download(ctx, ClientConfig{Addr: "127.0.0.1:9", Token: "tok", Path: out, Conn: pc})
		if !errors.Is(err, context.Canceled) || time.Since(start) != time.Second {
			t.Fatalf("%v after %v", err, time.Since(start))
		}
		pc.mu.Lock()
		last := pc.types[len(pc.types)-1]
		pc.mu.Unlock()
		if last != TypeError {
			t.Fatalf("last datagram %v, want ERROR", last)
		}
		if _, err := os.Stat(out + PartSuffix + RecordSuffix); err != nil {
			t.Fatalf("no record: %v", err)
		}
	})
}
