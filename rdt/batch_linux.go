//go:build linux

package rdt

import (
	"encoding/binary"
	"errors"
	"net"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"
)

// gsoSupported reports whether the kernel knows UDP_SEGMENT on u's
// socket. Sending may still fail later if the interface lacks checksum
// offload (gsoRefused); Conn then turns GSO off.
func gsoSupported(u *net.UDPConn) bool {
	rc, err := u.SyscallConn()
	if err != nil {
		return false
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		_, serr = unix.GetsockoptInt(int(fd), unix.IPPROTO_UDP, unix.UDP_SEGMENT)
	}); err != nil {
		return false
	}
	return serr == nil
}

// enableGRO asks the kernel to coalesce received datagrams (UDP_GRO)
// and reports whether it agreed.
func enableGRO(u *net.UDPConn) bool {
	rc, err := u.SyscallConn()
	if err != nil {
		return false
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.SetsockoptInt(int(fd), unix.IPPROTO_UDP, unix.UDP_GRO, 1)
	}); err != nil {
		return false
	}
	return serr == nil
}

// appendSegmentSize appends a UDP_SEGMENT control message asking the
// kernel to cut the buffer into datagrams of seg bytes.
func appendSegmentSize(b []byte, seg int) []byte {
	start := len(b)
	b = slices.Grow(b, unix.CmsgSpace(2))[:start+unix.CmsgSpace(2)]
	clear(b[start:])
	h := (*unix.Cmsghdr)(unsafe.Pointer(&b[start]))
	h.Level = unix.IPPROTO_UDP
	h.Type = unix.UDP_SEGMENT
	h.SetLen(unix.CmsgLen(2))
	binary.NativeEndian.PutUint16(b[start+unix.CmsgLen(0):], uint16(seg))
	return b
}

// groSegmentSize returns the segment size of a UDP_GRO control message
// in oob, 0 if there is none.
func groSegmentSize(oob []byte) int {
	for len(oob) >= unix.CmsgLen(0) {
		h := (*unix.Cmsghdr)(unsafe.Pointer(&oob[0]))
		l := int(h.Len)
		if l < unix.CmsgLen(0) || l > len(oob) {
			return 0
		}
		if h.Level == unix.IPPROTO_UDP && h.Type == unix.UDP_GRO && l >= unix.CmsgLen(2) {
			data := oob[unix.CmsgLen(0):l]
			if len(data) >= 4 {
				return int(binary.NativeEndian.Uint32(data))
			}
			return int(binary.NativeEndian.Uint16(data))
		}
		oob = oob[min(unix.CmsgSpace(l-unix.CmsgLen(0)), len(oob)):]
	}
	return 0
}

// gsoRefused reports whether a send failed because the kernel or the
// interface cannot do GSO: EIO (no checksum offload), EINVAL (a segment
// size it does not accept) or EOPNOTSUPP.
func gsoRefused(err error) bool {
	return errors.Is(err, unix.EIO) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP)
}

// batchRefused reports whether sendmmsg itself is not available.
func batchRefused(err error) bool {
	return errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP)
}

// setDontFragment sets the don't-fragment bit on u's datagrams, for IPv4
// and IPv6 (IP_PMTUDISC_PROBE: also ignoring the kernel's path MTU
// cache), so a datagram too large for the path is lost rather than
// fragmented, and one too large for the interface fails with EMSGSIZE.
func setDontFragment(u *net.UDPConn) bool {
	rc, err := u.SyscallConn()
	if err != nil {
		return false
	}
	var err4, err6 error
	if err := rc.Control(func(fd uintptr) {
		err4 = unix.SetsockoptInt(int(fd), unix.IPPROTO_IP, unix.IP_MTU_DISCOVER, unix.IP_PMTUDISC_PROBE)
		err6 = unix.SetsockoptInt(int(fd), unix.IPPROTO_IPV6, unix.IPV6_MTU_DISCOVER, unix.IPV6_PMTUDISC_PROBE)
	}); err != nil {
		return false
	}
	return err4 == nil || err6 == nil
}

// IsMessageTooLong reports whether a send failed because the datagram
// is larger than the interface's MTU (with the don't-fragment bit set).
func IsMessageTooLong(err error) bool { return errors.Is(err, unix.EMSGSIZE) }
