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

	"opsassist/internal/partfile"
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

// TestHandleBatchAcks: a receive batch of in-order DATA is acknowledged
// once, after the batch (the ACK is left due for the loop); a batch whose
// every message brings a gap is acknowledged after each message, so the
// ranges the sender needs never wait for the batch nor outgrow one ACK.
func TestHandleBatchAcks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pn      func(i int) uint32
		midAcks int
	}{
		{"in order", func(i int) uint32 { return uint32(i) }, 0},
		{"every other lost", func(i int) uint32 { return uint32(2 * i) }, rxMessages - 2}, // the first is in order; none after the last
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			cpc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
			if err != nil {
				t.Fatal(err)
			}
			defer cpc.Close()
			cfg := ClientConfig{Addr: srv.LocalAddr().String(), Token: "t", Path: filepath.Join(t.TempDir(), "out")}
			if err := cfg.populate(); err != nil {
				t.Fatal(err)
			}
			part, err := partfile.Create(cfg.Path, partfile.ID{Token: "t"})
			if err != nil {
				t.Fatal(err)
			}
			defer part.Close()
			sock := newSocket(cpc, srv.LocalAddr().(*net.UDPAddr), false, SocketOptions{}, nil)
			acks := 0
			f := newFetch(&cfg, 7, part, func(p *Packet) error {
				if p.Type == TypeAck {
					acks++
				}
				return nil
			}, time.Now())
			const payload = 100
			for i := range rxMessages {
				b, err := (&Packet{Type: TypeData, ConnID: 7, PN: tc.pn(i), Offset: uint64(tc.pn(i)) * payload, Size: 1 << 20, Payload: make([]byte, payload)}).Append(nil)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := srv.WriteTo(b, cpc.LocalAddr()); err != nil {
					t.Fatal(err)
				}
			}
			rb := sock.conn.NewRecvBatch(rxMessages, rxBufSize)
			got := 0
			for got < rxMessages { // loopback delivers all; recvmmsg may still split them
				n, err := sock.conn.Recv(rb)
				if err != nil {
					t.Fatal(err)
				}
				d := &download{cfg: &cfg, part: part, sock: sock}
				if _, err := d.handleBatch(f, &rxBatch{rb: rb}); err != nil {
					t.Fatal(err)
				}
				if n < rxMessages && got == 0 && tc.midAcks > 0 {
					t.Skipf("the first receive took %d of %d datagrams", n, rxMessages)
				}
				got += n
			}
			if acks != tc.midAcks {
				t.Fatalf("%d ACKs within the batch, want %d", acks, tc.midAcks)
			}
			if !f.recv.ackNow {
				t.Fatal("no ACK left due at the end of the batch")
			}
		})
	}
}
