package npltserver

import (
	"context"
	"crypto/tls"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/authlimit"
	"opsassist/internal/testkit"
	"opsassist/nplt"
)

// tlsListener is a TLS listener on 127.0.0.1:0 with a fresh self-signed
// certificate.
func tlsListener(t *testing.T) net.Listener {
	t.Helper()
	cert, err := tls.X509KeyPair(testkit.SelfSigned(t))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}})
}

// TestRefusalOverTLSIsBounded: a client refused on a TLS listener that
// never sends its ClientHello is closed once the refusal's deadline
// (the shorter of hello_timeout and write_timeout) passes, both ways:
// the refusal's write runs the handshake, which reads.
func TestRefusalOverTLSIsBounded(t *testing.T) {
	ts := startServerOn(t, "", tlsListener(t), func(c *Config, _ *chat.Config) {
		c.MaxClients = 1
		c.HelloTimeout = 50 * time.Millisecond
	})
	dialFrom(t, "127.0.0.1", ts.addr) // silent, takes the only place
	waitFor(t, "the first connection", func() bool { return ts.ConnCount() == 1 })
	refused := dialFrom(t, "127.0.0.1", ts.addr) // silent too
	if fs := refused.expectClosed(); len(fs) != 0 {
		t.Fatalf("frames in clear on a TLS connection: %v", fs)
	}
}

// TestShutdownClosesRefusedTLSConns: Shutdown closes connections still
// being refused (a silent client on a TLS listener) and returns.
func TestShutdownClosesRefusedTLSConns(t *testing.T) {
	// 127.0.0.1 is throttled for wrong tokens, so its connection is
	// refused as soon as it is accepted.
	limiter := authlimit.New(1, time.Hour)
	limiter.Fail(netip.MustParseAddr("127.0.0.1"), time.Now())
	ts := startServerOn(t, "", tlsListener(t), withToken, func(c *Config, _ *chat.Config) {
		c.Limiter = limiter
		c.HelloTimeout, c.WriteTimeout = time.Hour, time.Hour
	})
	refused := dialFrom(t, "127.0.0.1", ts.addr)
	waitFor(t, "one being refused", func() bool { return len(ts.refusing) == 1 })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with a refusal in progress: %v", err)
	}
	refused.expectClosed()
}

// TestIdleSocketsFromManyAddressesCannotLockOut: eight addresses each
// holding their per-address cap of silent sockets fill the whole pool of
// connections waiting to authenticate; a token holder from a ninth
// address still gets in, taking the place of the oldest idle socket of
// the largest group, which is told server_busy.
func TestIdleSocketsFromManyAddressesCannotLockOut(t *testing.T) {
	ts := startServer(t, "", withToken, func(c *Config, _ *chat.Config) { c.HelloTimeout = time.Hour })
	var idle []*client
	for i := 2; i <= 9; i++ {
		for range 8 {
			idle = append(idle, dialFrom(t, "127.0.0."+string(rune('0'+i)), ts.addr))
		}
	}
	waitFor(t, "64 waiting", func() bool { return ts.ConnCount() == 64 })
	holder := dialFrom(t, "127.0.0.10", ts.addr)
	if fs := holder.helloWith(goodToken); fs[0].Type != nplt.Hello {
		t.Fatalf("token holder locked out: %v", fs)
	}
	holder.reply() // greeting
	if got := replyText(holder.chat("hi")); !strings.Contains(got, "hi") {
		t.Fatal(got)
	}
	checkRefusal(t, idle[0].expectClosed(), api.CodeServerBusy)
	ts.mu.Lock()
	waiting, chatting := ts.waiting.total, ts.chatting
	ts.mu.Unlock()
	if waiting != 63 || chatting != 1 {
		t.Fatalf("counted %d waiting, %d chatting", waiting, chatting)
	}
}
