package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
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
	store := tokens.NewStore(10 * time.Minute)
	tok, err := store.Issue(tokens.Token{Path: f.Path, Filename: filepath.Base(f.Path), Size: f.Size, SHA256: f.SHA256}, time.Now())
	if err != nil {
		return res, err
	}
	done := make(chan rdtserver.TransferStats, 1)
	cfg := rdtserver.ServerConfig{
		Tokens:     store,
		OnTransfer: func(ts rdtserver.TransferStats) { done <- ts },
	}
	if link != nil {
		// The relay runs on loopback and emulates no MTU: cap path MTU
		// probing at a 1500-byte Ethernet path, as a WAN would.
		cfg.MaxDatagram = 1452
	}
	srv, err := rdtserver.NewServer(cfg)
	if err != nil {
		return res, err
	}
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return res, err
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(pc) }()
	defer func() {
		srv.Close()
		<-serveErr
	}()
	addr, relay, err := startRelay(link, pc.LocalAddr().String())
	if err != nil {
		return res, err
	}
	if relay != nil {
		defer relay.Close()
	}

	// Through a relay the client's socket is wrapped to measure stalls;
	// without one Download opens its own, as the CLI does, so its fast
	// paths (recvmmsg, GRO) are measured, and the stall is its own
	// (rdt.Stats.MaxStall: the same definition).
	var conn net.PacketConn
	var meter *stallMeter
	if link != nil {
		cpc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			return res, err
		}
		defer cpc.Close()
		_ = cpc.SetReadBuffer(4 << 20)
		meter = &stallMeter{UDPConn: cpc, seen: make(map[uint64]struct{})}
		conn = meter
	}
	dst := filepath.Join(dir, "rdt.out")
	defer os.Remove(dst)
	start := time.Now()
	st, err := rdt.Download(ctx, rdt.ClientConfig{Addr: addr, Token: tok.ID, Path: dst, SHA256: f.SHA256, Conn: conn, MaxPayload: payload})
	res.Elapsed = time.Since(start)
	if err != nil {
		return res, fmt.Errorf("rdt download: %w", err)
	}
	if st.Size != f.Size {
		return res, fmt.Errorf("rdt: size %d, want %d", st.Size, f.Size)
	}
	// Download verified the SHA-256 before renaming into place; check
	// the file anyway.
	if fi, err := os.Stat(dst); err != nil || fi.Size() != f.Size {
		return res, errors.New("rdt: file missing or short")
	}
	select {
	case ts := <-done:
		res.PacketsSent, res.Retransmits, res.Spurious = ts.PacketsSent, ts.Retransmits, ts.Spurious
	case <-time.After(5 * time.Second):
		return res, errors.New("rdt: server never reported the transfer")
	case <-ctx.Done():
		return res, ctx.Err()
	}
	res.MaxStall = st.MaxStall
	if meter != nil {
		res.MaxStall = meter.maxStall()
	}
	if relay != nil {
		res.Relay = relay.Stats()
		rev := res.Relay.Reverse
		res.ImpliedSpurious = max(0, res.Retransmits-int64(rev.Dropped()))
	}
	return res, nil
}

// stallMeter wraps the client's socket and measures the longest time
// between two DATA packets that brought bytes not seen before.
type stallMeter struct {
	*net.UDPConn
	mu    sync.Mutex
	seen  map[uint64]struct{} // DATA offsets received
	last  time.Time
	stall time.Duration
}

// ReadFrom reads a datagram and notes when it carried new file data.
func (m *stallMeter) ReadFrom(b []byte) (int, net.Addr, error) {
	n, addr, err := m.UDPConn.ReadFrom(b)
	if err == nil {
		if p, perr := rdt.Parse(b[:n]); perr == nil && p.Type == rdt.TypeData && len(p.Payload) > 0 {
			m.note(p.Offset)
		}
	}
	return n, addr, err
}

func (m *stallMeter) note(off uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.seen[off]; ok {
		return
	}
	m.seen[off] = struct{}{}
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
