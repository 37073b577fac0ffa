// Package bench compares opsassist's RDT with quic-go and plain TCP by
// moving the same file through the same netimpair relay. It lives in its
// own module so the peers (quic-go) stay out of the product's go.mod.
//
// Every Run* function starts a fresh server (and relay, if a Link is
// given), downloads the file once into a directory, checks its SHA-256
// and tears everything down, so runs do not share state. The rdtbench
// command (cmd/rdtbench) runs the matrix and prints the table recorded in
// docs/benchmarks.md.
package bench

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"opsassist/netimpair"
)

// ErrChecksum means a downloaded file's SHA-256 did not match.
var ErrChecksum = errors.New("bench: checksum mismatch")

// File is a test file on disk.
type File struct {
	// Path is where the file is.
	Path string
	// Size is its length in bytes.
	Size int64
	// SHA256 is its checksum, hex.
	SHA256 string
}

// MakeFile writes size pseudo-random bytes (seeded, so reproducible)
// to dir/name and returns it.
func MakeFile(dir, name string, size int64, seed uint64) (File, error) {
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		return File{}, err
	}
	h := sha256.New()
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	rng := rand.NewChaCha8(key)
	if _, err := io.CopyN(io.MultiWriter(f, h), rng, size); err != nil {
		f.Close()
		return File{}, err
	}
	if err := f.Close(); err != nil {
		return File{}, err
	}
	return File{Path: p, Size: size, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// Link describes the emulated path between client and server. Rate,
// Delay and Loss apply to both directions.
type Link struct {
	// Rate is the bottleneck in bit/s; 0 means none.
	Rate int64
	// Delay is the one-way delay.
	Delay time.Duration
	// Loss is the Bernoulli loss probability per direction.
	Loss float64
	// QueueBytes is the bottleneck queue; 0 means netimpair's default.
	QueueBytes int
	// Seed seeds the relay.
	Seed uint64
}

// RelayConfig returns the netimpair configuration of l in front of
// upstream.
func (l Link) RelayConfig(upstream string) netimpair.Config {
	im := netimpair.Impairment{Rate: l.Rate, Delay: l.Delay, Loss: l.Loss, QueueBytes: l.QueueBytes}
	return netimpair.Config{Upstream: upstream, Forward: im, Reverse: im, Seed: l.Seed}
}

// Result is one download.
type Result struct {
	// Transport is "rdt", "quic-go" or "tcp".
	Transport string
	// Bytes is the file size.
	Bytes int64
	// Elapsed is the time from the first packet to the verified file.
	Elapsed time.Duration
	// PacketsSent, Retransmits and Spurious are the sender's DATA
	// counters (RDT only).
	PacketsSent, Retransmits, Spurious int64
	// ImpliedSpurious is Retransmits minus the packets the relay dropped
	// on the way to the client: an estimate of needless retransmissions
	// independent of the sender's own count (RDT behind a relay only).
	ImpliedSpurious int64
	// MaxStall is the longest time without new file data arriving after
	// the first (RDT only).
	MaxStall time.Duration
	// Relay holds the relay's counters, if a relay was used.
	Relay netimpair.Stats
}

// Goodput is the file size over the elapsed time, in Mbit/s.
func (r Result) Goodput() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Bytes) * 8 / r.Elapsed.Seconds() / 1e6
}

// SpuriousPct is the share of DATA packets retransmitted needlessly, in
// percent.
func (r Result) SpuriousPct() float64 {
	if r.PacketsSent == 0 {
		return 0
	}
	return 100 * float64(r.Spurious) / float64(r.PacketsSent)
}

// Median returns the result with the median goodput (the lower middle
// one for an even count).
func Median(rs []Result) Result {
	if len(rs) == 0 {
		return Result{}
	}
	s := slices.Clone(rs)
	slices.SortFunc(s, func(a, b Result) int {
		switch ga, gb := a.Goodput(), b.Goodput(); {
		case ga < gb:
			return -1
		case ga > gb:
			return 1
		}
		return 0
	})
	return s[(len(s)-1)/2]
}

// hashingFile writes to a file and hashes what it wrote.
type hashingFile struct {
	f *os.File
	h interface {
		io.Writer
		Sum([]byte) []byte
	}
}

func createHashing(path string) (*hashingFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &hashingFile{f: f, h: sha256.New()}, nil
}

func (w *hashingFile) Write(b []byte) (int, error) {
	w.h.Write(b)
	return w.f.Write(b)
}

// finish makes the file durable, closes it and checks its checksum
// against want. The fsync is the work RDT's client does before it
// reports a download done (rdt.Download syncs the file, renames it into
// place and syncs the directory): every transport's time ends with the
// file on disk, so none is timed for less work than another.
func (w *hashingFile) finish(want string) error {
	if err := w.f.Sync(); err != nil {
		w.f.Close()
		return err
	}
	if err := w.f.Close(); err != nil {
		return err
	}
	if got := hex.EncodeToString(w.h.Sum(nil)); got != want {
		return fmt.Errorf("%w: got %s, want %s", ErrChecksum, got, want)
	}
	return nil
}

// startRelay starts a relay for link in front of upstream, or returns
// upstream itself when link is nil.
func startRelay(link *Link, upstream string) (addr string, r *netimpair.Relay, err error) {
	if link == nil {
		return upstream, nil, nil
	}
	r, err = netimpair.New(link.RelayConfig(upstream))
	if err != nil {
		return "", nil, err
	}
	return r.Addr().String(), r, nil
}
