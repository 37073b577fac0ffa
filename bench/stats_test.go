package bench

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestIdeal(t *testing.T) {
	// 1 MiB at 100 Mbit/s, 20 ms RTT: 40 ms + 83.886 ms.
	if got, want := Ideal(1<<20, 100_000_000, 20*time.Millisecond, 0), 40*time.Millisecond+83886080*time.Nanosecond; got != want {
		t.Errorf("no loss: %v, want %v", got, want)
	}
	// 10 % loss leaves 90 Mbit/s of goodput.
	got := Ideal(1<<20, 100_000_000, 20*time.Millisecond, 0.1)
	n := 83886080.0
	if want := 40*time.Millisecond + time.Duration(n/0.9); got < want-time.Microsecond || got > want+time.Microsecond {
		t.Errorf("10%% loss: %v, want %v", got, want)
	}
	if Ideal(1<<20, 0, 20*time.Millisecond, 0) != 0 || Ideal(1, 1e6, 0, 1) != 0 {
		t.Error("no rate or total loss must give 0")
	}
}

func TestJain(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{50, 50}, 1},
		{[]float64{100, 0}, 0.5},
		{[]float64{60, 40}, 100 * 100 / (2 * (3600 + 1600.0))},
		{[]float64{1, 1, 1, 0}, 0.75},
		{nil, 0},
		{[]float64{0, 0}, 0},
	} {
		if got := Jain(c.xs...); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Jain(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

func TestSpreadOf(t *testing.T) {
	rs := []Result{{Bytes: 100, Elapsed: 30}, {Bytes: 100, Elapsed: 10}, {Bytes: 100, Elapsed: 20}, {Bytes: 100, Elapsed: 50}}
	sp := SpreadOf(rs)
	if sp.Min != 10 || sp.Max != 50 || sp.Median != 30 {
		t.Errorf("spread %+v", sp)
	}
	// The median time is the median goodput's run.
	if m := Median(rs); m.Elapsed != sp.Median {
		t.Errorf("median goodput run %v, median time %v", m.Elapsed, sp.Median)
	}
	if sp := SpreadOf(rs[:3]); sp.Median != 20 {
		t.Errorf("odd count: %+v", sp)
	}
	if (SpreadOf(nil) != Spread{}) {
		t.Error("empty")
	}
	if s := (Spread{Min: time.Millisecond, Median: 2 * time.Millisecond, Max: 3 * time.Millisecond}).String(); s != "1/2/3" {
		t.Error(s)
	}
}

func TestBDPBytes(t *testing.T) {
	if got := BDPBytes(100_000_000, 20*time.Millisecond); got != 250_000 {
		t.Errorf("100 Mbit/s × 20 ms = %d B", got)
	}
	if got := BDPBytes(1_000_000_000, 20*time.Millisecond); got != 2_500_000 {
		t.Errorf("1 Gbit/s × 20 ms = %d B", got)
	}
	p := Plan{Rate: 100_000_000, Delay: 10 * time.Millisecond}
	if p.queue(p.Rate) != 250_000 || p.queue(1_000_000_000) != 2_500_000 {
		t.Errorf("default queues %d %d", p.queue(p.Rate), p.queue(1_000_000_000))
	}
	p.QueueBytes = 1000
	if p.queue(p.Rate) != 1000 || p.queue(1_000_000_000) != 2_500_000 {
		t.Error("an explicit queue applies to the plan's rate only")
	}
}

func TestPairShares(t *testing.T) {
	p := Pair{Bytes: [2]int64{600, 400}, Window: time.Second}
	if p.Share(0) != 0.6 || p.Share(1) != 0.4 || math.Abs(p.Jain()-Jain(600, 400)) > 1e-12 {
		t.Errorf("shares %v %v, Jain %v", p.Share(0), p.Share(1), p.Jain())
	}
	if p.Mbps(0) != 600*8/1e6 {
		t.Error(p.Mbps(0))
	}
	if (Pair{}).Share(0) != 0 || (Pair{}).Mbps(0) != 0 {
		t.Error("empty pair")
	}
}

// TestMarkdownRows renders the fast row, the ideal columns and the
// fairness table from made-up results.
func TestMarkdownRows(t *testing.T) {
	f := File{Size: 1 << 20}
	cell := func(tr string, ms ...int) *Cell {
		c := &Cell{}
		for _, m := range ms {
			c.Runs = append(c.Runs, Result{Transport: tr, Bytes: f.Size, Elapsed: time.Duration(m) * time.Millisecond})
		}
		return c
	}
	rep := Report{
		Plan: Plan{File: f, Rate: 100_000_000, Delay: 10 * time.Millisecond},
		Rows: []Row{
			{Loss: -1, Cells: map[string]*Cell{"rdt": cell("rdt", 10), "quic-go": cell("quic-go", 5), "tcp": cell("tcp", 2)}},
			{Loss: 0, Cells: map[string]*Cell{"rdt": cell("rdt", 150, 124, 200), "quic-go": cell("quic-go", 300)}},
			{Loss: 0, Rate: 1_000_000_000, Cells: map[string]*Cell{"rdt": cell("rdt", 50)}},
		},
		Pairs: []PairCell{{Transports: [2]string{"rdt", "quic-go"}, Runs: []Pair{{Bytes: [2]int64{600, 400}, Window: time.Second}}}},
	}
	md := rep.Markdown()
	for _, want := range []string{
		"| 0 % (no bottleneck, loopback) | 838.9 | 1677.7 | 4194.3 | 10/10/10 | — | — | 5/5/5 | 0.500 | 0.200 |",
		"| 0 % | 55.9 | 28.0 | — | 124/150/200 | 1.21 | 1.61 | 300/300/300 | 2.000 | — | 56 % |",
		"| 0 % (1 Gbit/s bottleneck) |",
		"| rdt + quic-go | 0.0 + 0.0 | 60 % / 40 % | 0.962 / 0.962 / 0.962 | 40 % |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
}
