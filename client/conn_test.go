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

	"opsassist/api"
	"opsassist/internal/npltfake"
	"opsassist/nplt"
)

func TestDialHandshake(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		script func(fc *npltfake.Conn) nplt.HelloPayload
	}{
		{
			name: "greeting before hello reply",
			script: func(fc *npltfake.Conn) nplt.HelloPayload {
				return fc.Handshake()
			},
		},
		{
			name: "token: hello reply then greeting",
			opts: Options{Token: "s3cret", SessionID: npltfake.Session[:9]}, // a prefix resumes
			script: func(fc *npltfake.Conn) nplt.HelloPayload {
				var h nplt.HelloPayload
				fc.ExpectJSON(nplt.Hello, &h)
				fc.HelloReply(npltfake.Session)
				fc.Greet()
				return h
			},
		},
		{
			name: "greeting in chunks around hello reply, ping and heartbeat",
			script: func(fc *npltfake.Conn) nplt.HelloPayload {
				var h nplt.HelloPayload
				fc.ExpectJSON(nplt.Hello, &h)
				fc.Text("欢迎使用 ")
				fc.Send(nplt.Ping, []byte("hs"))
				if f := fc.Expect(nplt.Pong); string(f.Payload) != "hs" {
					fc.Fail("pong payload %q", f.Payload)
				}
				fc.HelloReply(npltfake.Session)
				fc.Text(nplt.HeartbeatText)
				fc.Expect(nplt.Pong)
				fc.Text("opsassist！")
				fc.End()
				return h
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hellos := make(chan nplt.HelloPayload, 1)
			s := npltfake.New(t, func(fc *npltfake.Conn) {
				hellos <- tt.script(fc)
				fc.ReadUntilEOF()
			})
			c := dial(t, s, tt.opts)
			if c.Greeting() != npltfake.Greeting {
				t.Errorf("Greeting = %q, want %q", c.Greeting(), npltfake.Greeting)
			}
			if h := c.Hello(); h.SessionID != npltfake.Session || h.Model != npltfake.Model || h.MaxUpload != 100<<20 {
				t.Errorf("Hello = %+v", h)
			}
			if c.SessionID() != npltfake.Session {
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
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Expect(nplt.Hello)
		fc.Error(api.CodeUnauthorized, "bad token")
	})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := Dial(ctx, s.Addr, Options{Token: "wrong"})
	var se *ServerError
	if !errors.As(err, &se) || se.Code != api.CodeUnauthorized || se.Message != "bad token" {
		t.Fatalf("err = %v, want unauthorized ServerError", err)
	}
}

func TestDialHandshakeTimeout(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Expect(nplt.Hello)
		fc.ReadUntilEOF() // never answers
	})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := Dial(ctx, s.Addr, Options{HandshakeTimeout: 20 * time.Millisecond})
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
}

func TestDialCancelled(t *testing.T) {
	gotHello := make(chan struct{})
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Expect(nplt.Hello)
		close(gotHello)
		fc.ReadUntilEOF() // never answers
	})
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-gotHello
		cancel() // the handshake is blocked reading: it must give up
	}()
	_, err := Dial(ctx, s.Addr, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestPingAnsweredDuringRequest(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", npltfake.Session)
		// The reply is not finished: the client must answer PING now.
		fc.Send(nplt.Ping, []byte("p-42"))
		if f := fc.Expect(nplt.Pong); string(f.Payload) != "p-42" {
			fc.Fail("pong payload %q, want p-42", f.Payload)
		}
		fc.Text(nplt.HeartbeatText) // published heartbeat mid-reply: answered, not shown
		fc.Expect(nplt.Pong)
		fc.Text("pong seen")
		fc.End()
		fc.ReadUntilEOF()
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
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", npltfake.Session)
		fc.Text("partial")
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
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.ChatText)
		fc.Status(api.StatusStreamStart, "", npltfake.Session)
		fc.ReadUntilEOF()
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
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		fc.Expect(nplt.SessionList)
		fc.Result(KindSessionList, SessionList{Current: npltfake.Session})
		fc.Text("1 session")
		fc.End()
		fc.SendJSON(nplt.DownloadOffer, api.Offer{Filename: "report.txt", FileSize: 10, DownloadToken: "tok", TransportMode: "rdt"})
		fc.Error(api.CodeShuttingDown, "bye")
		fc.End()
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
	if ev.Type != EventError || ev.Error.Code != api.CodeShuttingDown {
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
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Handshake()
		if f := fc.Expect(nplt.ChatText); string(f.Payload) != "first" {
			fc.Fail("got %q", f.Payload)
		}
		fc.Status(api.StatusStreamStart, "", npltfake.Session)
		if f := fc.Expect(nplt.ChatText); string(f.Payload) != "second" {
			fc.Fail("got %q", f.Payload)
		}
		fc.Text("stale answer")
		fc.End()
		fc.Status(api.StatusStreamStart, "", npltfake.Session)
		fc.Text("fresh answer")
		fc.End()
		fc.ReadUntilEOF()
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
		script      func(fc *npltfake.Conn)
		closes      bool // the script closes the connection after the error
		serverError bool // the error wraps the server's not_found
	}{
		{
			name: "greeting, error reply, hello reply (no token)",
			script: func(fc *npltfake.Conn) {
				fc.ResumeRefused(started)
			},
			serverError: true,
		},
		{
			name: "error reply, hello reply, greeting (token)",
			script: func(fc *npltfake.Conn) {
				fc.Expect(nplt.Hello)
				fc.Error(api.CodeNotFound, "conversation not found")
				fc.End()
				fc.HelloReply(started)
				fc.Greet()
			},
			serverError: true,
		},
		{
			name: "server closes after the error",
			script: func(fc *npltfake.Conn) {
				fc.Greet()
				fc.Expect(nplt.Hello)
				fc.Error(api.CodeNotFound, "conversation not found")
			},
			closes:      true,
			serverError: true,
		},
		{
			name: "hello reply names another conversation",
			script: func(fc *npltfake.Conn) {
				fc.Greet()
				fc.Expect(nplt.Hello)
				fc.HelloReply(started)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := npltfake.New(t, func(fc *npltfake.Conn) {
				tt.script(fc)
				if !tt.closes {
					fc.ExpectClose() // nothing is sent on the connection
				}
			})
			ctx, cancel := testContext(t)
			defer cancel()
			c, err := Dial(ctx, s.Addr, Options{SessionID: asked})
			if err == nil {
				c.Close()
				t.Fatal("Dial succeeded on a session the server does not know")
			}
			if !errors.Is(err, ErrUnknownSession) || !strings.Contains(err.Error(), asked) {
				t.Errorf("err = %v, want ErrUnknownSession naming %s", err, asked)
			}
			if got := errors.Is(err, &ServerError{Code: api.CodeNotFound}); got != tt.serverError {
				t.Errorf("err = %v: wraps not_found = %v, want %v", err, got, tt.serverError)
			}
		})
	}
}

// TestDialNotFoundWithoutResume checks that not_found only means an
// unknown session when HELLO asked to resume one.
func TestDialNotFoundWithoutResume(t *testing.T) {
	s := npltfake.New(t, func(fc *npltfake.Conn) {
		fc.Expect(nplt.Hello)
		fc.Error(api.CodeNotFound, "odd")
		fc.ExpectClose()
	})
	ctx, cancel := testContext(t)
	defer cancel()
	_, err := Dial(ctx, s.Addr, Options{})
	if errors.Is(err, ErrUnknownSession) || !errors.Is(err, &ServerError{Code: api.CodeNotFound}) {
		t.Fatalf("err = %v, want a plain not_found ServerError", err)
	}
}
