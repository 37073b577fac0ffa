package web

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"opsassist/chat"
	"opsassist/internal/testkit"
)

// rawRequest sends head (request line and headers, no body or only part
// of it) on a new connection from local (nil: any) and returns the
// response; the client waits at most 10 s for it.
func rawRequest(t *testing.T, e *testEnv, local net.Addr, head string) (net.Conn, *bufio.Reader, *http.Response) {
	t.Helper()
	d := net.Dialer{LocalAddr: local}
	c, err := d.Dial("tcp", e.ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(time.Minute))
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no response: %v", err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return c, br, res
}

// wantClosed checks that the server closed c: reading it ends at once
// (EOF or a reset) rather than after the client's 10 s deadline.
func wantClosed(t *testing.T, br *bufio.Reader) {
	t.Helper()
	_, err := br.ReadByte()
	var ne net.Error
	if err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("connection still open: %v", err)
	}
}

func shortStall(c *Config, _ *chat.Config) { c.StallTimeout = 50 * time.Millisecond }

// TestRefusalWithUnreadBody: a request answered before its body is read
// (401, 405, a static file) is answered at once and its connection
// closed, even though the client declared a body and sends
// none; the login form's body has the stall timeout of every other body.
func TestRefusalWithUnreadBody(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, public, shortStall)
	for _, tc := range []struct {
		head   string
		status int
	}{
		{"POST /api/chat HTTP/1.1\r\nHost: x\r\nContent-Length: 200000\r\n\r\n", http.StatusUnauthorized},
		{"POST /api/chat HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\nContent-Length: 1000\r\n\r\n", http.StatusUnauthorized},
		{"PUT /api/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret-token\r\nContent-Length: 1000\r\n\r\n", http.StatusMethodNotAllowed},
		{"GET /static/style.css HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n", http.StatusOK}, // open to all
		{"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ntoken=s3", http.StatusBadRequest},
	} {
		_, br, res := rawRequest(t, e, nil, tc.head)
		if res.StatusCode != tc.status {
			t.Errorf("%q: status %d, want %d", tc.head, res.StatusCode, tc.status)
		}
		wantClosed(t, br)
	}
	// An honest client is still served on a connection it keeps.
	if res, _ := e.do(t, "GET", "/api/health", nil, "Authorization", "Bearer s3cret-token"); res.StatusCode != 200 {
		t.Fatalf("health %d", res.StatusCode)
	}
}

// TestConnectionCaps: a connection over a cap takes the place of one
// that does nothing (silent, or idle between requests), so silent
// sockets cannot lock a client out, even from its own address; only when
// every connection is busy with a request is the newcomer closed
// unanswered.
func TestConnectionCaps(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, public, func(c *Config, _ *chat.Config) { c.MaxConnsPerAddr, c.MaxConns = 2, 3 })
	lim := e.srv.conns
	// until polls the limiter's books: connections open in all, and open
	// and busy from one address.
	type books struct {
		open       int
		from, busy map[string]int
	}
	until := func(what string, cond func(b books) bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			lim.mu.Lock()
			b := books{open: len(lim.open), from: map[string]int{}, busy: map[string]int{}}
			for _, c := range lim.open {
				ip := c.key.Addr().String()
				b.from[ip]++
				if c.busy {
					b.busy[ip]++
				}
			}
			lim.mu.Unlock()
			if cond(b) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	from := func(ip string) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip)} }
	dial := func(ip string) net.Conn {
		t.Helper()
		d := net.Dialer{LocalAddr: from(ip)}
		c, err := d.Dial("tcp", e.ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(time.Minute))
		return c
	}
	health := "GET /api/health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret-token\r\n\r\n"

	// Two silent sockets fill 127.0.0.1's cap; a client from that same
	// address is served, and the older silent socket is closed for it.
	s1 := dial("127.0.0.1")
	until("one open", func(b books) bool { return b.open == 1 })
	dial("127.0.0.1")
	until("two open", func(b books) bool { return b.open == 2 })
	if _, _, res := rawRequest(t, e, from("127.0.0.1"), health); res.StatusCode != 200 {
		t.Fatalf("client beside silent sockets: %d", res.StatusCode)
	}
	wantClosed(t, bufio.NewReader(s1))
	until("the client idle", func(b books) bool { return b.from["127.0.0.1"] == 2 && b.busy["127.0.0.1"] == 0 })

	// Two connections from 127.0.0.2 busy with an upload whose body
	// stalls: the second fills the total and evicts the other silent
	// socket of 127.0.0.1.
	upload := "POST /api/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret-token\r\n" +
		"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n--b\r\n"
	for range 2 {
		io.WriteString(dial("127.0.0.2"), upload)
	}
	until("two busy", func(b books) bool { return b.open == 3 && b.busy["127.0.0.2"] == 2 })

	refused := func(ip string) {
		t.Helper()
		c := dial(ip)
		io.WriteString(c, health)
		b, err := io.ReadAll(c)
		var ne net.Error
		if len(b) > 0 || errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("%s: connection served: %q %v", ip, b, err)
		}
	}
	// 127.0.0.2 is at its cap and both are busy: nothing can go.
	refused("127.0.0.2")
	// A third address, with the total reached: the client kept idle by
	// 127.0.0.1 goes.
	if _, _, res := rawRequest(t, e, from("127.0.0.3"), health); res.StatusCode != 200 {
		t.Fatalf("third address: %d", res.StatusCode)
	}
	// A request still sending its header is not busy: it goes too.
	until("the third address idle", func(b books) bool { return b.from["127.0.0.3"] == 1 && b.busy["127.0.0.3"] == 0 })
	io.WriteString(dial("127.0.0.4"), "GET /api/health HTTP/1.1\r\n")
	until("the slow header counted", func(b books) bool { return b.open == 3 && b.from["127.0.0.4"] == 1 })
	if _, _, res := rawRequest(t, e, from("127.0.0.5"), health); res.StatusCode != 200 {
		t.Fatalf("beside a slow header: %d", res.StatusCode)
	}
}
