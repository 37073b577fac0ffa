package rdt

import (
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"time"

	"go.uber.org/zap"

	"opsassist/internal/partfile"
)

// PartSuffix is appended to the destination path while downloading.
const PartSuffix = partfile.Suffix

// RecordSuffix is appended to PATH.part to name the record of received
// ranges that makes a download resumable.
const RecordSuffix = partfile.RecordSuffix

// Client defaults.
const (
	// DefaultFirstPacketTimeout is how long Download waits for any RDT
	// packet before giving up with ErrNoResponse.
	DefaultFirstPacketTimeout = 3 * time.Second
	// DefaultIdleTimeout is how long Download waits for the server in the
	// middle of a transfer.
	DefaultIdleTimeout = 10 * time.Second
	// requestRetry is the first wait before the REQUEST goes out again,
	// doubling to a second: before a RETRY measured the round trip a lost
	// REQUEST or RETRY costs this, so it is short — a REQUEST repeated
	// too early costs a RETRY no larger than it, nothing more.
	requestRetry = 25 * time.Millisecond
	// cookieRetryMin is the least wait before the REQUEST with a cookie
	// goes out again; it is otherwise twice the RETRY's round trip.
	cookieRetryMin = 10 * time.Millisecond
	cookieRetryMax = 200 * time.Millisecond
	progressEvery  = 100 * time.Millisecond
	recordEvery    = 500 * time.Millisecond
	doneAcks       = 3
)

// ClientConfig configures Download. The zero value of each optional field
// means the default in its comment.
type ClientConfig struct {
	// Addr is the server's UDP address, host:port. Required.
	Addr string
	// Token is the download token. Required.
	Token string
	// Path is where the file goes. Required. PATH.part and
	// PATH.part.rdt hold a partial download.
	Path string
	// SHA256, if set (hex), is the checksum the file must have; a token
	// for another file is refused.
	SHA256 string
	// Progress, if set, is called about every 100 ms and once at the
	// end, from a goroutine of its own (never the one reading packets;
	// calls do not overlap, a slow callback only skips snapshots), and
	// never after Download returned.
	Progress func(Progress)
	// Logger receives debug logs. Default: discard.
	Logger *zap.Logger
	// FirstPacketTimeout: no RDT packet within it fails with
	// ErrNoResponse. Default 3s.
	FirstPacketTimeout time.Duration
	// IdleTimeout: a server silent this long mid-transfer fails with
	// ErrTimeout (run again to resume). Default 10s.
	IdleTimeout time.Duration
	// MaxPayload is the largest DATA payload to ask for, in
	// [MinPayload, MaxPayload]. Default 1200.
	MaxPayload int
	// Window is the receive window in packets. Default 4096.
	Window int
	// Conn, if set, is the socket to use; Download does not close it.
	// Default: a new UDP socket.
	Conn net.PacketConn
	// SmallDatagrams keeps every DATA at MaxPayload or less: the client
	// sends no CAPS, so the server does not probe the path for larger
	// datagrams. Default false.
	SmallDatagrams bool
	// Socket turns off fast paths of the socket (batched receives, GRO)
	// for tests and misbehaving kernels. Default: every fast path the
	// kernel offers; GRO only on a socket Download opens itself.
	Socket SocketOptions
}

func (c *ClientConfig) populate() error {
	if c.Addr == "" || c.Token == "" || c.Path == "" {
		return fmt.Errorf("%w: Addr, Token and Path are required", ErrBadConfig)
	}
	if len(c.Token) > MaxTokenLen {
		return fmt.Errorf("%w: token longer than %d bytes", ErrBadConfig, MaxTokenLen)
	}
	if c.SHA256 != "" {
		if b, err := hex.DecodeString(c.SHA256); err != nil || len(b) != 32 {
			return fmt.Errorf("%w: SHA256 is not 64 hex digits", ErrBadConfig)
		}
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	if c.FirstPacketTimeout <= 0 {
		c.FirstPacketTimeout = DefaultFirstPacketTimeout
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.MaxPayload == 0 {
		c.MaxPayload = DefaultPayload
	}
	if c.MaxPayload < MinPayload || c.MaxPayload > MaxPayload {
		return fmt.Errorf("%w: MaxPayload %d not in [%d, %d]", ErrBadConfig, c.MaxPayload, MinPayload, MaxPayload)
	}
	if c.Window <= 0 {
		c.Window = DefaultWindow
	}
	return nil
}

// Download fetches the file named by cfg.Token into cfg.Path and returns
// once its SHA-256 matched and it was renamed into place. An interrupted
// download leaves PATH.part and its record; calling Download again with
// the same token (or the same SHA256) fetches only what is missing.
func Download(ctx context.Context, cfg ClientConfig) (Stats, error) {
	if err := cfg.populate(); err != nil {
		return Stats{}, err
	}
	raddr, err := net.ResolveUDPAddr("udp", cfg.Addr)
	if err != nil {
		return Stats{}, fmt.Errorf("rdt: resolving %s: %w", cfg.Addr, err)
	}
	part, err := partfile.Open(cfg.Path, partfile.ID{Token: cfg.Token, SHA256: cfg.SHA256}, cfg.Logger)
	if err != nil {
		return Stats{}, fmt.Errorf("rdt: %w", err)
	}
	defer part.Close()
	pc := cfg.Conn
	if pc == nil {
		pc, err = net.ListenUDP("udp", nil)
		if err != nil {
			return Stats{}, fmt.Errorf("rdt: %w", err)
		}
		defer pc.Close()
		SetSocketBuffers(pc)
	}
	d := &download{cfg: &cfg, part: part, sock: newSocket(pc, raddr, cfg.Conn == nil, cfg.Socket, cfg.Logger)}
	return d.run(ctx)
}

// expectedSum is the SHA-256 the file must have: the one asked for, or
// the one the resumed record names; zero for any.
func expectedSum(cfg *ClientConfig, part *partfile.File) [32]byte {
	sum := cfg.SHA256
	if sum == "" {
		sum = part.SHA256()
	}
	b, err := hex.DecodeString(sum)
	if err != nil || len(b) != 32 {
		return [32]byte{}
	}
	return [32]byte(b)
}
