//go:build !linux

package rdt

import "net"

// gsoSupported: UDP GSO is Linux-only.
func gsoSupported(*net.UDPConn) bool { return false }

// enableGRO: UDP GRO is Linux-only.
func enableGRO(*net.UDPConn) bool { return false }

// appendSegmentSize is never called without GSO.
func appendSegmentSize(b []byte, _ int) []byte { return b }

// groSegmentSize: no GRO, every message is one datagram.
func groSegmentSize([]byte) int { return 0 }

// gsoRefused: no GSO to refuse.
func gsoRefused(error) bool { return false }

// batchRefused: the portable WriteBatch sends one message per call and
// is never refused as such.
func batchRefused(error) bool { return false }

// setDontFragment: not offered here, so the server does not probe for
// larger datagrams (they could be fragmented silently).
func setDontFragment(*net.UDPConn) bool { return false }

// IsMessageTooLong reports whether a send failed because the datagram
// is larger than the interface's MTU; never without setDontFragment.
func IsMessageTooLong(error) bool { return false }
