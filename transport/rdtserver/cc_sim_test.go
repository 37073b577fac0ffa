package rdtserver

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"
)

// The path of the benchmark: 100 Mbit/s, 20 ms RTT, a drop-tail
// queue of one BDP.
const (
	simRate  = 100e6
	simDelay = 10 * time.Millisecond
)

// TestSimStartupFillsWithoutOverflow: a transfer reaches the bottleneck
// rate within a few round trips, and its start-up does not overflow a
// one-BDP queue — at most a few packets at the very end of startup, when
// the estimate meets the bottleneck rate and the window reaches
// 2 × BDP (before this controller, startup lost 197 packets there).
func TestSimStartupFillsWithoutOverflow(t *testing.T) {
	n := newSimNet(t, simConfig{rate: simRate, delay: simDelay, seed: 1})
	f := n.addFlow(16<<20, n.now, 0)
	n.run(n.now.Add(10 * time.Second))
	if f.doneAt.IsZero() {
		t.Fatal("transfer did not finish")
	}
	if !f.firstDropAt.IsZero() && f.firstDropAt.Sub(f.start) < 5*n.rtt() {
		t.Errorf("queue overflowed %v after the start in mode %d", f.firstDropAt.Sub(f.start), f.firstDropMode)
	}
	if f.queueDrops > 16 {
		t.Errorf("%d packets dropped by the queue", f.queueDrops)
	}
	perRTT := simRate / 8 * n.rtt().Seconds()
	for rtt := 6; rtt < 20; rtt++ {
		from := f.start.Add(time.Duration(rtt) * n.rtt())
		if got := float64(n.bytesIn(f, from, from.Add(n.rtt()))); got < 0.9*perRTT {
			t.Errorf("round trip %d delivered %.0f bytes, %.0f%% of the link", rtt, got, 100*got/perRTT)
		}
	}
}

// TestSimShortTransfers: 1 MiB and 16 MiB at 0–10 % random loss finish
// within 1.5× the ideal time at the median of five seeds and 2.5× at the
// worst — the ideal being 2×RTT + size / (rate × (1 − loss)), and the
// simulated time plus the 1.5 RTT of the handshake that the simulation
// starts after.
func TestSimShortTransfers(t *testing.T) {
	cases := []struct {
		size   int
		losses []float64
		seeds  int
	}{
		{1 << 20, []float64{0, 0.01, 0.05, 0.10}, 5},
		// 16 MiB costs a second per run under -race: the ends only.
		{16 << 20, []float64{0.01, 0.10}, 3},
	}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, c := range cases {
		for _, loss := range c.losses {
			size := c.size
			t.Run(fmt.Sprintf("%dMiB/loss%.0f%%", size>>20, loss*100), func(t *testing.T) {
				var ratios []float64
				for seed := range c.seeds {
					n := newSimNet(t, simConfig{rate: simRate, delay: simDelay, loss: loss, seed: uint64(seed + 1)})
					f := n.addFlow(size, n.now, 0)
					n.run(n.now.Add(30 * time.Second))
					if f.doneAt.IsZero() {
						t.Fatalf("seed %d: did not finish", seed+1)
					}
					ideal := 2*n.rtt() + time.Duration(float64(size)*8/(simRate*(1-loss))*float64(time.Second))
					got := f.completion() + 3*n.rtt()/2
					ratios = append(ratios, float64(got)/float64(ideal))
				}
				slices.Sort(ratios)
				med, worst := ratios[len(ratios)/2], ratios[len(ratios)-1]
				t.Logf("completion / ideal: median %.2f, worst %.2f (%.2f)", med, worst, ratios)
				if med > 1.5 || worst > 2.5 {
					t.Errorf("median %.2f (want ≤ 1.5), worst %.2f (want ≤ 2.5)", med, worst)
				}
			})
		}
	}
}

// simRatio runs one transfer of size bytes at random loss loss with
// seed and returns its completion time (plus the handshake's 1.5 RTT)
// over the ideal 2×RTT + size / (rate × (1 − loss)), and the flow.
func simRatio(t *testing.T, size int, loss float64, seed uint64) (float64, *simFlow) {
	t.Helper()
	n := newSimNet(t, simConfig{rate: simRate, delay: simDelay, loss: loss, seed: seed})
	f := n.addFlow(size, n.now, 0)
	n.run(n.now.Add(30 * time.Second))
	if f.doneAt.IsZero() {
		t.Fatalf("seed %d: did not finish", seed)
	}
	ideal := 2*n.rtt() + time.Duration(float64(size)*8/(simRate*(1-loss))*float64(time.Second))
	return float64(f.completion()+3*n.rtt()/2) / float64(ideal), f
}

// TestSimNearIdealWithoutLoss: at 0 % loss 1 MiB and 16 MiB finish
// within 1.2× the ideal time, without a packet lost to the queue. The
// first flight's ACK dispersion measures the bottleneck one round trip
// after the start (before: 1.30× for 1 MiB, the estimate growing 2.77×
// a round from a quarter of the link).
func TestSimNearIdealWithoutLoss(t *testing.T) {
	for _, size := range []int{1 << 20, 16 << 20} {
		r, f := simRatio(t, size, 0, 1)
		t.Logf("%d MiB: %.2f× the ideal, %d queue drops", size>>20, r, f.queueDrops)
		if r > 1.2 || f.queueDrops > 0 {
			t.Errorf("%d MiB: %.2f× the ideal (want ≤ 1.2), %d queue drops", size>>20, r, f.queueDrops)
		}
	}
}

// TestSimLossyWorstCase: at 10 % random loss the worst of 20 seeds
// finishes 1 MiB within 1.6× the ideal (the issue asks 2.5× on the
// bench, the brief 2× here), and 16 MiB too (8 seeds: a second
// of simulation each under -race). Tail copies and a congestion test
// that allows for sampling noise keep the outliers in (before: 1.87×
// and 1.15× worst of 30).
func TestSimLossyWorstCase(t *testing.T) {
	cases := []struct{ size, seeds int }{{1 << 20, 20}, {16 << 20, 8}}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, c := range cases {
		var ratios []float64
		for seed := range c.seeds {
			r, _ := simRatio(t, c.size, 0.10, uint64(seed+1))
			ratios = append(ratios, r)
		}
		slices.Sort(ratios)
		t.Logf("%d MiB: median %.2f, worst %.2f", c.size>>20, ratios[len(ratios)/2], ratios[len(ratios)-1])
		if w := ratios[len(ratios)-1]; w > 1.6 {
			t.Errorf("%d MiB at 10 %% loss: worst %.2f× the ideal (want ≤ 1.6)", c.size>>20, w)
		}
	}
}

// TestSimNoBackoffCascade: 10 % random loss alone does not make the
// controller back off round after round: a 16 MiB transfer backs off a
// few times at most, and no quarter of a second after the first
// delivers under 75 % of rate × (1 − loss). (Loss in a round counts as
// congestion only beyond the random rate's sampling noise.)
func TestSimNoBackoffCascade(t *testing.T) {
	seeds := 5
	if testing.Short() {
		seeds = 2
	}
	for seed := range seeds {
		n := newSimNet(t, simConfig{rate: simRate, delay: simDelay, loss: 0.10, seed: uint64(seed + 1)})
		f := n.addFlow(16<<20, n.now, 0)
		n.run(n.now.Add(30 * time.Second))
		if f.cc.backoffs > 6 {
			t.Errorf("seed %d: %d backoffs", seed+1, f.cc.backoffs)
		}
		const q = 250 * time.Millisecond
		for from := f.start.Add(q); from.Add(q).Before(f.doneAt); from = from.Add(q) {
			got := float64(n.bytesIn(f, from, from.Add(q))) * 8 / q.Seconds()
			if got < 0.75*simRate*0.9 {
				t.Errorf("seed %d: %.1f Mbit/s at %v", seed+1, got/1e6, from.Sub(f.start))
			}
		}
	}
}

// TestSimTwoFlowsShare: two transfers through one bottleneck at 0 %
// random loss share it fairly (Jain's index ≥ 0.95 per second once both
// run) and keep it busy.
func TestSimTwoFlowsShare(t *testing.T) {
	n := newSimNet(t, simConfig{rate: simRate, delay: simDelay, seed: 1})
	a := n.addFlow(1<<30, n.now, 0)
	b := n.addFlow(1<<30, n.now.Add(n.rtt()), 0)
	end := 4
	if testing.Short() {
		end = 2
	}
	n.run(n.epoch.Add(time.Duration(end) * time.Second))
	for s := 1; s < end; s++ {
		from := n.epoch.Add(time.Duration(s) * time.Second)
		x := float64(n.bytesIn(a, from, from.Add(time.Second)))
		y := float64(n.bytesIn(b, from, from.Add(time.Second)))
		j := (x + y) * (x + y) / (2 * (x*x + y*y))
		t.Logf("second %d: %.1f and %.1f Mbit/s, Jain %.3f", s, x*8/1e6, y*8/1e6, j)
		if j < 0.95 {
			t.Errorf("second %d: Jain's index %.3f", s, j)
		}
		if sum := (x + y) * 8; sum < 0.85*simRate { // PROBE_RTT costs a little
			t.Errorf("second %d: the link carried %.1f Mbit/s", s, sum/1e6)
		}
	}
}

// TestBBRInitialWindow: the first flight is initialWindow packets, or
// with a rate cap the cap's BDP at the handshake's RTT within bounds,
// and it is paced over 1/firstFlightSpread of that RTT (never above the
// cap).
func TestBBRInitialWindow(t *testing.T) {
	now := time.Unix(1000, 0)
	rtt := &rttStats{}
	rtt.seed(20*time.Millisecond, now)
	const mss = 1236
	if w := newBBR(mss, 0, rtt, now).cwnd(); w != initialWindow*mss {
		t.Errorf("no cap: %d", w)
	}
	capped := newBBR(mss, 1e6, rtt, now) // 1 MB/s × 20 ms = 16 packets
	if w := capped.cwnd(); w != 20000 {
		t.Errorf("capped: %d", w)
	}
	if r := capped.pacingRate(); r != 1e6 {
		t.Errorf("capped pacing %v", r)
	}
	if w := newBBR(mss, 1e3, rtt, now).cwnd(); w != minInitialWindow*mss {
		t.Errorf("tiny cap: %d", w)
	}
	if w := newBBR(mss, 1e10, rtt, now).cwnd(); w != maxInitialWindow*mss {
		t.Errorf("huge cap: %d", w)
	}
	if r, want := newBBR(mss, 0, rtt, now).pacingRate(), firstFlightSpread*initialWindow*mss/0.02; r < want*0.999 || r > want*1.001 {
		t.Errorf("first flight paced at %v, want %v", r, want)
	}
}

// TestSimLongTransfer: 128 MiB keeps at least 90 % of rate × (1 − loss)
// at 0–10 % random loss, and a 50 Mbit/s bottleneck with a 32-packet
// queue (a third of the BDP) loses under 5 % of the packets to it.
// RDT_PERF=1 only: it simulates 1.2 million packets.
func TestSimLongTransfer(t *testing.T) {
	if os.Getenv("RDT_PERF") == "" {
		t.Skip("set RDT_PERF=1 to simulate 128 MiB transfers")
	}
	for _, loss := range []float64{0, 0.01, 0.05, 0.10} {
		n := newSimNet(t, simConfig{rate: simRate, delay: simDelay, loss: loss, seed: 3})
		f := n.addFlow(128<<20, n.now, 0)
		n.run(n.now.Add(60 * time.Second))
		good := float64(f.size) * 8 / f.completion().Seconds()
		frac := good / (simRate * (1 - loss))
		t.Logf("loss %.0f%%: %.1f Mbit/s = %.1f%% of rate×(1−loss); queue drops %d, spurious %d, PTOs %d, backoffs %d, random loss estimate %.4f",
			loss*100, good/1e6, 100*frac, f.queueDrops, f.snd.stats.Spurious, f.snd.stats.PTOs, f.cc.backoffs, f.cc.lossAvg)
		if frac < 0.9 {
			t.Errorf("loss %.0f%%: %.1f%% of rate×(1−loss)", loss*100, 100*frac)
		}
	}
	n := newSimNet(t, simConfig{rate: 50e6, delay: simDelay, queueBytes: 32 * 1236, seed: 1})
	f := n.addFlow(16<<20, n.now, 0)
	n.run(n.now.Add(60 * time.Second))
	drops := float64(f.queueDrops) / float64(f.snd.stats.PacketsSent)
	t.Logf("32-packet queue: %.1f Mbit/s, %d of %d packets dropped (%.2f%%)",
		float64(f.size)*8/f.completion().Seconds()/1e6, f.queueDrops, f.snd.stats.PacketsSent, 100*drops)
	if drops > 0.05 {
		t.Errorf("%.2f%% dropped by a shallow queue", 100*drops)
	}
}

// TestSimRenoShare: one RDT flow and one loss-based flow (renoFlow, like
// quic-go's default controller) through a one-BDP queue at 0 % random
// loss: the loss-based flow keeps at least 35 % of the link, and RDT is
// not starved either. (Before RDT's estimate rose only from its own
// probes, it took what Reno freed at every halving and left Reno 14 %.)
func TestSimRenoShare(t *testing.T) {
	n := newSimNet(t, simConfig{rate: simRate, delay: simDelay, seed: 1})
	r := n.addReno()
	f := n.addFlow(1<<30, n.now, 0)
	end := 8 * time.Second
	if testing.Short() {
		end = 5 * time.Second
	}
	n.run(n.epoch.Add(end))
	from, to := n.epoch.Add(2*time.Second), n.epoch.Add(end)
	x, y := float64(n.bytesIn(f, from, to)), float64(n.renoBytesIn(r, from, to))
	secs := to.Sub(from).Seconds()
	t.Logf("RDT %.1f Mbit/s, Reno %.1f Mbit/s: Reno's share %.0f %%", x*8/secs/1e6, y*8/secs/1e6, 100*y/(x+y))
	if y/(x+y) < 0.35 || x/(x+y) < 0.2 {
		t.Errorf("Reno keeps %.0f %% of the link, RDT %.0f %%", 100*y/(x+y), 100*x/(x+y))
	}
}

// TestSimRenoAlone checks the loss-based model: alone it fills the link.
func TestSimRenoAlone(t *testing.T) {
	n := newSimNet(t, simConfig{rate: simRate, delay: simDelay, seed: 1})
	r := n.addReno()
	n.run(n.epoch.Add(3 * time.Second))
	if got := float64(n.renoBytesIn(r, n.epoch.Add(time.Second), n.epoch.Add(3*time.Second))) * 8 / 2; got < 0.9*simRate {
		t.Errorf("Reno alone: %.1f Mbit/s", got/1e6)
	}
}

// TestBBRMeasuredStartup: a dispersion sample well below the first
// flight's own rate measured the bottleneck — startup paces at 1.25×
// it, with cwnd ≥ the first flight until then; one near the first
// flight's rate only says the path is at least that fast, and startup
// keeps its 2.77×.
func TestBBRMeasuredStartup(t *testing.T) {
	for _, c := range []struct {
		frac     float64
		measured bool
		gain     float64
	}{{0.5, true, measuredGain}, {0.95, false, startupGain}} {
		now := time.Unix(1000, 0)
		rtt := &rttStats{}
		rtt.seed(20*time.Millisecond, now)
		b := newBBR(1236, 0, rtt, now)
		if w := b.cwnd(); w != initialWindow*1236 {
			t.Fatalf("first flight %d", w)
		}
		b.onSent(now, 1236, 0)
		rate := c.frac * b.sentRate
		now = now.Add(20 * time.Millisecond)
		rtt.update(20*time.Millisecond, 0, now)
		b.onAck(now, ackSample{acked: 2472, rate: 1e5, roundStart: true, rtt: rtt, inflight: 62 * 1236})
		if w := b.cwnd(); w < initialWindow*1236 {
			t.Fatalf("cwnd %d fell below the first flight before the dispersion sample", w)
		}
		now = now.Add(3 * time.Millisecond)
		b.onAck(now, ackSample{acked: 30 * 1236, rate: rate, dispersion: true, rtt: rtt, inflight: 32 * 1236})
		if b.measured != c.measured || b.gain() != c.gain || b.bandwidth() != rate {
			t.Errorf("sample at %.2f× the first flight: measured %v, gain %v, bandwidth %v", c.frac, b.measured, b.gain(), b.bandwidth())
		}
	}
}
