package npltserver

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/authlimit"
	"opsassist/nplt"
	"opsassist/storage/tokens"
)

const goodToken = "correct-horse-battery-staple"

func withToken(c *Config, _ *chat.Config) { c.AuthToken = goodToken }

// dialFrom connects to addr from the local IP from (another loopback
// address stands for another machine).
func dialFrom(t *testing.T, from, addr string) *client {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return &client{t: t, nc: nc, r: nplt.NewReader(nc), w: nplt.NewWriter(nc)}
}

// helloWith sends HELLO with token and returns the frames up to close or
// the HELLO reply.
func (c *client) helloWith(token string) []nplt.Frame {
	c.t.Helper()
	c.sendJSON(nplt.Hello, nplt.HelloPayload{Client: "t", ClientType: "cli", Token: token})
	f, err := c.tryRead()
	if err != nil {
		c.t.Fatal(err)
	}
	if f.Type == nplt.Hello {
		return []nplt.Frame{f}
	}
	return append([]nplt.Frame{f}, c.expectClosed()...)
}

// TestWrongHelloTokensAreThrottled: after authlimit.MaxFailures wrong
// tokens from one address, that address is refused with
// too_many_attempts, even with the right token, at HELLO and at once on
// connect; another address is still served.
func TestWrongHelloTokensAreThrottled(t *testing.T) {
	ts := startServer(t, "", withToken)
	// A HELLO without a token (a client that forgot --token) is refused
	// but is no guess, whatever the count: as an HTTP request without
	// credentials.
	for range 2 * authlimit.MaxFailures {
		fs := dialFrom(t, "127.0.0.1", ts.addr).helloWith("")
		if code := errorCode(t, fs); code != api.CodeUnauthorized {
			t.Fatalf("no token: %s", code)
		}
	}
	for i := range authlimit.MaxFailures {
		fs := dialFrom(t, "127.0.0.1", ts.addr).helloWith("guess")
		if code := errorCode(t, fs); code != api.CodeUnauthorized {
			t.Fatalf("guess %d: %s", i, code)
		}
	}
	c := dialFrom(t, "127.0.0.1", ts.addr)
	checkRefusal(t, c.expectClosed(), api.CodeTooManyAttempts)
	other := dialFrom(t, "127.0.0.2", ts.addr)
	if fs := other.helloWith(goodToken); fs[0].Type != nplt.Hello {
		t.Fatalf("another address refused: %v", fs)
	}
}

// TestThrottledAtHelloWithRightToken: a connection opened before its
// address went over the limit is refused at HELLO, right token or not.
func TestThrottledAtHelloWithRightToken(t *testing.T) {
	lim := authlimit.New(0, 0)
	ts := startServer(t, "", withToken, func(c *Config, _ *chat.Config) { c.Limiter = lim })
	early := dialFrom(t, "127.0.0.1", ts.addr)
	waitFor(t, "connection accepted", func() bool { return ts.ConnCount() == 1 })
	for range authlimit.MaxFailures {
		lim.Fail(authlimit.AddrOf(early.nc.LocalAddr().String()), timeNow())
	}
	checkRefusal(t, early.helloWith(goodToken), api.CodeTooManyAttempts)
}

// TestIdleUnauthenticatedCannotLockOut: idle sockets that never send
// HELLO do not take the token holder's place: they are counted apart
// from max_clients and capped per address.
func TestIdleUnauthenticatedCannotLockOut(t *testing.T) {
	ts := startServer(t, "", withToken, func(c *Config, _ *chat.Config) {
		c.MaxClients = 4
		c.MaxUnauthenticatedPerAddr = 8
	})
	var idle []*client
	for range 200 {
		idle = append(idle, dialFrom(t, "127.0.0.1", ts.addr))
	}
	// Each newcomer over the per-address cap evicts the connection of
	// that address that has waited longest: the last eight wait for their
	// HELLO, the others are told why and closed.
	for i, c := range idle[:192] {
		if code := errorCode(t, c.expectClosed()); code != api.CodeServerBusy {
			t.Fatalf("idle socket %d: closed with %q, want %s", i, code, api.CodeServerBusy)
		}
	}
	waitFor(t, "eight waiting", func() bool { return ts.ConnCount() == 8 })

	// The token holder shares the idle sockets' address, and still gets
	// in: the oldest of the eight makes room.
	holder := dialFrom(t, "127.0.0.1", ts.addr)
	if fs := holder.helloWith(goodToken); fs[0].Type != nplt.Hello {
		t.Fatalf("token holder locked out: %v", fs)
	}
	holder.reply() // greeting
	if got := replyText(holder.chat("hi")); !strings.Contains(got, "hi") {
		t.Fatal(got)
	}
}

// TestAuthenticatedStillBoundedByMaxClients: max_clients still bounds
// the connections that authenticated.
func TestAuthenticatedStillBoundedByMaxClients(t *testing.T) {
	ts := startServer(t, "", withToken, func(c *Config, _ *chat.Config) { c.MaxClients = 1 })
	first := dialFrom(t, "127.0.0.1", ts.addr)
	if fs := first.helloWith(goodToken); fs[0].Type != nplt.Hello {
		t.Fatal(fs)
	}
	second := dialFrom(t, "127.0.0.1", ts.addr)
	checkRefusal(t, second.helloWith(goodToken), api.CodeServerBusy)
}

func timeNow() time.Time { return time.Now() }

// TestTokenClientSeesOnlyItsConversations: with a token, an NPLT client
// cannot resume, switch to, list or download from a conversation another
// principal (here the local operator) owns; it sees its own.
func TestTokenClientSeesOnlyItsConversations(t *testing.T) {
	store := tokens.NewStore(0)
	ts := startServer(t, "", withToken, func(c *Config, _ *chat.Config) { c.Tokens = store })
	other := ts.svc.NewSession("cli", chat.Local())
	if err := other.Chat(context.Background(), "the operator's", func(chat.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "f.txt")
	os.WriteFile(path, []byte("secret"), 0o600)
	tok, _ := store.Issue(tokens.Token{Path: path, Filename: "f.txt", Size: 6, SessionID: other.ID()}, time.Now())

	c := dialFrom(t, "127.0.0.1", ts.addr)
	c.sendJSON(nplt.Hello, nplt.HelloPayload{Client: "t", ClientType: "cli", Token: goodToken, SessionID: other.ID()})
	// The resume is refused (not_found) and the HELLO reply names a new
	// conversation.
	var hello nplt.HelloReply
	for {
		f := c.read()
		if f.Type == nplt.Error {
			if code := errorCode(t, []nplt.Frame{f}); code != api.CodeNotFound {
				t.Fatalf("resume: %s", code)
			}
		}
		if f.Type == nplt.Hello {
			json.Unmarshal(f.Payload, &hello)
			break
		}
	}
	if hello.SessionID == other.ID() {
		t.Fatal("resumed another principal's conversation")
	}
	c.reply() // greeting
	c.sendJSON(nplt.SessionSwitch, map[string]string{"session_id": other.ID()[:8]})
	if code := errorCode(t, c.reply()); code != api.CodeNotFound {
		t.Fatalf("switch: %q", code)
	}
	c.send(nplt.SessionList, nil)
	if fs := c.reply(); strings.Contains(replyText(fs), other.ID()[:8]) {
		t.Fatalf("listed: %s", replyText(fs))
	}
	c.sendJSON(nplt.FileRequest, nplt.FileRequestPayload{DownloadToken: tok.ID})
	if code := errorCode(t, c.reply()); code != api.CodeTokenUnknown {
		t.Fatalf("download: %q", code)
	}
}
