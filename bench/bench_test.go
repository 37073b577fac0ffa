package bench

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	os.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true")
	os.Exit(m.Run())
}

// TestTransports moves a small file with every transport through a
// lossy relay (TCP over plain loopback) and renders the table.
func TestTransports(t *testing.T) {
	dir := t.TempDir()
	f, err := MakeFile(dir, "f.bin", 1<<20+123, 7)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var log strings.Builder
	plan := Plan{
		File: f, Dir: dir, Runs: 1, Losses: []float64{0.02}, Rate: 50_000_000, Delay: time.Millisecond,
		Transports: []string{"rdt", "quic-go"}, Baseline: true, Timeout: 30 * time.Second, Log: &log,
	}
	rep := plan.Run(ctx)
	t.Log("\n" + log.String())
	for _, row := range rep.Rows {
		for tr, c := range row.Cells {
			for _, err := range c.Errors {
				t.Errorf("loss %v %s: %v", row.Loss, tr, err)
			}
			for _, r := range c.Runs {
				if r.Bytes != f.Size || r.Goodput() <= 0 {
					t.Errorf("loss %v %s: %+v", row.Loss, tr, r)
				}
				if row.Loss > 0 && r.Relay.Reverse.Lost == 0 {
					t.Errorf("loss %v %s: relay lost nothing", row.Loss, tr)
				}
			}
		}
	}
	md := rep.Markdown()
	if !strings.Contains(md, "| 2 % |") || !strings.Contains(md, "no bottleneck") {
		t.Errorf("table:\n%s", md)
	}
}

func TestMakeFileDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, err := MakeFile(dir, "a", 100000, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := MakeFile(dir, "b", 100000, 3)
	c, _ := MakeFile(dir, "c", 100000, 4)
	if a.SHA256 != b.SHA256 || a.SHA256 == c.SHA256 {
		t.Errorf("checksums %s %s %s", a.SHA256, b.SHA256, c.SHA256)
	}
}

func TestMedian(t *testing.T) {
	rs := []Result{{Bytes: 100, Elapsed: 3}, {Bytes: 100, Elapsed: 1}, {Bytes: 100, Elapsed: 2}}
	if m := Median(rs); m.Elapsed != 2 {
		t.Errorf("median %+v", m)
	}
	if m := Median(rs[:2]); m.Elapsed != 3 {
		t.Errorf("lower median of two %+v", m)
	}
}

// TestRunPair moves a file twice at once through one bottleneck, two
// RDT flows and then RDT with quic-go (through the demultiplexer), and
// checks both flows got bytes in the shared window.
func TestRunPair(t *testing.T) {
	dir := t.TempDir()
	f, err := MakeFile(dir, "f.bin", 2<<20, 9)
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]string{{"rdt", "rdt"}, {"rdt", "quic-go"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		link := Link{Rate: 50_000_000, Delay: time.Millisecond, QueueBytes: BDPBytes(50_000_000, 2*time.Millisecond) + 16<<10, Seed: 1}
		p, err := RunPair(ctx, f, dir, link, pair[0], pair[1])
		cancel()
		if err != nil {
			t.Fatalf("%v: %v", pair, err)
		}
		t.Logf("%v: %.1f + %.1f Mbit/s over %v, Jain %.3f", pair, p.Mbps(0), p.Mbps(1), p.Window, p.Jain())
		if p.Window <= 0 || p.Bytes[0] <= 0 || p.Bytes[1] <= 0 || p.Bytes[0] > f.Size || p.Bytes[1] > f.Size {
			t.Errorf("%v: %+v", pair, p)
		}
		if p.Bytes[0] != f.Size && p.Bytes[1] != f.Size {
			t.Errorf("%v: neither flow was complete when the first ended: %+v", pair, p.Bytes)
		}
		if p.Relay.Clients < 2 {
			t.Errorf("%v: %d relay clients", pair, p.Relay.Clients)
		}
	}
	if _, err := RunPair(context.Background(), f, dir, Link{}, "rdt", "tcp"); err == nil {
		t.Error("tcp accepted in a pair")
	}
}

// TestPeerLossMax: above PeerLossMax the peers run only at 0 % loss;
// RDT runs everywhere.
func TestPeerLossMax(t *testing.T) {
	dir := t.TempDir()
	f, err := MakeFile(dir, "f.bin", 4000, 3)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	plan := Plan{File: f, Dir: dir, Runs: 1, Losses: []float64{0, 0.01}, Rate: 50_000_000, Delay: time.Millisecond,
		Transports: []string{"rdt", "quic-go"}, Timeout: 30 * time.Second, PeerLossMax: 1000}
	rep := plan.Run(ctx)
	if len(rep.Rows) != 2 || rep.Rows[0].Cells["quic-go"] == nil || rep.Rows[1].Cells["quic-go"] != nil || rep.Rows[1].Cells["rdt"] == nil {
		t.Fatalf("rows %+v", rep.Rows)
	}
}
