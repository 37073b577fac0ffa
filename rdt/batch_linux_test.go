//go:build linux

package rdt

import (
	"encoding/binary"
	"net"
	"os"
	"testing"
	"unsafe"

	"golang.org/x/net/ipv4"
	"golang.org/x/sys/unix"
)

// refusingBatch is a batchConn whose sendmmsg refuses what the test
// says: messages carrying a GSO control message, or every batch.
type refusingBatch struct {
	batchConn
	gsoErr, batchErr error
	calls, gsoCalls  int
}

func (r *refusingBatch) WriteBatch(ms []ipv4.Message, flags int) (int, error) {
	r.calls++
	if r.batchErr != nil {
		return 0, &net.OpError{Op: "write", Err: os.NewSyscallError("sendmmsg", r.batchErr)}
	}
	for i, m := range ms {
		if len(m.OOB) > 0 {
			r.gsoCalls++
			if r.gsoErr != nil {
				// The messages before the GSO one went out.
				if i > 0 {
					return r.batchConn.WriteBatch(ms[:i], flags)
				}
				return 0, &net.OpError{Op: "write", Err: os.NewSyscallError("sendmmsg", r.gsoErr)}
			}
		}
	}
	return r.batchConn.WriteBatch(ms, flags)
}

// TestConnFallbacks forces the kernel's refusals quic-go has met: GSO
// refused on the first send (EIO: no checksum offload on the
// interface; EINVAL), and sendmmsg itself unavailable (ENOSYS). Each
// turns its path off for good and every datagram still arrives, in
// order.
func TestConnFallbacks(t *testing.T) {
	for _, c := range []struct {
		name             string
		gsoErr, batchErr error
		wantGSO, wantBat bool
	}{
		{"gso EIO", unix.EIO, nil, false, true},
		{"gso EINVAL", unix.EINVAL, nil, false, true},
		{"sendmmsg ENOSYS", nil, unix.ENOSYS, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := udpPair(t)
			SetSocketBuffers(b)
			snd, rcv := NewConn(a, SocketOptions{}, nil), NewConn(b, SocketOptions{NoGRO: true}, nil)
			if !snd.GSO() || !snd.Batched() {
				t.Skip("kernel offers no GSO: nothing to refuse")
			}
			rb := &refusingBatch{batchConn: snd.bc, gsoErr: c.gsoErr, batchErr: c.batchErr}
			snd.bc = rb
			want := batchDatagrams()
			for round := range 2 { // the second round runs on the fallback
				sb := NewSendBatch(len(want), MaxDatagramSize)
				for _, d := range want {
					sb.Add(append(sb.Tail()[:0], d...))
				}
				if err := snd.Send(sb, b.LocalAddr()); err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				got := recvAll(t, rcv, a.LocalAddr(), len(want))
				for i := range want {
					if string(got[i]) != string(want[i]) {
						t.Fatalf("round %d: datagram %d differs", round, i)
					}
				}
				if snd.GSO() != c.wantGSO || snd.Batched() != c.wantBat {
					t.Fatalf("round %d: gso %v batched %v, want %v %v", round, snd.GSO(), snd.Batched(), c.wantGSO, c.wantBat)
				}
			}
			if c.gsoErr != nil && rb.gsoCalls != 1 {
				t.Fatalf("GSO tried %d times, want once", rb.gsoCalls)
			}
		})
	}
}

// TestConnSendError: an error that is no refusal of a fast path (the
// destination unreachable, a datagram over the interface MTU) comes
// back to the caller, and the paths stay on.
func TestConnSendError(t *testing.T) {
	a, b := udpPair(t)
	snd := NewConn(a, SocketOptions{}, nil)
	if !snd.Batched() {
		t.Skip("no batched sends")
	}
	snd.bc = &refusingBatch{batchConn: snd.bc, batchErr: unix.EMSGSIZE}
	sb := NewSendBatch(2, 10)
	sb.Add(append(sb.Tail()[:0], 1))
	err := snd.Send(sb, b.LocalAddr())
	if !IsMessageTooLong(err) || !snd.Batched() {
		t.Fatalf("err %v, batched %v", err, snd.Batched())
	}
}

// TestGROSegmentSize parses the UDP_GRO control message, and finds
// nothing (never a panic) in a foreign or cut one.
func TestGROSegmentSize(t *testing.T) {
	msg := func(level, typ int32, data []byte) []byte {
		b := make([]byte, unix.CmsgSpace(len(data)))
		h := (*unix.Cmsghdr)(unsafe.Pointer(&b[0]))
		h.Level, h.Type = level, typ
		h.SetLen(unix.CmsgLen(len(data)))
		copy(b[unix.CmsgLen(0):], data)
		return b
	}
	gro := msg(unix.IPPROTO_UDP, unix.UDP_GRO, binary.NativeEndian.AppendUint32(nil, 1232))
	other := msg(unix.IPPROTO_IP, unix.IP_TOS, []byte{1})
	for _, c := range []struct {
		name string
		oob  []byte
		want int
	}{
		{"gro", gro, 1232},
		{"after another", append(append([]byte(nil), other...), gro...), 1232},
		{"none", other, 0},
		{"cut", gro[:unix.CmsgLen(0)+1], 0},
		{"empty", nil, 0},
		{"bad length", func() []byte { b := append([]byte(nil), gro...); b[0] = 0xff; return b }(), 0},
	} {
		if got := groSegmentSize(c.oob); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
	if got := groSegmentSize(appendSegmentSize(nil, 1400)); got != 0 {
		t.Errorf("UDP_SEGMENT read as GRO: %d", got)
	}
}
