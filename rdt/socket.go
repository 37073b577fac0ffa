package rdt

import "net"

// SocketBuffer is the kernel buffer size asked for on RDT sockets, so a
// burst of a few milliseconds at hundreds of Mbit/s is not dropped by the
// host before the reader gets to it.
const SocketBuffer = 4 << 20

// SetSocketBuffers asks for SocketBuffer bytes of kernel buffers on a UDP
// socket, for both directions; the kernel may grant less, which only
// costs throughput. Sockets without the setters are left alone.
func SetSocketBuffers(pc net.PacketConn) {
	if u, ok := pc.(interface {
		SetReadBuffer(int) error
		SetWriteBuffer(int) error
	}); ok {
		_ = u.SetReadBuffer(SocketBuffer)
		_ = u.SetWriteBuffer(SocketBuffer)
	}
}
