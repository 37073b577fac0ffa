package client

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"opsassist/nplt"
)

func TestDialHandshake(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		script func(fc *fakeConn) nplt.HelloPayload
	}{
		{
			name: "greeting before hello reply",
			script: func(fc *fakeConn) nplt.HelloPayload {
				return fc.handshake()
			},
		},
		{
			name: "token: hello reply then greeting",
			opts: Options{Token: "s3cret", SessionID: fakeSession[:9]}, // a prefix resumes
			script: func(fc *fakeConn) nplt.HelloPayload {
				var h nplt.HelloPayload
				fc.expectJSON(nplt.Hello, &h)
				fc.helloReply(fakeSession)
				fc.greet()
				return h
			},
		},
		{
			name: "greeting in chunks around hello reply, ping and heartbeat",
			script: func(fc *fakeConn) nplt.HelloPayload {
				var h nplt.HelloPayload
				fc.expectJSON(nplt.Hello, &h)
				fc.text("欢迎使用 ")
				fc.send(nplt.Ping, []byte("hs"))
				if f := fc.expect(nplt.Pong); string(f.Payload) != "hs" {
					fc.fail("pong payload %q", f.Payload)
				}
				fc.helloReply(fakeSession)
				fc.text(nplt.HeartbeatText)
				fc.expect(nplt.Pong)
				fc.text("opsassist！")
				fc.end()
				return h
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hellos := make(chan nplt.HelloPayload, 1)
			s := newFakeServer(t, func(fc *fakeConn) {
				hellos <- tt.script(fc)
				fc.readUntilEOF()
			})
			c := dial(t, s, tt.opts)
			if c.Greeting() != fakeGreeting {
				t.Errorf("Greeting = %q, want %q", c.Greeting(), fakeGreeting)
			}
			if h := c.Hello(); h.SessionID != fakeSession || h.Model != fakeModel || h.MaxUpload != 100<<20 {
				t.Errorf("Hello = %+v", h)
			}
			if c.SessionID() != fakeSession {
				t.Errorf("SessionID = %q", c.SessionID())
			}
			h := <-hellos
			want := nplt.HelloPayload{Client: "opsassist", Version: Version, ClientType: "cli", Token: tt.opts.Token, SessionID: tt.opts.SessionID}
			if h != want {
				t.Errorf("HELLO = %+v, want %+v", h, want)
			}
		})
	}
}

func TestDialUnauthorized(t *testing.T) {
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.expect(nplt.Hello)
		fc.error(nplt.CodeUnauthorized, "bad token")
	})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := Dial(ctx, s.addr, Options{Token: "wrong"})
	var se *ServerError
	if !errors.As(err, &se) || se.Code != nplt.CodeUnauthorized || se.Message != "bad token" {
		t.Fatalf("err = %v, want unauthorized ServerError", err)
	}
}

func TestDialHandshakeTimeout(t *testing.T) {
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.expect(nplt.Hello)
		fc.readUntilEOF() // never answers
	})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := Dial(ctx, s.addr, Options{HandshakeTimeout: 20 * time.Millisecond})
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
}

func TestDialCancelled(t *testing.T) {
	gotHello := make(chan struct{})
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.expect(nplt.Hello)
		close(gotHello)
		fc.readUntilEOF() // never answers
	})
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-gotHello
		cancel() // the handshake is blocked reading: it must give up
	}()
	_, err := Dial(ctx, s.addr, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestPingAnsweredDuringRequest(t *testing.T) {
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		fc.expect(nplt.ChatText)
		fc.status(nplt.StatusStreamStart, "", fakeSession)
		// The reply is not finished: the client must answer PING now.
		fc.send(nplt.Ping, []byte("p-42"))
		if f := fc.expect(nplt.Pong); string(f.Payload) != "p-42" {
			fc.fail("pong payload %q, want p-42", f.Payload)
		}
		fc.text(nplt.HeartbeatText) // published heartbeat mid-reply: answered, not shown
		fc.expect(nplt.Pong)
		fc.text("pong seen")
		fc.end()
		fc.readUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	var text string
	err := c.Chat(ctx, "hi", func(ev Event) {
		if ev.Type == EventDelta {
			text += ev.Text
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if text != "pong seen" {
		t.Fatalf("text = %q", text)
	}
}

func TestConnectionDropMidRequest(t *testing.T) {
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		fc.expect(nplt.ChatText)
		fc.status(nplt.StatusStreamStart, "", fakeSession)
		fc.text("partial")
		// returning closes the connection mid-reply
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	var events []EventType
	err := c.Chat(ctx, "hi", func(ev Event) { events = append(events, ev.Type) })
	if !errors.Is(err, ErrConnectionLost) || !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v, want ErrConnectionLost wrapping io.EOF", err)
	}
	if ctx.Err() != nil {
		t.Fatal("Chat returned only when the test context expired")
	}
	if len(events) != 2 || events[0] != EventStreamStart || events[1] != EventDelta {
		t.Errorf("events = %v, want frames received before the drop", events)
	}
	<-c.Done()
	if !errors.Is(c.Err(), ErrConnectionLost) {
		t.Errorf("Err = %v", c.Err())
	}
	if _, err := c.Sessions(ctx); !errors.Is(err, ErrConnectionLost) {
		t.Errorf("request after drop: err = %v", err)
	}
}

func TestCloseFailsRequestInFlight(t *testing.T) {
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		fc.expect(nplt.ChatText)
		fc.status(nplt.StatusStreamStart, "", fakeSession)
		fc.readUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	err := c.Chat(ctx, "hi", func(ev Event) {
		if ev.Type == EventStreamStart {
			go c.Close()
		}
	})
	if !errors.Is(err, net.ErrClosed) {
		t.Fatalf("err = %v, want net.ErrClosed", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

func TestUnsolicitedEvents(t *testing.T) {
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		fc.expect(nplt.SessionList)
		fc.result(KindSessionList, SessionList{Current: fakeSession})
		fc.text("1 session")
		fc.end()
		fc.sendJSON(nplt.DownloadOffer, nplt.DownloadOfferPayload{Filename: "report.txt", FileSize: 10, DownloadToken: "tok", TransportMode: "rdt"})
		fc.error(nplt.CodeShuttingDown, "bye")
		fc.end()
	})
	got := make(chan Event, 4)
	c := dial(t, s, Options{OnUnsolicited: func(ev Event) { got <- ev }})
	ctx, cancel := testContext(t)
	defer cancel()
	if _, err := c.Sessions(ctx); err != nil {
		t.Fatal(err)
	}
	ev := <-got
	if ev.Type != EventDownloadOffer || ev.Offer.DownloadToken != "tok" {
		t.Errorf("first unsolicited = %+v", ev)
	}
	ev = <-got
	if ev.Type != EventError || ev.Error.Code != nplt.CodeShuttingDown {
		t.Errorf("second unsolicited = %+v", ev)
	}
	<-c.Done()
	if len(got) != 0 {
		t.Errorf("unexpected extra event %+v", <-got)
	}
}

// TestCancelledRequestDropsRestOfReply checks that the tail of an
// abandoned reply is not mistaken for the next request's reply.
func TestCancelledRequestDropsRestOfReply(t *testing.T) {
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.handshake()
		if f := fc.expect(nplt.ChatText); string(f.Payload) != "first" {
			fc.fail("got %q", f.Payload)
		}
		fc.status(nplt.StatusStreamStart, "", fakeSession)
		if f := fc.expect(nplt.ChatText); string(f.Payload) != "second" {
			fc.fail("got %q", f.Payload)
		}
		fc.text("stale answer")
		fc.end()
		fc.status(nplt.StatusStreamStart, "", fakeSession)
		fc.text("fresh answer")
		fc.end()
		fc.readUntilEOF()
	})
	c := dial(t, s, Options{})
	ctx, cancel := testContext(t)
	defer cancel()
	first, cancelFirst := context.WithCancel(ctx)
	err := c.Chat(first, "first", func(ev Event) {
		if ev.Type == EventStreamStart {
			cancelFirst()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first err = %v, want context.Canceled", err)
	}
	var text string
	if err := c.Chat(ctx, "second", func(ev Event) { text += ev.Text }); err != nil {
		t.Fatal(err)
	}
	if text != "fresh answer" {
		t.Fatalf("second reply text = %q, want only the fresh answer", text)
	}
}

func TestDialUnknownSession(t *testing.T) {
	const asked, started = "sess-gone-0000", "sess-new-1111"
	tests := []struct {
		name        string
		script      func(fc *fakeConn)
		closes      bool // the script closes the connection after the error
		serverError bool // the error wraps the server's not_found
	}{
		{
			name: "greeting, error reply, hello reply (no token)",
			script: func(fc *fakeConn) {
				fc.resumeRefused(started)
			},
			serverError: true,
		},
		{
			name: "error reply, hello reply, greeting (token)",
			script: func(fc *fakeConn) {
				fc.expect(nplt.Hello)
				fc.error(nplt.CodeNotFound, "conversation not found")
				fc.end()
				fc.helloReply(started)
				fc.greet()
			},
			serverError: true,
		},
		{
			name: "server closes after the error",
			script: func(fc *fakeConn) {
				fc.greet()
				fc.expect(nplt.Hello)
				fc.error(nplt.CodeNotFound, "conversation not found")
			},
			closes:      true,
			serverError: true,
		},
		{
			name: "hello reply names another conversation",
			script: func(fc *fakeConn) {
				fc.greet()
				fc.expect(nplt.Hello)
				fc.helloReply(started)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newFakeServer(t, func(fc *fakeConn) {
				tt.script(fc)
				if !tt.closes {
					fc.expectClose() // nothing is sent on the connection
				}
			})
			ctx, cancel := testContext(t)
			defer cancel()
			c, err := Dial(ctx, s.addr, Options{SessionID: asked})
			if err == nil {
				c.Close()
				t.Fatal("Dial succeeded on a session the server does not know")
			}
			if !errors.Is(err, ErrUnknownSession) || !strings.Contains(err.Error(), asked) {
				t.Errorf("err = %v, want ErrUnknownSession naming %s", err, asked)
			}
			if got := errors.Is(err, &ServerError{Code: nplt.CodeNotFound}); got != tt.serverError {
				t.Errorf("err = %v: wraps not_found = %v, want %v", err, got, tt.serverError)
			}
		})
	}
}

// TestDialNotFoundWithoutResume checks that not_found only means an
// unknown session when HELLO asked to resume one.
func TestDialNotFoundWithoutResume(t *testing.T) {
	s := newFakeServer(t, func(fc *fakeConn) {
		fc.expect(nplt.Hello)
		fc.error(nplt.CodeNotFound, "odd")
		fc.expectClose()
	})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := Dial(ctx, s.addr, Options{})
	if errors.Is(err, ErrUnknownSession) || !errors.Is(err, &ServerError{Code: nplt.CodeNotFound}) {
		t.Fatalf("err = %v, want a plain not_found ServerError", err)
	}
}
