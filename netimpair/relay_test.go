package netimpair

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"testing"
	"time"
)

// echoServer answers every datagram with the same bytes and records the
// peer addresses it saw.
type echoServer struct {
	conn  *net.UDPConn
	mu    sync.Mutex
	peers map[netip.AddrPort]int
}

func newEchoServer(t testing.TB) *echoServer {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadBuffer(4 << 20)
	e := &echoServer{conn: c, peers: map[netip.AddrPort]int{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, MaxDatagram)
		for {
			n, addr, err := c.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			e.mu.Lock()
			e.peers[addr]++
			e.mu.Unlock()
			_, _ = c.WriteToUDPAddrPort(buf[:n], addr)
		}
	}()
	t.Cleanup(func() { c.Close(); <-done })
	return e
}

func (e *echoServer) addr() string { return e.conn.LocalAddr().String() }

func (e *echoServer) numPeers() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.peers)
}

func newRelay(t *testing.T, cfg Config) *Relay {
	t.Helper()
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func dial(t *testing.T, r *Relay) *net.UDPConn { return dialB(t, r) }

func dialB(t testing.TB, r *Relay) *net.UDPConn {
	t.Helper()
	c, err := net.DialUDP("udp", nil, r.Addr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadBuffer(4 << 20)
	t.Cleanup(func() { c.Close() })
	return c
}

// exchange sends n packets "<tag> i" in windows of 64 through a relay
// that loses nothing and returns the echoes. Each window ends when all
// its echoes are back; the 10 s quiet period only bounds a failure, so a
// loaded machine that pauses the relay does not cut the exchange short.
func exchange(t *testing.T, c *net.UDPConn, tag string, n int) map[string]bool {
	return exchangeQuiet(t, c, tag, n, 10*time.Second)
}

func exchangeQuiet(t *testing.T, c *net.UDPConn, tag string, n int, quiet time.Duration) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	buf := make([]byte, 2048)
	for start := 0; start < n; start += 64 {
		for i := start; i < min(n, start+64); i++ {
			msg := fmt.Sprintf("%s %d", tag, i)
			if _, err := c.Write([]byte(msg)); err != nil {
				t.Fatal(err)
			}
		}
		for {
			_ = c.SetReadDeadline(time.Now().Add(quiet))
			k, err := c.Read(buf)
			if err != nil {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					break
				}
				t.Fatal(err)
			}
			got[string(buf[:k])] = true
			if len(got) == min(n, start+64) {
				break
			}
		}
	}
	return got
}

func TestRelayEcho(t *testing.T) {
	e := newEchoServer(t)
	r := newRelay(t, Config{Upstream: e.addr()})
	c := dial(t, r)
	got := exchange(t, c, "a", 500)
	if len(got) != 500 {
		t.Fatalf("got %d of 500 echoes", len(got))
	}
	// A counter is bumped just after its send, so it may trail the echo
	// (the forward one too: the echo can come back before it is bumped).
	st := waitStats(t, r, func(st Stats) bool { return st.Reverse.PacketsOut == 500 && st.Forward.PacketsOut >= 500 })
	if st.Forward.PacketsIn != 500 || st.Forward.PacketsOut != 500 ||
		st.Clients != 1 || st.ActiveClients != 1 || st.Forward.Dropped() != 0 {
		t.Errorf("stats %+v", st)
	}
}

// waitStats polls r's counters until ok accepts them, failing after 5 s.
func waitStats(t *testing.T, r *Relay, ok func(Stats) bool) Stats {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		st := r.Stats()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("stats never settled: %+v", st)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestRelayConcurrentClients(t *testing.T) {
	e := newEchoServer(t)
	r := newRelay(t, Config{Upstream: e.addr(), Forward: Impairment{Delay: time.Millisecond},
		Reverse: Impairment{Delay: time.Millisecond, Jitter: 500 * time.Microsecond}})
	const clients = 8
	var wg sync.WaitGroup
	results := make([]map[string]bool, clients)
	conns := make([]*net.UDPConn, clients)
	for i := range conns {
		conns[i] = dial(t, r)
	}
	for i := range clients {
		wg.Go(func() { results[i] = exchange(t, conns[i], fmt.Sprintf("c%d", i), 300) })
	}
	wg.Wait()
	for i, got := range results {
		if len(got) != 300 {
			t.Errorf("client %d got %d of 300", i, len(got))
		}
		for msg := range got {
			if !bytes.HasPrefix([]byte(msg), fmt.Appendf(nil, "c%d ", i)) {
				t.Errorf("client %d got %q", i, msg)
			}
		}
	}
	if n := e.numPeers(); n != clients {
		t.Errorf("upstream saw %d peers, want %d", n, clients)
	}
	if st := r.Stats(); st.Clients != clients || st.ActiveClients != clients {
		t.Errorf("stats %+v", st)
	}
}

func TestRelayLossMatchesStats(t *testing.T) {
	e := newEchoServer(t)
	r := newRelay(t, Config{Upstream: e.addr(), Seed: 3,
		Forward: Impairment{Loss: 0.1},
		Reverse: Impairment{GE: GilbertElliott{P: 0.02, R: 0.3}, Duplicate: 0.05}})
	c := dial(t, r)
	got := exchangeQuiet(t, c, "x", 2000, 5*time.Millisecond)
	// Wait until the relay has settled, then collect the stragglers.
	st := waitStats(t, r, func(st Stats) bool {
		return st.Forward.PacketsIn == 2000 && st.Forward.Pending == 0 &&
			st.Reverse.PacketsIn == st.Forward.PacketsOut && st.Reverse.Pending == 0 &&
			st.Reverse.PacketsOut+st.Reverse.Dropped() == st.Reverse.PacketsIn+st.Reverse.Duplicated
	})
	deadline := time.Now().Add(5 * time.Second)
	buf := make([]byte, 2048)
	for uint64(len(got)) < st.Reverse.PacketsOut-st.Reverse.Duplicated {
		_ = c.SetReadDeadline(deadline)
		k, err := c.Read(buf)
		if err != nil {
			t.Fatalf("after %d echoes: %v", len(got), err)
		}
		got[string(buf[:k])] = true
	}
	if st.Forward.Lost == 0 || st.Reverse.BurstLost == 0 || st.Reverse.Duplicated == 0 {
		t.Fatalf("no impairment seen: %+v", st)
	}
	if uint64(len(got)) != st.Reverse.PacketsOut-st.Reverse.Duplicated {
		t.Errorf("received %d distinct, relay sent %d with %d duplicates", len(got), st.Reverse.PacketsOut, st.Reverse.Duplicated)
	}
	within(t, "forward loss", float64(st.Forward.Lost)/2000, 0.1, 0.03)
}

func TestRelayBottleneckRealTime(t *testing.T) {
	e := newEchoServer(t)
	// 8 Mbit/s back: 100 echoes of 1000 bytes need 100 ms on the link.
	r := newRelay(t, Config{Upstream: e.addr(), Reverse: Impairment{Rate: 8_000_000, BucketBytes: 1000, QueueBytes: 1 << 20}})
	c := dial(t, r)
	msg := make([]byte, 1000)
	buf := make([]byte, 2048)
	start := time.Now()
	for range 100 {
		if _, err := c.Write(msg); err != nil {
			t.Fatal(err)
		}
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	for i := range 100 {
		if _, err := c.Read(buf); err != nil {
			t.Fatalf("echo %d: %v", i, err)
		}
	}
	// Only the lower bound is the rate at work; how much longer it takes
	// is up to the machine's load (the read deadline bounds it).
	if el := time.Since(start); el < 95*time.Millisecond {
		t.Errorf("100 KB through 8 Mbit/s took %v, want at least 100 ms", el)
	}
}

// TestRelayQueueOverflow sends a burst of 100 packets into a 10-packet
// bottleneck queue. The relay's clock stands still while they arrive, so
// however slowly a loaded machine delivers the burst, nothing leaves the
// queue meanwhile: exactly the 90 that do not fit are dropped.
func TestRelayQueueOverflow(t *testing.T) {
	e := newEchoServer(t)
	r, err := newRelayClock(Config{Upstream: e.addr(), Forward: Impairment{Rate: 1_000_000, QueuePackets: 10, BucketBytes: 1}},
		func() time.Duration { return 0 })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	c := dial(t, r)
	for range 100 {
		if _, err := c.Write(make([]byte, 1000)); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for r.Stats().Forward.PacketsIn < 100 {
		if time.Now().After(deadline) {
			t.Fatalf("relay read %d of 100 packets", r.Stats().Forward.PacketsIn)
		}
		runtime.Gosched()
	}
	if st := r.Stats().Forward; st.QueueDropped != 90 {
		t.Errorf("queue drops %d of 100 with a 10-packet queue, want 90", st.QueueDropped)
	}
}

func TestRelayIdleExpiry(t *testing.T) {
	e := newEchoServer(t)
	r := newRelay(t, Config{Upstream: e.addr(), IdleTimeout: 50 * time.Millisecond})
	c := dial(t, r)
	if got := exchange(t, c, "i", 1); len(got) != 1 {
		t.Fatal("no echo")
	}
	deadline := time.Now().Add(5 * time.Second)
	for r.Stats().ActiveClients != 0 {
		if time.Now().After(deadline) {
			t.Fatal("client never expired")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The client comes back with a fresh upstream socket.
	if got := exchange(t, c, "j", 1); len(got) != 1 {
		t.Fatal("no echo after expiry")
	}
	if st := r.Stats(); st.Clients != 2 {
		t.Errorf("clients %d, want 2", st.Clients)
	}
}

// TestRelayCloseReleasesGoroutines: once Close returns, the relay's
// goroutines are done. A goroutine that has called wg.Done may still be
// unwinding when Close returns, so the check waits (bounded) for the
// relay's code to vanish from every goroutine's stack instead of
// comparing runtime.NumGoroutine at once.
func TestRelayCloseReleasesGoroutines(t *testing.T) {
	e := newEchoServer(t)
	r, err := New(Config{Upstream: e.addr(), Reverse: Impairment{Delay: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		c := dial(t, r)
		if _, err := c.Write([]byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for r.Stats().Reverse.Pending < 3 && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	// 2 directions, the client reader and 3 upstream readers (earlier
	// tests' relays may still be unwinding).
	deadline = time.Now().Add(10 * time.Second)
	for n := len(relayGoroutines()); n != 6; n = len(relayGoroutines()) {
		if time.Now().After(deadline) {
			t.Fatalf("%d relay goroutines before Close, want 6", n)
		}
		runtime.Gosched()
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	deadline = time.Now().Add(10 * time.Second)
	for left := relayGoroutines(); len(left) > 0; left = relayGoroutines() {
		if time.Now().After(deadline) {
			t.Fatalf("%d relay goroutines left after Close:\n%s", len(left), bytes.Join(left, []byte("\n\n")))
		}
		runtime.Gosched()
	}
	if st := r.Stats(); st.ActiveClients != 0 || st.Clients != 3 {
		t.Errorf("stats after close %+v", st)
	}
}

// relayGoroutines returns the stacks of the goroutines running a relay's
// code (its directions and readers).
func relayGoroutines() [][]byte {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out [][]byte
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		for _, fn := range []string{"netimpair.(*Relay).", "netimpair.(*direction).run", "netimpair.newRelayClock.func"} {
			if bytes.Contains(g, []byte(fn)) && !bytes.Contains(g, []byte("netimpair.relayGoroutines")) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

func TestNewErrors(t *testing.T) {
	if _, err := New(Config{}); !errors.Is(err, ErrNoUpstream) {
		t.Errorf("no upstream: %v", err)
	}
	if _, err := New(Config{Upstream: "127.0.0.1:1", Forward: Impairment{Loss: 2}}); !errors.Is(err, ErrBadProbability) {
		t.Errorf("bad loss: %v", err)
	}
	if _, err := New(Config{Upstream: "127.0.0.1:1", Listen: "256.0.0.1:0"}); err == nil {
		t.Error("bad listen address accepted")
	}
}
