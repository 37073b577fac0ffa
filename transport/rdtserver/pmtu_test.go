package rdtserver

import (
	"bytes"
	"net"
	"runtime"
	"testing"
	"time"

	"opsassist/rdt"
	"opsassist/storage/tokens"
)

// probeSizes are the DATA payloads of the probe datagrams.
var probeSizes = [...]int{1452 - rdt.DataOverhead, 8952 - rdt.DataOverhead, rdt.MaxProbedPayload}

// TestSenderProbeRaisesPayload: after CAPS the sender sends one probe of
// the next size up, carrying real data; once it is acknowledged the
// payload becomes that size and the next size is probed, up to what
// the client takes.
func TestSenderProbeRaisesPayload(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	s, data := newTestSender(t, 200000, clk, &fixedCC{window: 1 << 20, rate: 1e12})
	s.onCaps(9000) // takes 8952-byte datagrams, not 16384
	var pns []uint32
	for _, want := range []int{probeSizes[0], probeSizes[1]} {
		var probe *rdt.Packet
		for range 4 {
			b, ok := s.next(clk.now(), nil)
			if !ok {
				t.Fatal("nothing to send")
			}
			p, err := rdt.Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			pns = append(pns, p.PN)
			if s.sentProbe() {
				if probe != nil {
					t.Fatal("two probes in flight")
				}
				probe = &p
			} else if len(p.Payload) > s.payload {
				t.Fatalf("non-probe of %d bytes, payload %d", len(p.Payload), s.payload)
			}
		}
		if probe == nil || len(probe.Payload) != want {
			t.Fatalf("probe %+v, want %d bytes", probe, want)
		}
		if !bytes.Equal(probe.Payload, data[probe.Offset:probe.Offset+uint64(want)]) {
			t.Fatal("probe does not carry the file's bytes")
		}
		clk.advance(time.Millisecond)
		s.onAck(ackOf(pns...), clk.now())
		if s.payload != want {
			t.Fatalf("payload %d after the probe was acknowledged, want %d", s.payload, want)
		}
	}
	for range 8 {
		if _, ok := s.next(clk.now(), nil); ok && s.sentProbe() {
			t.Fatal("probed beyond the client's limit")
		}
	}
}

// TestSenderProbeLoss: a probe lost twice ends probing at the size
// proved so far; its bytes are resent at that size; the losses are not
// reported to congestion control; a probe the interface refuses ends
// probing at once.
func TestSenderProbeLoss(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	cc := &fixedCC{window: 1 << 20, rate: 1e12}
	s, data := newTestSender(t, 400000, clk, cc)
	s.onCaps(rdt.MaxDatagramSize)
	var acked []uint32
	for round := range probeAttempts {
		found := false
		for range 6 {
			b, ok := s.next(clk.now(), nil)
			if !ok {
				t.Fatal("nothing to send")
			}
			p, _ := rdt.Parse(b)
			if s.sentProbe() {
				found = true
				continue
			}
			acked = append(acked, p.PN)
		}
		if !found {
			t.Fatalf("round %d: no probe", round)
		}
		clk.advance(time.Millisecond)
		s.onAck(ackOf(acked...), clk.now()) // the probe is 3+ behind: lost
		if s.cfg.rtt.smoothed() == 0 {
			t.Fatal("no RTT sample")
		}
	}
	if s.payload != 1000 || s.probe.want() != 0 {
		t.Fatalf("payload %d, next probe %d after %d lost probes", s.payload, s.probe.want(), probeAttempts)
	}
	if cc.lost != 0 || len(cc.acks) == 0 || cc.acks[len(cc.acks)-1].lost != 0 {
		t.Fatalf("probe loss reported as congestion: %d, %+v", cc.lost, cc.acks[len(cc.acks)-1])
	}
	// The lost probes' bytes go again at the validated size.
	for range 4 {
		b, ok := s.next(clk.now(), nil)
		if !ok {
			break
		}
		p, _ := rdt.Parse(b)
		if len(p.Payload) > 1000 || !bytes.Equal(p.Payload, data[p.Offset:p.Offset+uint64(len(p.Payload))]) {
			t.Fatalf("resent %d bytes at %d", len(p.Payload), p.Offset)
		}
	}

	// Refused by the interface: no second try.
	s2, _ := newTestSender(t, 400000, clk, &fixedCC{window: 1 << 20, rate: 1e12})
	s2.onCaps(rdt.MaxDatagramSize)
	var refused *rdt.Packet
	for range 4 {
		b, _ := s2.next(clk.now(), nil)
		if s2.sentProbe() {
			p, _ := rdt.Parse(b)
			refused = &p
			s2.probeRefused()
			break
		}
	}
	if refused == nil || s2.probe.want() != 0 || s2.payload != 1000 {
		t.Fatalf("after a refusal: probe %v, next %d, payload %d", refused != nil, s2.probe.want(), s2.payload)
	}
	if len(s2.retx) != 1 || s2.retx[0].Start != refused.Offset {
		t.Fatalf("refused probe's bytes not queued again: %v", s2.retx)
	}
}

// TestSenderCaps: CAPS too small for any probe size, or a second CAPS,
// starts nothing; no CAPS, no probe.
func TestSenderCaps(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	for _, caps := range [][]int{nil, {0}, {100}, {1000 + rdt.DataOverhead}, {100, rdt.MaxDatagramSize}} {
		s, _ := newTestSender(t, 400000, clk, &fixedCC{window: 1 << 20, rate: 1e12})
		for _, c := range caps {
			s.onCaps(c)
		}
		for range 16 {
			if b, ok := s.next(clk.now(), nil); !ok || s.sentProbe() || len(b) > rdt.DataOverhead+1000 {
				t.Fatalf("CAPS %v: probe or no packet (%v)", caps, ok)
			}
		}
	}
}

// maxConn records the largest datagram read through it.
type maxConn struct {
	net.PacketConn
	max int
}

func (m *maxConn) ReadFrom(b []byte) (int, net.Addr, error) {
	n, a, err := m.PacketConn.ReadFrom(b)
	m.max = max(m.max, n)
	return n, a, err
}

// TestDownloadProbes: over loopback (MTU 64 KiB) a download raises its
// payload (to the largest, unless a probe was lost); a client that sends no CAPS (as one of an earlier
// version) and a server with NoProbe never see a datagram over the size
// asked for, and every download is intact.
func TestDownloadProbes(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("probing needs the don't-fragment bit (Linux)")
	}
	for _, c := range []struct {
		name        string
		small, off  bool
		maxDatagram int
		wantPayload int
	}{
		{"probing", false, false, 0, rdt.MaxProbedPayload},
		{"old client", true, false, 0, rdt.DefaultPayload},
		{"NoProbe", false, true, 0, rdt.DefaultPayload},
		{"MaxDatagram", false, false, 1452, 1452 - rdt.DataOverhead},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, ServerConfig{NoProbe: c.off, MaxDatagram: c.maxDatagram})
			_, tok, data := e.file("f", 4<<20, 3)
			pc, err := net.ListenPacket("udp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer pc.Close()
			mc := &maxConn{PacketConn: pc}
			st := e.download(testCtx(t, time.Minute), rdt.ClientConfig{Token: tok.ID, SmallDatagrams: c.small, Conn: mc}, data)
			srv := e.waitTransfer()
			// A probe may be lost (a full socket buffer on a loaded
			// machine), which ends probing at the size proved so far.
			if c.wantPayload == rdt.DefaultPayload && srv.Payload != c.wantPayload ||
				c.wantPayload != rdt.DefaultPayload && srv.Payload <= rdt.DefaultPayload {
				t.Fatalf("payload %d, want %d", srv.Payload, c.wantPayload)
			}
			t.Logf("payload %d", srv.Payload)
			if c.wantPayload < rdt.MaxProbedPayload && mc.max > rdt.DataOverhead+c.wantPayload {
				t.Fatalf("a %d-byte datagram reached the client, above %d", mc.max, rdt.DataOverhead+c.wantPayload)
			}
			if st.Malformed != 0 {
				t.Fatalf("%d malformed datagrams", st.Malformed)
			}
		})
	}
}

// TestCapsInput: CAPS for an unknown connection, a malformed or
// oversized one, gets no answer and is counted; the server goes on.
func TestCapsInput(t *testing.T) {
	e := newEnv(t, ServerConfig{})
	_, tok, data := e.file("f", 100000, 1)
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	srv, _ := net.ResolveUDPAddr("udp", e.addr)
	good, _ := (&rdt.Packet{Type: rdt.TypeCaps, ConnID: 77, MaxDatagram: 65535}).Append(nil)
	trailing := append(append([]byte(nil), good[:len(good)-rdt.TrailerSize]...), 0)
	trailing = append(trailing, good[len(good)-rdt.TrailerSize:]...) // CRC no longer matches either
	for _, b := range [][]byte{good, good, trailing, good[:len(good)-1], make([]byte, rdt.MaxDatagramSize+1)} {
		if _, err := pc.WriteTo(b, srv); err != nil {
			t.Fatal(err)
		}
	}
	// A REQUEST is the marker: once answered, the datagrams before it
	// were handled.
	b, _ := (&rdt.Packet{Type: rdt.TypeRequest, ConnID: 78, Token: tok.ID}).Append(nil)
	pc.WriteTo(b, srv)
	pc.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 2048)
	n, _, err := pc.ReadFrom(buf)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := rdt.Parse(buf[:n]); err != nil || p.ConnID != 78 || p.Type != rdt.TypeRetry {
		t.Fatalf("answer %v %v", p.Type, err)
	}
	if st := e.srv.Stats(); st.Dropped != 2 || st.Malformed != 3 {
		t.Fatalf("stats %+v", st)
	}
	// Other downloads are unaffected.
	e.download(testCtx(t, time.Minute), rdt.ClientConfig{Token: tok.ID}, data)
}

// TestSenderBlackHole: once the payload was raised, blackHolePTOs probe
// timeouts in a row with nothing acknowledged (the path stopped carrying
// large packets) bring it back to the size the client asked for, the
// PTO probes go at that size, and the search starts again from it.
func TestSenderBlackHole(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	s, _ := newTestSender(t, 1<<20, clk, &fixedCC{window: 1 << 20, rate: 1e12})
	s.onCaps(rdt.MaxDatagramSize)
	var pns []uint32
	for s.payload == 1000 {
		for range 4 {
			b, ok := s.next(clk.now(), nil)
			if !ok {
				t.Fatal("nothing to send")
			}
			p, _ := rdt.Parse(b)
			pns = append(pns, p.PN)
		}
		clk.advance(time.Millisecond)
		s.onAck(ackOf(pns...), clk.now())
	}
	sendAll(t, s, clk.now()) // a flight at the larger size, never acknowledged
	for i := range blackHolePTOs {
		clk.t = s.deadline(clk.now())
		s.onTimer(clk.now())
		for _, p := range sendAll(t, s, clk.now()) {
			if i == blackHolePTOs-1 && len(p.Payload) > 1000 {
				t.Fatalf("PTO probe of %d bytes after the fall-back", len(p.Payload))
			}
		}
	}
	if s.payload != 1000 || s.probe.want() != probeSizes[0] || s.stats.BlackHoles != 1 {
		t.Fatalf("payload %d, next probe %d, black holes %d after %d PTOs", s.payload, s.probe.want(), s.stats.BlackHoles, blackHolePTOs)
	}
}

// TestServerConfigMaxDatagram: MaxDatagram outside its range is refused.
func TestServerConfigMaxDatagram(t *testing.T) {
	for _, n := range []int{-1, 100, rdt.DataOverhead + rdt.MinPayload - 1, rdt.MaxDatagramSize + 1} {
		if _, err := NewServer(ServerConfig{Tokens: tokens.NewStore(0), MaxDatagram: n}); err == nil {
			t.Errorf("MaxDatagram %d accepted", n)
		}
	}
}
