package rdt

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"opsassist/internal/partfile"
)

// fetchEnv is a fetch on a fake clock whose packets are collected.
type fetchEnv struct {
	t    *testing.T
	clk  *fakeClock
	f    *fetch
	cfg  *ClientConfig
	sent []Packet
	caps []Packet // CAPS sent, which take leaves out
}

func newFetchEnv(t *testing.T, cfg ClientConfig) *fetchEnv {
	t.Helper()
	cfg.Addr, cfg.Token = "127.0.0.1:9", "tok"
	if cfg.Path == "" {
		cfg.Path = filepath.Join(t.TempDir(), "out")
	}
	if err := cfg.populate(); err != nil {
		t.Fatal(err)
	}
	part, err := partfile.Open(cfg.Path, partfile.ID{Token: cfg.Token, SHA256: cfg.SHA256}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { part.Close() })
	e := &fetchEnv{t: t, clk: &fakeClock{t: time.Unix(1000, 0)}, cfg: &cfg}
	e.f = newFetch(e.cfg, 7, part, func(p *Packet) error {
		b, err := p.Append(nil)
		if err != nil {
			t.Fatal(err)
		}
		q, err := Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		if q.Type == TypeCaps {
			e.caps = append(e.caps, q)
			return nil
		}
		e.sent = append(e.sent, q)
		return nil
	}, e.clk.now())
	return e
}

// take returns the packets sent since the last call, CAPS aside (they
// are in e.caps).
func (e *fetchEnv) take() []Packet {
	s := e.sent
	e.sent = nil
	return s
}

// deliver hands p, from the server, to the fetch at the current time.
func (e *fetchEnv) deliver(p Packet) bool {
	e.t.Helper()
	p.ConnID = 7
	b, err := p.Append(nil)
	if err != nil {
		e.t.Fatal(err)
	}
	done, err := e.f.handle(b, e.clk.now())
	if err != nil {
		e.t.Fatalf("handle %v: %v", p.Type, err)
	}
	return done
}

// run steps the fetch from wake-up to wake-up, as its owner loop would,
// until expired reports an error or until has passed; it returns the
// times (since the start) REQUESTs went out and the error.
func (e *fetchEnv) run(until time.Duration) ([]time.Duration, error) {
	start := e.clk.now()
	var requests []time.Duration
	for e.clk.now().Sub(start) <= until {
		if err := e.f.due(e.clk.now()); err != nil {
			e.t.Fatal(err)
		}
		for _, p := range e.take() {
			if p.Type == TypeRequest {
				requests = append(requests, e.clk.now().Sub(start))
			}
		}
		e.clk.t = e.f.wake()
		if err := e.f.expired(e.clk.now()); err != nil {
			return requests, err
		}
	}
	return requests, nil
}

// TestFetchRequestBackoff: with no answer, the REQUEST goes out at once
// and again after 25, 50, 100, 200, 400, 800 ms and then every second, until the
// first-packet timeout gives ErrNoResponse exactly when it runs out.
func TestFetchRequestBackoff(t *testing.T) {
	e := newFetchEnv(t, ClientConfig{})
	requests, err := e.run(time.Minute)
	want := []time.Duration{0, 25 * time.Millisecond, 75 * time.Millisecond, 175 * time.Millisecond, 375 * time.Millisecond,
		775 * time.Millisecond, 1575 * time.Millisecond, 2575 * time.Millisecond}
	if !errors.Is(err, ErrNoResponse) || e.clk.now().Sub(time.Unix(1000, 0)) != DefaultFirstPacketTimeout {
		t.Fatalf("%v after %v", err, e.clk.now().Sub(time.Unix(1000, 0)))
	}
	if len(requests) != len(want) {
		t.Fatalf("requests at %v, want %v", requests, want)
	}
	for i := range want {
		if requests[i] != want[i] {
			t.Fatalf("requests at %v, want %v", requests, want)
		}
	}
}

// TestFetchRetryAndIdleTimeout: a RETRY is answered at once by a REQUEST
// echoing its cookie; once the server was heard, silence ends the
// download with ErrTimeout after IdleTimeout, not before.
func TestFetchRetryAndIdleTimeout(t *testing.T) {
	e := newFetchEnv(t, ClientConfig{IdleTimeout: 5 * time.Second})
	e.f.due(e.clk.now())
	e.take()
	e.clk.advance(50 * time.Millisecond)
	heardAt := e.clk.now()
	e.deliver(Packet{Type: TypeRetry, Cookie: []byte("cookie")})
	if s := e.take(); len(s) != 1 || s[0].Type != TypeRequest || string(s[0].Cookie) != "cookie" || s[0].Token != "tok" {
		t.Fatalf("answer to RETRY: %+v", s)
	}
	_, err := e.run(time.Minute)
	if !errors.Is(err, ErrTimeout) || e.clk.now().Sub(heardAt) != 5*time.Second {
		t.Fatalf("%v after %v of silence", err, e.clk.now().Sub(heardAt))
	}
}

// TestFetchCookieRequestRepeatsAfterTwoRTT: once a RETRY measured the
// round trip (30 ms), a REQUEST with the cookie that got no answer goes
// out again after twice it, doubling from there.
func TestFetchCookieRequestRepeatsAfterTwoRTT(t *testing.T) {
	e := newFetchEnv(t, ClientConfig{})
	e.f.due(e.clk.now())
	e.take()
	e.clk.advance(30 * time.Millisecond)
	e.deliver(Packet{Type: TypeRetry, Cookie: []byte("cookie")})
	if s := e.take(); len(s) != 1 || string(s[0].Cookie) != "cookie" {
		t.Fatalf("answer to RETRY: %+v", s)
	}
	requests, _ := e.run(300 * time.Millisecond)
	want := []time.Duration{60 * time.Millisecond, 180 * time.Millisecond}
	if len(requests) < len(want) || requests[0] != want[0] || requests[1] != want[1] {
		t.Fatalf("requests at %v after the RETRY, want %v first", requests, want)
	}
}

// TestFetchAcksSavesAndFinishes: in-order DATA is acknowledged after two
// packets or the ACK delay, the record is saved after recordEvery, and
// the FIN puts the verified file in place, confirmed by three ACKs.
func TestFetchAcksSavesAndFinishes(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 300)
	e := newFetchEnv(t, ClientConfig{MaxPayload: 1000})
	e.f.due(e.clk.now())
	e.take()
	data0 := func(pn uint32, off int) Packet {
		return Packet{Type: TypeData, PN: pn, Offset: uint64(off), Size: uint64(len(data)), Payload: data[off:min(off+1000, len(data))]}
	}
	e.deliver(data0(0, 0))
	if w := e.f.wake().Sub(e.clk.now()); w != ackDelay {
		t.Fatalf("next wake-up in %v, want the ACK delay", w)
	}
	e.clk.advance(ackDelay)
	e.f.due(e.clk.now())
	if s := e.take(); len(s) != 1 || s[0].Type != TypeAck || s[0].Acks[0] != (PNRange{0, 0}) {
		t.Fatalf("delayed ACK: %+v", s)
	}
	e.deliver(data0(1, 1000))
	e.deliver(data0(2, 2000))
	e.f.due(e.clk.now())
	if s := e.take(); len(s) != 1 || s[0].Type != TypeAck || s[0].Acks[0] != (PNRange{0, 2}) || s[0].MaxOffset != 3000+uint64(DefaultWindow)*1000 {
		t.Fatalf("ACK after two packets: %+v", s)
	}
	rec := e.cfg.Path + PartSuffix + RecordSuffix
	if _, err := os.Stat(rec); err == nil {
		t.Fatal("record saved early")
	}
	e.clk.advance(recordEvery)
	e.f.due(e.clk.now())
	if _, err := os.Stat(rec); err != nil {
		t.Fatalf("record not saved after %v: %v", recordEvery, err)
	}
	if !e.deliver(Packet{Type: TypeFin, PN: 3, Size: uint64(len(data)), SHA256: sha256.Sum256(data)}) {
		t.Fatal("not done after the FIN")
	}
	// Everything is acknowledged before the verification, so the server
	// frees the transfer's slot even if the confirmation is lost.
	acks := e.take()
	if len(acks) != 1+doneAcks || acks[0].Done || acks[0].Acks[0] != (PNRange{0, 3}) || !acks[1].Done || !acks[doneAcks].Done {
		t.Fatalf("acknowledgement and confirmation: %+v", acks)
	}
	if got, err := os.ReadFile(e.cfg.Path); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("file: %v", err)
	}
	if _, err := os.Stat(rec); err == nil {
		t.Fatal("record left behind")
	}
}

// TestFetchChecksumMismatch: a FIN whose SHA-256 the bytes do not have
// fails with ErrChecksum, tells the server, and leaves nothing behind.
func TestFetchChecksumMismatch(t *testing.T) {
	data := []byte("hello")
	e := newFetchEnv(t, ClientConfig{})
	e.f.due(e.clk.now())
	e.take()
	e.deliver(Packet{Type: TypeData, PN: 0, Size: 5, Payload: data})
	b, _ := (&Packet{Type: TypeFin, ConnID: 7, PN: 1, Size: 5, SHA256: sha256.Sum256([]byte("world"))}).Append(nil)
	if _, err := e.f.handle(b, e.clk.now()); !errors.Is(err, ErrChecksum) {
		t.Fatalf("got %v", err)
	}
	if s := e.take(); len(s) != 2 || s[0].Type != TypeAck || s[0].Done || s[1].Type != TypeError || s[1].Code != CodeChecksum {
		t.Fatalf("sent %+v", s)
	}
	for _, p := range []string{e.cfg.Path, e.cfg.Path + PartSuffix, e.cfg.Path + PartSuffix + RecordSuffix} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s left behind", p)
		}
	}
}

// TestFetchSendsCaps: CAPS (the largest datagram the client takes)
// follows the REQUEST that echoes a cookie — the one that can start the
// transfer — and the first capsWithAcks ACKs, never an earlier REQUEST;
// SmallDatagrams sends none.
func TestFetchSendsCaps(t *testing.T) {
	for _, small := range []bool{false, true} {
		e := newFetchEnv(t, ClientConfig{SmallDatagrams: small})
		e.f.due(e.clk.now())
		if len(e.caps) != 0 {
			t.Fatalf("CAPS before any cookie: %+v", e.caps)
		}
		e.deliver(Packet{Type: TypeRetry, Cookie: []byte("cookie")})
		for pn := range uint32(8) {
			e.deliver(Packet{Type: TypeData, PN: pn, Offset: uint64(pn) * 100, Size: 10000, Payload: make([]byte, 100)})
			e.f.due(e.clk.now())
		}
		want := 1 + capsWithAcks
		if small {
			want = 0
		}
		if len(e.caps) != want {
			t.Fatalf("small=%v: %d CAPS, want %d", small, len(e.caps), want)
		}
		for _, c := range e.caps {
			if c.MaxDatagram != MaxDatagramSize || c.ConnID != 7 {
				t.Fatalf("CAPS %+v", c)
			}
		}
	}
}
