package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"opsassist/rdt"
	"opsassist/storage/tokens"
	"opsassist/transport/rdtserver"
)

// RunRDT downloads f with opsassist's RDT: a fresh rdtserver.Server on
// loopback (behind a relay if link is not nil) and rdt.Download into
// dir, asking for DATA payloads of payload bytes (0: RDT's default).
// Spurious retransmissions come from the server's TransferStats;
// the longest stall is measured on the client's socket behind a relay,
// and taken from the client's Stats without one.
func RunRDT(ctx context.Context, f File, dir string, link *Link, payload int) (Result, error) {
	res := Result{Transport: "rdt", Bytes: f.Size}
	// The relay runs on loopback and emulates no MTU: behind it, path
	// MTU probing is capped at a 1500-byte Ethernet path, as a WAN's.
	maxDatagram := 0
	if link != nil {
		maxDatagram = 1452
	}
	srv, err := startRDT(1, maxDatagram)
	if err != nil {
		return res, err
	}
	defer srv.close()
	addr, relay, err := startRelay(link, srv.addr())
	if err != nil {
		return res, err
	}
	if relay != nil {
		defer relay.Close()
	}
	tok, err := srv.token(f)
	if err != nil {
		return res, err
	}
	// Through a relay the client's socket is wrapped to measure stalls;
	// without one Download opens its own, as the CLI does, so its fast
	// paths (recvmmsg, GRO) are measured, and the stall is its own
	// (rdt.Stats.MaxStall: the same definition).
	stall, elapsed, err := fetchRDTWith(ctx, addr, tok, f, filepath.Join(dir, "rdt.out"), payload, nil, link != nil)
	res.Elapsed = elapsed
	if err != nil {
		return res, err
	}
	select {
	case ts := <-srv.done:
		res.PacketsSent, res.Retransmits, res.Spurious = ts.PacketsSent, ts.Retransmits, ts.Spurious
	case <-time.After(5 * time.Second):
		return res, errors.New("rdt: server never reported the transfer")
	case <-ctx.Done():
		return res, ctx.Err()
	}
	res.MaxStall = stall
	if relay != nil {
		res.Relay = relay.Stats()
		rev := res.Relay.Reverse
		res.ImpliedSpurious = max(0, res.Retransmits-int64(rev.Dropped()))
	}
	return res, nil
}

// rdtServer is an rdtserver.Server on a loopback socket, its token store
// and the stats of the transfers it finished.
type rdtServer struct {
	srv      *rdtserver.Server
	pc       net.PacketConn
	store    *tokens.Store
	done     chan rdtserver.TransferStats
	serveErr chan error
}

// startRDT starts a server that reports up to n finished transfers.
func startRDT(n, maxDatagram int) (*rdtServer, error) {
	s := &rdtServer{store: tokens.NewStore(10 * time.Minute), done: make(chan rdtserver.TransferStats, n), serveErr: make(chan error, 1)}
	srv, err := rdtserver.NewServer(rdtserver.ServerConfig{
		Tokens:      s.store,
		MaxDatagram: maxDatagram,
		OnTransfer: func(ts rdtserver.TransferStats) {
			select {
			case s.done <- ts:
			default:
			}
		},
	})
	if err != nil {
		return nil, err
	}
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	s.srv, s.pc = srv, pc
	go func() { s.serveErr <- srv.Serve(pc) }()
	return s, nil
}

func (s *rdtServer) addr() string { return s.pc.LocalAddr().String() }

// token issues a download token for f.
func (s *rdtServer) token(f File) (string, error) {
	tok, err := s.store.Issue(tokens.Token{Path: f.Path, Filename: filepath.Base(f.Path), Size: f.Size, SHA256: f.SHA256}, time.Now())
	return tok.ID, err
}

func (s *rdtServer) close() {
	s.srv.Close()
	<-s.serveErr
}

// fetchRDTWith downloads f with token tok from addr into dst, checks it
// and removes it, and returns the longest stall. With wrap, the client's
// socket is a stallMeter, which measures the stall and adds the new file
// bytes to received (if not nil) as they arrive; without, Download opens
// its own socket and the stall is its client's (rdt.Stats.MaxStall).
func fetchRDTWith(ctx context.Context, addr, tok string, f File, dst string, payload int, received *atomic.Int64, wrap bool) (time.Duration, time.Duration, error) {
	var conn net.PacketConn
	var meter *stallMeter
	if wrap {
		cpc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			return 0, 0, err
		}
		defer cpc.Close()
		_ = cpc.SetReadBuffer(4 << 20)
		meter = &stallMeter{UDPConn: cpc, seen: make(map[uint64]struct{}), received: received}
		conn = meter
	}
	defer os.Remove(dst)
	start := time.Now()
	st, err := rdt.Download(ctx, rdt.ClientConfig{Addr: addr, Token: tok, Path: dst, SHA256: f.SHA256, Conn: conn, MaxPayload: payload})
	elapsed := time.Since(start)
	stall := st.MaxStall
	if meter != nil {
		stall = meter.maxStall()
	}
	if err != nil {
		return stall, elapsed, fmt.Errorf("rdt download: %w", err)
	}
	if st.Size != f.Size {
		return stall, elapsed, fmt.Errorf("rdt: size %d, want %d", st.Size, f.Size)
	}
	// Download verified the SHA-256 before renaming into place; check
	// the file anyway.
	if fi, err := os.Stat(dst); err != nil || fi.Size() != f.Size {
		return stall, elapsed, errors.New("rdt: file missing or short")
	}
	return stall, elapsed, nil
}

// stallMeter wraps the client's socket and measures the longest time
// between two DATA packets that brought bytes not seen before.
type stallMeter struct {
	*net.UDPConn
	mu    sync.Mutex
	seen  map[uint64]struct{} // DATA offsets received
	last  time.Time
	stall time.Duration
	// received, if not nil, counts the file bytes not seen before (a
	// fairness run's per-flow counter).
	received *atomic.Int64
}

// ReadFrom reads a datagram and notes when it carried new file data.
func (m *stallMeter) ReadFrom(b []byte) (int, net.Addr, error) {
	n, addr, err := m.UDPConn.ReadFrom(b)
	if err == nil {
		if p, perr := rdt.Parse(b[:n]); perr == nil && p.Type == rdt.TypeData && len(p.Payload) > 0 {
			m.note(p.Offset, len(p.Payload))
		}
	}
	return n, addr, err
}

func (m *stallMeter) note(off uint64, n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.seen[off]; ok {
		return
	}
	m.seen[off] = struct{}{}
	if m.received != nil {
		m.received.Add(int64(n))
	}
	now := time.Now()
	if !m.last.IsZero() {
		m.stall = max(m.stall, now.Sub(m.last))
	}
	m.last = now
}

func (m *stallMeter) maxStall() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stall
}
