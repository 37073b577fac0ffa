package rdtserver

import (
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"opsassist/rdt"
)

// dyingRelay is a UDP relay for one client that dies the moment the
// client has verified its file: it forwards both ways until the first
// ACK with the done flag, and from then on forwards nothing towards the
// server, as a relay killed right after the verification would. died
// closes then: everything the client sent before was forwarded. Close
// stops it.
type dyingRelay struct {
	client *net.UDPConn // the address the client sends to
	up     *net.UDPConn // connected to the server
	wg     sync.WaitGroup
	died   chan struct{}

	mu   sync.Mutex
	peer net.Addr // the client's address, once it sent
	dead bool
}

func newDyingRelay(t *testing.T, server string) *dyingRelay {
	t.Helper()
	la, _ := net.ResolveUDPAddr("udp", "127.0.0.1:0")
	client, err := net.ListenUDP("udp", la)
	if err != nil {
		t.Fatal(err)
	}
	sa, err := net.ResolveUDPAddr("udp", server)
	if err != nil {
		t.Fatal(err)
	}
	up, err := net.DialUDP("udp", nil, sa)
	if err != nil {
		client.Close()
		t.Fatal(err)
	}
	r := &dyingRelay{client: client, up: up, died: make(chan struct{})}
	r.wg.Add(2)
	go r.forward()
	go r.backward()
	t.Cleanup(r.Close)
	return r
}

func (r *dyingRelay) addr() string { return r.client.LocalAddr().String() }

// forward carries the client's packets to the server until the client
// says it verified the file.
func (r *dyingRelay) forward() {
	defer r.wg.Done()
	buf := make([]byte, 2048)
	for {
		n, from, err := r.client.ReadFrom(buf)
		if err != nil {
			return
		}
		r.mu.Lock()
		r.peer = from
		if p, perr := rdt.Parse(buf[:n]); perr == nil && p.Type == rdt.TypeAck && p.Done && !r.dead {
			r.dead = true
			close(r.died)
		}
		dead := r.dead
		r.mu.Unlock()
		if !dead {
			r.up.Write(buf[:n])
		}
	}
}

// backward carries the server's packets to the client.
func (r *dyingRelay) backward() {
	defer r.wg.Done()
	buf := make([]byte, 2048)
	for {
		n, err := r.up.Read(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue // ICMP refusals from an earlier run, and such
		}
		r.mu.Lock()
		peer := r.peer
		r.mu.Unlock()
		if peer != nil {
			r.client.WriteTo(buf[:n], peer)
		}
	}
}

// waitDied waits until the relay took the client's first confirmation
// (and so forwarded everything the client sent before it); a guard
// fails the test if it never comes.
func (r *dyingRelay) waitDied(t *testing.T) {
	t.Helper()
	select {
	case <-r.died:
	case <-time.After(30 * time.Second):
		t.Fatal("the relay never saw the client's confirmation")
	}
}

// Close kills the relay and waits for its goroutines.
func (r *dyingRelay) Close() {
	r.client.Close()
	r.up.Close()
	r.wg.Wait()
}

// TestDownloadsThroughDyingRelays is issue 17's acceptance test: twenty
// downloads in a row from one address, each through a relay that is
// killed right after the client verified the file (its confirmation
// never reaches the server), all succeed with the server's real
// per-address limit. Each finished transfer must give its slot back as
// soon as every byte was acknowledged, not when its confirmation would
// have come; the client is not allowed to retry a busy refusal here.
// The relay dies once it took the confirmation, not when Download
// returns: the client sends its last acknowledgement before verifying
// and the confirmations after, all before it returns, but a relay
// killed at the return (on a busy machine, before it read the
// acknowledgement off its socket) lost the acknowledgement too, and
// eight such transfers held every slot until their idle timeout.
func TestDownloadsThroughDyingRelays(t *testing.T) {
	e := newEnv(t, ServerConfig{})
	_, tok, _ := e.file("f", 64<<10, 17)
	for i := range 20 {
		r := newDyingRelay(t, e.addr)
		_, err := rdt.Download(testCtx(t, 30*time.Second), rdt.ClientConfig{Addr: r.addr(), Token: tok.ID,
			Path: t.TempDir() + "/out"})
		if err != nil {
			r.Close()
			t.Fatalf("download %d: %v", i+1, err)
		}
		r.waitDied(t)
		r.Close()
	}
}

// rawClient speaks RDT packet by packet from one UDP socket, for tests
// that play a client the real one never is.
type rawClient struct {
	t   *testing.T
	pc  net.PacketConn
	srv net.Addr
}

func newRawClient(t *testing.T, server string) *rawClient {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	srv, err := net.ResolveUDPAddr("udp", server)
	if err != nil {
		t.Fatal(err)
	}
	return &rawClient{t: t, pc: pc, srv: srv}
}

func (c *rawClient) send(p rdt.Packet) {
	c.t.Helper()
	b, err := p.Append(nil)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.pc.WriteTo(b, c.srv); err != nil {
		c.t.Fatal(err)
	}
}

// read returns the next valid packet; the deadline only bounds a hang.
func (c *rawClient) read() rdt.Packet {
	c.t.Helper()
	for {
		c.pc.SetReadDeadline(time.Now().Add(10 * time.Second))
		b := make([]byte, 2048)
		n, _, err := c.pc.ReadFrom(b)
		if err != nil {
			c.t.Fatal(err)
		}
		if p, err := rdt.Parse(b[:n]); err == nil {
			return p
		}
	}
}

// start sends the REQUEST, echoes the cookie, and returns the server's
// first answer on connection id: DATA (or FIN) when the transfer
// started, an ERROR when it was refused. Packets of other connections
// are skipped.
func (c *rawClient) start(id uint64, token string) rdt.Packet {
	c.t.Helper()
	c.send(rdt.Packet{Type: rdt.TypeRequest, ConnID: id, Token: token})
	for {
		p := c.read()
		if p.ConnID != id {
			continue
		}
		if p.Type == rdt.TypeRetry {
			c.send(rdt.Packet{Type: rdt.TypeRequest, ConnID: id, Token: token, Cookie: p.Cookie})
			continue
		}
		return p
	}
}

// receiveAll reads connection id's packets until its FIN, and returns
// the packet numbers of the DATA and of the FIN.
func (c *rawClient) receiveAll(id uint64, first rdt.Packet) (data []uint32, fin uint32) {
	c.t.Helper()
	for p := first; ; p = c.read() {
		if p.ConnID != id {
			continue
		}
		switch p.Type {
		case rdt.TypeData:
			data = append(data, p.PN)
		case rdt.TypeFin:
			return data, p.PN
		}
	}
}

// ack is an ACK for connection id of packet numbers pns.
func ack(id uint64, done bool, pns ...uint32) rdt.Packet {
	a := *ackOf(pns...)
	a.ConnID, a.Done = id, done
	return a
}

// waitStats polls the server's stats until ok accepts them; the deadline
// only bounds a hang.
func (e *testEnv) waitStats(ok func(ServerStats) bool) ServerStats {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := e.srv.Stats()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("server stats stuck at %+v", st)
		}
		time.Sleep(time.Millisecond) // polling with a deadline, not a timed wait
	}
}

// TestAckedTransferGivesSlotBack plays the client a relay loses the end
// of: every DATA is acknowledged but not the FIN, and no confirmation
// comes. The transfer gives its slot back at once (with one slot per
// address, a second transfer from the same address starts), lingers
// without one, and ends delivered when the FIN's acknowledgement and the
// confirmation come late. Garbage meanwhile is dropped; replayed after
// the end, the final ACK, the confirmation and a close are dropped.
func TestAckedTransferGivesSlotBack(t *testing.T) {
	e := newEnv(t, ServerConfig{MaxPerAddr: 1})
	_, tok, _ := e.file("f", 10*rdt.DefaultPayload, 1)
	c := newRawClient(t, e.addr)
	first := c.start(1, tok.ID)
	if first.Type != rdt.TypeData {
		t.Fatalf("first answer %v", first.Type)
	}
	data, fin := c.receiveAll(1, first)
	c.send(ack(1, false, data...))
	before := e.waitStats(func(st ServerStats) bool { return st.Active == 0 && st.Lingering == 1 })

	// Garbage and an oversized datagram for the lingering transfer are
	// dropped as malformed; it lingers on.
	b, _ := (&rdt.Packet{Type: rdt.TypeAck, ConnID: 1, Done: true}).Append(nil)
	b[len(b)-1] ^= 1 // a broken CRC: not a confirmation
	for _, g := range [][]byte{b, []byte("RD"), make([]byte, 9000)} {
		if _, err := c.pc.WriteTo(g, c.srv); err != nil {
			t.Fatal(err)
		}
	}
	e.waitStats(func(st ServerStats) bool { return st.Malformed >= before.Malformed+3 })
	if st := e.srv.Stats(); st.Lingering != 1 {
		t.Fatalf("stats after garbage %+v", st)
	}

	// The same address gets its one slot for another transfer.
	if p := c.start(2, tok.ID); p.Type != rdt.TypeData {
		t.Fatalf("second transfer from the address: %v %s", p.Type, p.Reason)
	}
	// A third is refused: the second holds the slot.
	if p := c.start(3, tok.ID); p.Type != rdt.TypeError || p.Code != rdt.CodeBusy {
		t.Fatalf("third transfer: %v %v", p.Type, p.Code)
	}

	// The late FIN acknowledgement and confirmation end the first one.
	all := append(data, fin)
	c.send(ack(1, false, all...))
	c.send(ack(1, true, all...))
	if st := e.waitTransfer(); st.ConnID != 1 || st.Err != nil {
		t.Fatalf("first transfer ended %d: %v", st.ConnID, st.Err)
	}
	before = e.waitStats(func(st ServerStats) bool { return st.Lingering == 0 })
	// Replayed: the final ACK, the confirmation, a close (ERROR).
	c.send(ack(1, false, all...))
	c.send(ack(1, true, all...))
	c.send(rdt.Packet{Type: rdt.TypeError, ConnID: 1, Code: rdt.CodeCancelled, Reason: "late"})
	e.waitStats(func(st ServerStats) bool { return st.Dropped >= before.Dropped+3 })
	if st := e.srv.Stats(); st.Active != 1 || st.Transfers != 2 {
		t.Fatalf("stats after the replay %+v", st)
	}
}

// TestUnknownCloseAndAck: an ERROR (close) or a confirmation for a
// connection the server never had, even from the address of a running
// transfer, is dropped and disturbs nothing.
func TestUnknownCloseAndAck(t *testing.T) {
	e := newEnv(t, ServerConfig{RateLimit: 1 << 20})
	_, tok, _ := e.file("f", 1<<20, 2)
	c := newRawClient(t, e.addr)
	if p := c.start(1, tok.ID); p.Type != rdt.TypeData {
		t.Fatalf("start: %v", p.Type)
	}
	before := e.srv.Stats()
	for id := uint64(100); id < 110; id++ {
		c.send(rdt.Packet{Type: rdt.TypeError, ConnID: id, Code: rdt.CodeCancelled, Reason: "who?"})
		c.send(ack(id, true, 0, 1, 2))
	}
	st := e.waitStats(func(st ServerStats) bool { return st.Dropped >= before.Dropped+20 })
	if st.Active != 1 || st.Transfers != 1 {
		t.Fatalf("stats %+v", st)
	}
	c.send(rdt.Packet{Type: rdt.TypeError, ConnID: 1, Code: rdt.CodeCancelled, Reason: "bye"})
	var re *rdt.RemoteError
	if st := e.waitTransfer(); !errors.As(st.Err, &re) || re.Code != rdt.CodeCancelled {
		t.Fatalf("transfer ended with %v", st.Err)
	}
}

// TestLingeringIsBounded: transfers whose FIN is never acknowledged
// linger without a slot, at most MaxTransfers of them; one more evicts
// the oldest, which ends with errEvicted.
func TestLingeringIsBounded(t *testing.T) {
	e := newEnv(t, ServerConfig{MaxTransfers: 2, MaxPerAddr: 2})
	_, tok, _ := e.file("f", 3*rdt.DefaultPayload, 3)
	c := newRawClient(t, e.addr)
	for id := uint64(1); id <= 3; id++ {
		first := c.start(id, tok.ID)
		if first.Type != rdt.TypeData {
			t.Fatalf("transfer %d: %v %s", id, first.Type, first.Reason)
		}
		data, _ := c.receiveAll(id, first)
		c.send(ack(id, false, data...))
		want := min(int(id), 2)
		e.waitStats(func(st ServerStats) bool { return st.Active == 0 && st.Lingering == want })
	}
	if st := e.waitTransfer(); st.ConnID != 1 || !errors.Is(st.Err, errEvicted) {
		t.Fatalf("ended %d: %v", st.ConnID, st.Err)
	}
	if st := e.srv.Stats(); st.Lingering > 2 {
		t.Fatalf("%d lingering", st.Lingering)
	}
}

// TestIdleClientFreesSlot: a client that vanishes in the middle of a
// transfer holds its slot only until the idle timeout ends the transfer.
func TestIdleClientFreesSlot(t *testing.T) {
	e := newEnv(t, ServerConfig{MaxPerAddr: 1, IdleTimeout: 200 * time.Millisecond, RateLimit: 1 << 20})
	_, tok, _ := e.file("f", 4<<20, 4)
	c := newRawClient(t, e.addr)
	if p := c.start(1, tok.ID); p.Type != rdt.TypeData {
		t.Fatalf("start: %v", p.Type)
	}
	// The client goes silent: no ACK ever.
	if st := e.waitTransfer(); !errors.Is(st.Err, errIdle) {
		t.Fatalf("ended with %v", st.Err)
	}
	e.waitStats(func(st ServerStats) bool { return st.Active == 0 && st.Lingering == 0 })
	if p := c.start(2, tok.ID); p.Type != rdt.TypeData {
		t.Fatalf("after the idle end: %v %s", p.Type, p.Reason)
	}
}

// TestBusyFloodKeepsNoState: a flood of validated requests from one
// address that is over its limit is refused with busy, one ERROR each,
// and leaves no state behind; the running transfer is unaffected.
func TestBusyFloodKeepsNoState(t *testing.T) {
	e := newEnv(t, ServerConfig{MaxPerAddr: 1, RateLimit: 1 << 20})
	_, tok, _ := e.file("f", 2*rdt.DefaultPayload, 5)
	holder := newRawClient(t, e.addr)
	first := holder.start(1, tok.ID)
	if first.Type != rdt.TypeData {
		t.Fatalf("start: %v", first.Type)
	}
	data, fin := holder.receiveAll(1, first)
	flood := newRawClient(t, e.addr)
	const n = 300
	for id := uint64(1000); id < 1000+n; id++ {
		if p := flood.start(id, tok.ID); p.Type != rdt.TypeError || p.Code != rdt.CodeBusy {
			t.Fatalf("request %d: %v %v", id, p.Type, p.Code)
		}
	}
	e.srv.mu.Lock()
	transfers, ended, lingering, addrs := len(e.srv.transfers), len(e.srv.ended), len(e.srv.lingering), len(e.srv.perAddr)
	e.srv.mu.Unlock()
	if transfers != 1 || ended != 0 || lingering != 0 || addrs != 1 {
		t.Fatalf("state after the flood: %d transfers, %d ended, %d lingering, %d addresses", transfers, ended, lingering, addrs)
	}
	if st := e.srv.Stats(); st.Refused != n || st.Active != 1 {
		t.Fatalf("stats %+v", st)
	}
	all := append(data, fin)
	holder.send(ack(1, true, all...))
	if st := e.waitTransfer(); st.Err != nil {
		t.Fatalf("the running transfer: %v", st.Err)
	}
}
