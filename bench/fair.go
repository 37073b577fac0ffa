package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"opsassist/netimpair"
)

// Pair is two downloads of the same file at once through one
// bottleneck: the fairness scenario.
type Pair struct {
	// Transports names the two flows ("rdt", "quic-go").
	Transports [2]string
	// Bytes is what each flow had received when the first one finished.
	Bytes [2]int64
	// Window is the time from the start to the first flow's end: the
	// time both shared the bottleneck.
	Window time.Duration
	// Elapsed is each flow's own completion time.
	Elapsed [2]time.Duration
	// Relay holds the relay's counters.
	Relay netimpair.Stats
}

// Share is flow i's part of what both received in the window.
func (p Pair) Share(i int) float64 {
	sum := p.Bytes[0] + p.Bytes[1]
	if sum == 0 {
		return 0
	}
	return float64(p.Bytes[i]) / float64(sum)
}

// Mbps is flow i's goodput over the window, in Mbit/s.
func (p Pair) Mbps(i int) float64 {
	if p.Window <= 0 {
		return 0
	}
	return float64(p.Bytes[i]) * 8 / p.Window.Seconds() / 1e6
}

// Jain is Jain's index of the two flows' goodputs over the window.
func (p Pair) Jain() float64 { return Jain(float64(p.Bytes[0]), float64(p.Bytes[1])) }

// RunPair downloads f twice at once, with transports a and b, through
// one relay of link (both flows share its bottleneck queue). RDT flows
// share one server, quic-go flows one listener; with one of each a
// demultiplexer behind the relay sends each client's packets to its
// server by the first datagram (RDT's magic "RD", else QUIC).
func RunPair(ctx context.Context, f File, dir string, link Link, a, b string) (Pair, error) {
	p := Pair{Transports: [2]string{a, b}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var rdtAddr, quicAddr string
	nRDT, nQUIC := 0, 0
	for _, tr := range p.Transports {
		switch tr {
		case "rdt":
			nRDT++
		case "quic-go":
			nQUIC++
		default:
			return p, fmt.Errorf("bench: unknown transport %q", tr)
		}
	}
	var srv *rdtServer
	if nRDT > 0 {
		var err error
		if srv, err = startRDT(nRDT, 1452); err != nil {
			return p, err
		}
		defer srv.close()
		rdtAddr = srv.addr()
	}
	quicErr := make(chan error, 1)
	if nQUIC > 0 {
		ln, err := listenQUIC()
		if err != nil {
			return p, err
		}
		defer ln.Close()
		quicAddr = ln.Addr().String()
		go func() { quicErr <- serveQUIC(ctx, ln, f.Path, nQUIC) }()
	} else {
		quicErr <- nil
	}
	upstream := rdtAddr
	switch {
	case nQUIC == 2:
		upstream = quicAddr
	case nQUIC == 1 && nRDT == 1:
		d, err := startDemux(rdtAddr, quicAddr)
		if err != nil {
			return p, err
		}
		defer d.close()
		upstream = d.addr()
	}
	addr, relay, err := startRelay(&link, upstream)
	if err != nil {
		return p, err
	}
	defer relay.Close()

	var (
		counters [2]atomic.Int64
		errs     [2]error
		wg       sync.WaitGroup
		first    sync.Once
		snap     = make(chan struct{})
	)
	start := time.Now()
	for i, tr := range p.Transports {
		dst := filepath.Join(dir, fmt.Sprintf("pair%d.out", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch tr {
			case "rdt":
				var tok string
				if tok, errs[i] = srv.token(f); errs[i] != nil {
					break
				}
				_, p.Elapsed[i], errs[i] = fetchRDTWith(ctx, addr, tok, f, dst, 0, &counters[i], true)
			case "quic-go":
				start := time.Now()
				_, errs[i] = fetchQUIC(ctx, addr, f, dst, &counters[i])
				p.Elapsed[i] = time.Since(start)
			}
			first.Do(func() {
				p.Window = time.Since(start)
				p.Bytes[0], p.Bytes[1] = counters[0].Load(), counters[1].Load()
				close(snap)
			})
		}()
	}
	wg.Wait()
	<-snap
	cancel()
	if qerr := <-quicErr; qerr != nil && !errors.Is(qerr, context.Canceled) && errs[0] == nil && errs[1] == nil {
		errs[0] = fmt.Errorf("quic server: %w", qerr)
	}
	p.Relay = relay.Stats()
	return p, errors.Join(errs[0], errs[1])
}

// demux forwards each client's datagrams to one of two upstreams, chosen
// by the client's first datagram, and the answers back.
type demux struct {
	conn      *net.UDPConn
	rdt, quic *net.UDPAddr
	mu        sync.Mutex
	peers     map[netip.AddrPort]*net.UDPConn
	wg        sync.WaitGroup
}

func startDemux(rdtAddr, quicAddr string) (*demux, error) {
	ra, err := net.ResolveUDPAddr("udp", rdtAddr)
	if err != nil {
		return nil, err
	}
	qa, err := net.ResolveUDPAddr("udp", quicAddr)
	if err != nil {
		return nil, err
	}
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	setSockBuffers(c)
	d := &demux{conn: c, rdt: ra, quic: qa, peers: make(map[netip.AddrPort]*net.UDPConn)}
	d.wg.Add(1)
	go d.run()
	return d, nil
}

func (d *demux) addr() string { return d.conn.LocalAddr().String() }

func (d *demux) run() {
	defer d.wg.Done()
	buf := make([]byte, 65535)
	for {
		n, from, err := d.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		d.mu.Lock()
		up := d.peers[from]
		if up == nil {
			to := d.quic
			if n >= 2 && buf[0] == 'R' && buf[1] == 'D' {
				to = d.rdt
			}
			if up, err = net.DialUDP("udp", nil, to); err != nil {
				d.mu.Unlock()
				continue
			}
			setSockBuffers(up)
			d.peers[from] = up
			d.wg.Add(1)
			go d.back(up, from)
		}
		d.mu.Unlock()
		_, _ = up.Write(buf[:n])
	}
}

// back copies one upstream's answers to its client.
func (d *demux) back(up *net.UDPConn, client netip.AddrPort) {
	defer d.wg.Done()
	buf := make([]byte, 65535)
	for {
		n, err := up.Read(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue // e.g. ECONNREFUSED before the server answers
		}
		_, _ = d.conn.WriteToUDPAddrPort(buf[:n], client)
	}
}

func (d *demux) close() {
	d.conn.Close()
	d.mu.Lock()
	for _, up := range d.peers {
		up.Close()
	}
	d.mu.Unlock()
	d.wg.Wait()
}

func setSockBuffers(c *net.UDPConn) {
	_ = c.SetReadBuffer(4 << 20)
	_ = c.SetWriteBuffer(4 << 20)
}
