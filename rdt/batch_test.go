package rdt

import (
	"bytes"
	"fmt"
	"net"
	"testing"
	"time"
)

// udpPair returns two UDP sockets on 127.0.0.1, closed at cleanup.
func udpPair(t *testing.T) (a, b *net.UDPConn) {
	t.Helper()
	for _, c := range []**net.UDPConn{&a, &b} {
		pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pc.Close() })
		*c = pc
	}
	return a, b
}

// batchDatagrams are datagrams of the sizes a sender mixes: runs of
// equal size (a GSO run each), a shorter one ending a run, a larger one
// after it, and single ones.
func batchDatagrams() [][]byte {
	var ds [][]byte
	sizes := []int{1240, 1240, 1240, 700, 1240, 1240, 100, 16384, 16384, 16384, 16384, 5000, 1240}
	for i, n := range sizes {
		ds = append(ds, bytes.Repeat([]byte{byte(i + 1)}, n))
	}
	for i := range 40 {
		ds = append(ds, bytes.Repeat([]byte{byte(100 + i)}, 1240))
	}
	return ds
}

// recvAll reads until want datagrams arrived from from, splitting GRO
// runs, and returns them.
func recvAll(t *testing.T, c *Conn, from net.Addr, want int) [][]byte {
	t.Helper()
	c.PacketConn().SetReadDeadline(time.Now().Add(10 * time.Second))
	rb := c.NewRecvBatch(MaxBatch, MaxDatagramSize)
	var got [][]byte
	for len(got) < want {
		n, err := c.Recv(rb)
		if err != nil {
			t.Fatalf("after %d of %d datagrams: %v", len(got), want, err)
		}
		for i := range n {
			m, src, seg := rb.Message(i)
			if src.String() != from.String() {
				t.Fatalf("datagram from %v, want %v", src, from)
			}
			for len(m) > 0 {
				var d []byte
				d, m = NextSegment(m, seg)
				got = append(got, append([]byte(nil), d...))
			}
		}
	}
	return got
}

// TestConnBatches sends a mix of datagram sizes through every
// combination of fast paths, each side's chosen alone, and receives them
// all, in order and intact: batching, GSO and GRO change the system
// calls, never the datagrams.
func TestConnBatches(t *testing.T) {
	opts := []SocketOptions{{}, {NoGSO: true}, {NoGRO: true}, {NoGSO: true, NoGRO: true}, {NoBatch: true}}
	for _, so := range opts {
		for _, ro := range opts {
			t.Run(fmt.Sprintf("send%+v/recv%+v", so, ro), func(t *testing.T) {
				a, b := udpPair(t)
				SetSocketBuffers(a)
				SetSocketBuffers(b)
				snd, rcv := NewConn(a, so, nil), NewConn(b, ro, nil)
				if so.NoBatch && (snd.Batched() || snd.GSO()) || so.NoGSO && snd.GSO() || ro.NoGRO && rcv.GRO() {
					t.Fatalf("fast path on against the options: batched %v gso %v gro %v", snd.Batched(), snd.GSO(), rcv.GRO())
				}
				want := batchDatagrams()
				sb := NewSendBatch(MaxBatch, MaxDatagramSize)
				for i := 0; i < len(want); {
					for ; i < len(want) && sb.Len() < MaxBatch; i++ {
						sb.Add(append(sb.Tail()[:0], want[i]...))
					}
					if err := snd.Send(sb, b.LocalAddr()); err != nil {
						t.Fatal(err)
					}
					if sb.Len() != 0 {
						t.Fatal("Send left the batch full")
					}
				}
				got := recvAll(t, rcv, a.LocalAddr(), len(want))
				if len(got) != len(want) {
					t.Fatalf("%d datagrams, want %d", len(got), len(want))
				}
				for i := range want {
					if !bytes.Equal(got[i], want[i]) {
						t.Fatalf("datagram %d: %d bytes of %d, want %d of %d", i, len(got[i]), got[i][0], len(want[i]), want[i][0])
					}
				}
			})
		}
	}
}

// plainPacketConn hides the *net.UDPConn, as a caller's wrapper does.
type plainPacketConn struct{ net.PacketConn }

// TestConnNotUDP: a PacketConn that is not a *net.UDPConn gets no fast
// path and still moves every datagram, one per call.
func TestConnNotUDP(t *testing.T) {
	a, b := udpPair(t)
	snd, rcv := NewConn(plainPacketConn{a}, SocketOptions{}, nil), NewConn(plainPacketConn{b}, SocketOptions{}, nil)
	if snd.Batched() || snd.GSO() || rcv.GRO() || snd.SetDontFragment() {
		t.Fatal("fast path on a wrapped socket")
	}
	sb := NewSendBatch(4, 100)
	for i := range 3 {
		sb.Add(append(sb.Tail()[:0], byte(i), byte(i)))
	}
	if err := snd.Send(sb, b.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	got := recvAll(t, rcv, a.LocalAddr(), 3)
	for i, d := range got {
		if !bytes.Equal(d, []byte{byte(i), byte(i)}) {
			t.Fatalf("datagram %d: %v", i, d)
		}
	}
}

// TestSendBatchAddCopies: a datagram not appended to Tail (or one that
// outgrew it) is copied, never lost.
func TestSendBatchAddCopies(t *testing.T) {
	sb := NewSendBatch(2, 4)
	sb.Add([]byte("elsewhere"))                         // not in Tail: copied
	sb.Add(append(sb.Tail()[:0], "a longer one..."...)) // outgrew Tail
	sb.Add(append(sb.Tail()[:0], 'x'))
	want := []string{"elsewhere", "a longer one...", "x"}
	if sb.Len() != len(want) {
		t.Fatalf("%d datagrams", sb.Len())
	}
	for i, w := range want {
		if string(sb.Datagram(i)) != w {
			t.Fatalf("datagram %d = %q, want %q", i, sb.Datagram(i), w)
		}
	}
}

// TestNextSegment splits GRO runs, the last datagram shorter.
func TestNextSegment(t *testing.T) {
	for _, c := range []struct {
		n, seg int
		want   []int
	}{{10, 0, []int{10}}, {10, 10, []int{10}}, {10, 20, []int{10}}, {10, 4, []int{4, 4, 2}}, {12, 4, []int{4, 4, 4}}} {
		b := make([]byte, c.n)
		var got []int
		for len(b) > 0 {
			var d []byte
			d, b = NextSegment(b, c.seg)
			got = append(got, len(d))
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%d bytes, seg %d: %v, want %v", c.n, c.seg, got, c.want)
		}
	}
}
