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
