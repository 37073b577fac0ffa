package rdtserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"time"
)

// Address validation cookies: 8 bytes of issue time (Unix nanoseconds)
// and the first 16 bytes of an HMAC-SHA256 over the time, the connection
// id and the client address, keyed with a per-server secret.
const (
	cookieLen      = 24
	cookieLifetime = 30 * time.Second
)

// cookieJar makes and checks cookies. It is immutable after creation.
type cookieJar struct {
	secret [32]byte
}

func (j *cookieJar) mac(ts uint64, connID uint64, addr string) []byte {
	m := hmac.New(sha256.New, j.secret[:])
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], ts)
	binary.BigEndian.PutUint64(b[8:], connID)
	m.Write(b[:])
	m.Write([]byte(addr))
	return m.Sum(nil)[:cookieLen-8]
}

// make returns a cookie for connID from addr, issued at now.
func (j *cookieJar) make(connID uint64, addr string, now time.Time) []byte {
	ts := uint64(now.UnixNano())
	c := binary.BigEndian.AppendUint64(make([]byte, 0, cookieLen), ts)
	return append(c, j.mac(ts, connID, addr)...)
}

// check reports whether c is a live cookie for connID from addr, and when
// it was issued (the handshake's round-trip time follows from it).
func (j *cookieJar) check(c []byte, connID uint64, addr string, now time.Time) (time.Time, bool) {
	if len(c) != cookieLen {
		return time.Time{}, false
	}
	ts := binary.BigEndian.Uint64(c)
	issued := time.Unix(0, int64(ts))
	if now.Sub(issued) > cookieLifetime || issued.After(now.Add(time.Second)) {
		return time.Time{}, false
	}
	return issued, hmac.Equal(c[8:], j.mac(ts, connID, addr))
}
