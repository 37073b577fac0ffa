package netimpair

import (
	"math"
	"testing"
	"time"
)

const nPackets = 20000

func within(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.4f, want %.4f ± %.4f", name, got, want, tol)
	}
}

// run feeds n packets of size bytes, one every gap, and returns the verdicts.
func run(im Impairment, seed uint64, n, size int, gap time.Duration) []verdict {
	sh := newShaper(im.populated(), seed, 1)
	out := make([]verdict, n)
	for i := range out {
		out[i] = sh.decide(time.Duration(i)*gap, size)
	}
	return out
}

func count(vs []verdict, f func(verdict) bool) int {
	n := 0
	for _, v := range vs {
		if f(v) {
			n++
		}
	}
	return n
}

func TestBernoulliLoss(t *testing.T) {
	for _, p := range []float64{0, 0.01, 0.05, 0.1, 0.2, 1} {
		vs := run(Impairment{Loss: p}, 7, nPackets, 1200, time.Microsecond)
		lost := count(vs, func(v verdict) bool { return v.drop == randomLoss })
		// 4 standard deviations of a binomial proportion.
		tol := 4*math.Sqrt(p*(1-p)/nPackets) + 1e-9
		within(t, "loss ratio", float64(lost)/nPackets, p, tol)
	}
}

func TestDeterministic(t *testing.T) {
	im := Impairment{Loss: 0.1, Duplicate: 0.1, Corrupt: 0.1, Reorder: 0.1,
		Delay: time.Millisecond, Jitter: 500 * time.Microsecond,
		GE: GilbertElliott{P: 0.01, R: 0.3}}
	a := run(im, 42, 5000, 1200, 10*time.Microsecond)
	b := run(im, 42, 5000, 1200, 10*time.Microsecond)
	c := run(im, 43, 5000, 1200, 10*time.Microsecond)
	same := true
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("packet %d: same seed gave %+v and %+v", i, a[i], b[i])
		}
		same = same && a[i] == c[i]
	}
	if same {
		t.Error("seeds 42 and 43 gave identical verdicts")
	}
}

// The loss pattern depends only on seed and packet index, not on
// arrival times or the queue.
func TestLossIndependentOfTiming(t *testing.T) {
	a := run(Impairment{Loss: 0.1}, 3, 2000, 1200, time.Microsecond)
	b := run(Impairment{Loss: 0.1, Rate: 1e9, Delay: time.Millisecond}, 3, 2000, 1200, time.Millisecond)
	for i := range a {
		if (a[i].drop == randomLoss) != (b[i].drop == randomLoss) {
			t.Fatalf("packet %d: loss differs with timing", i)
		}
	}
}

func TestGilbertElliott(t *testing.T) {
	ge := GilbertElliott{P: 0.01, R: 0.25}
	vs := run(Impairment{GE: ge}, 11, 100000, 1200, time.Microsecond)
	lost, bursts, run := 0, 0, 0
	for _, v := range vs {
		if v.drop == burstLoss {
			lost++
			if run == 0 {
				bursts++
			}
			run++
		} else {
			run = 0
		}
	}
	ratio := float64(lost) / float64(len(vs))
	within(t, "GE loss ratio", ratio, ge.MeanLoss(), 0.008)
	meanBurst := float64(lost) / float64(bursts)
	within(t, "GE mean burst", meanBurst, 1/ge.R, 0.6)

	// Bernoulli loss at the same rate has bursts close to 1/(1-p).
	vs2 := runB(ge.MeanLoss())
	if meanBurst < 2*vs2 {
		t.Errorf("GE mean burst %.2f not clearly burstier than Bernoulli %.2f", meanBurst, vs2)
	}

	// LossGood and LossBad below 1.
	ge2 := GilbertElliott{P: 0.05, R: 0.2, LossBad: 0.5, LossGood: 0.01}
	vs = run2(Impairment{GE: ge2})
	lost = count(vs, func(v verdict) bool { return v.drop == burstLoss })
	within(t, "GE partial loss ratio", float64(lost)/float64(len(vs)), ge2.MeanLoss(), 0.01)
}

func run2(im Impairment) []verdict { return run(im, 5, 100000, 100, time.Microsecond) }

// runB returns the mean loss-burst length of Bernoulli loss p.
func runB(p float64) float64 {
	vs := run(Impairment{Loss: p}, 11, 100000, 1200, time.Microsecond)
	lost, bursts, prev := 0, 0, false
	for _, v := range vs {
		l := v.drop == randomLoss
		if l {
			lost++
			if !prev {
				bursts++
			}
		}
		prev = l
	}
	return float64(lost) / float64(bursts)
}

func TestDuplicateCorruptReorder(t *testing.T) {
	im := Impairment{Duplicate: 0.05, Corrupt: 0.02, Reorder: 0.1, ReorderDelay: 3 * time.Millisecond,
		Delay: 10 * time.Millisecond}
	vs := run(im, 9, nPackets, 1200, 100*time.Microsecond)
	dups := count(vs, func(v verdict) bool { return v.copies == 2 })
	within(t, "duplicate ratio", float64(dups)/nPackets, 0.05, 4*math.Sqrt(0.05*0.95/nPackets))
	corrupt := 0
	for _, v := range vs {
		for i := range v.copies {
			if f := v.corrupt[i]; f.on {
				corrupt++
				if f.pos < 0 || f.pos >= 1200 || f.mask == 0 || f.mask&(f.mask-1) != 0 {
					t.Fatalf("bad flip %+v", f)
				}
			}
		}
	}
	copies := nPackets + dups
	within(t, "corrupt ratio", float64(corrupt)/float64(copies), 0.02, 4*math.Sqrt(0.02*0.98/float64(copies)))
	reordered := count(vs, func(v verdict) bool { return v.reordered })
	within(t, "reorder ratio", float64(reordered)/nPackets, 0.1, 4*math.Sqrt(0.1*0.9/nPackets))

	// A reordered packet leaves ReorderDelay after its normal time, and
	// is overtaken by the packets after it; others leave in order.
	overtaken, single := 0, 0
	for i, v := range vs {
		normal := time.Duration(i)*100*time.Microsecond + im.Delay
		want := normal
		if v.reordered {
			want += im.ReorderDelay
		}
		if v.release != want {
			t.Fatalf("packet %d: release %v, want %v", i, v.release, want)
		}
		if v.reordered && i+1 < len(vs) && !vs[i+1].reordered {
			single++
			if vs[i+1].release < v.release {
				overtaken++
			}
		}
	}
	if overtaken != single {
		t.Errorf("only %d of %d reordered packets were overtaken", overtaken, single)
	}
}

func TestJitterKeepsOrder(t *testing.T) {
	im := Impairment{Delay: 10 * time.Millisecond, Jitter: 2 * time.Millisecond}
	vs := run(im, 1, nPackets, 1200, 50*time.Microsecond)
	var prev time.Duration
	var sum time.Duration
	for i, v := range vs {
		sent := time.Duration(i) * 50 * time.Microsecond
		d := v.release - sent
		if d < 8*time.Millisecond || v.release < prev {
			t.Fatalf("packet %d: delay %v, release %v before previous %v", i, d, v.release, prev)
		}
		prev = v.release
		sum += d
	}
	// The clamp to keep order pushes the mean slightly above Delay.
	mean := sum / nPackets
	if mean < 10*time.Millisecond || mean > 11500*time.Microsecond {
		t.Errorf("mean delay %v", mean)
	}
}

func TestBottleneckRate(t *testing.T) {
	// 10 Mbit/s: a 1250-byte packet takes 1 ms. 100 packets arrive at
	// once; the first ones ride on the bucket, the rest leave 1 ms apart.
	im := Impairment{Rate: 10_000_000, BucketBytes: 2500, QueueBytes: 1 << 20, Delay: 5 * time.Millisecond}
	sh := newShaper(im.populated(), 1, 1)
	var last time.Duration
	for i := range 100 {
		v := sh.decide(0, 1250)
		if v.drop != keep {
			t.Fatalf("packet %d dropped: %v", i, v.drop)
		}
		want := im.Delay + time.Duration(max(0, i-1))*time.Millisecond
		if d := v.release - want; d < -time.Microsecond || d > time.Microsecond {
			t.Fatalf("packet %d: release %v, want %v", i, v.release, want)
		}
		last = v.release
	}
	// The first two left at once (the bucket); 98 wait.
	if p, b := sh.queueLen(); p != 98 || b != 98*1250 {
		t.Errorf("queue = %d packets %d bytes, want 98, %d", p, b, 98*1250)
	}
	// After the queue drained, the bucket refills to its depth only.
	v := sh.decide(last+time.Second, 1250)
	if v.release != last+time.Second+im.Delay {
		t.Errorf("idle link: release %v", v.release)
	}
	if p, _ := sh.queueLen(); p != 1 {
		t.Errorf("queue after idle = %d packets", p)
	}
}

func TestBottleneckSteadyOverload(t *testing.T) {
	// Offer 200 Mbit/s to a 100 Mbit/s link with a 64 KiB queue for one
	// second: about half is dropped, the rest leaves at 100 Mbit/s and
	// the queueing delay levels off at queue/rate.
	im := Impairment{Rate: 100_000_000, QueueBytes: 64 << 10}
	sh := newShaper(im.populated(), 1, 1)
	const size = 1250
	gap := 50 * time.Microsecond // 200 Mbit/s of 1250-byte packets
	var delivered int
	var first, last, maxDelay time.Duration
	first = -1
	for i := range 20000 {
		now := time.Duration(i) * gap
		v := sh.decide(now, size)
		if v.drop == queueDrop {
			continue
		}
		delivered++
		if first < 0 {
			first = v.release
		}
		last = v.release
		maxDelay = max(maxDelay, v.release-now)
		if _, b := sh.queueLen(); b > im.QueueBytes {
			t.Fatalf("queue %d bytes over its limit", b)
		}
	}
	rate := float64(delivered-1) * size * 8 / (last - first).Seconds()
	within(t, "bottleneck rate Mbit/s", rate/1e6, 100, 1)
	within(t, "delivered share", float64(delivered)/20000, 0.5, 0.01)
	wantDelay := time.Duration(float64(im.QueueBytes) * 8 / float64(im.Rate) * 1e9)
	if maxDelay < wantDelay*9/10 || maxDelay > wantDelay*11/10 {
		t.Errorf("max queueing delay %v, want about %v", maxDelay, wantDelay)
	}
}

func TestQueuePacketLimit(t *testing.T) {
	im := Impairment{Rate: 1_000_000, QueuePackets: 10, BucketBytes: 1}
	sh := newShaper(im.populated(), 1, 1)
	dropped := 0
	for range 50 {
		if sh.decide(0, 100).drop == queueDrop {
			dropped++
		}
	}
	if dropped != 40 {
		t.Errorf("dropped %d of 50 with a 10-packet queue, want 40", dropped)
	}
	// An oversized packet still passes an empty queue.
	sh = newShaper(Impairment{Rate: 1_000_000, QueueBytes: 100, BucketBytes: 1}.populated(), 1, 1)
	if v := sh.decide(0, 1000); v.drop != keep {
		t.Errorf("oversized packet into empty queue: %v", v.drop)
	}
	if v := sh.decide(0, 10); v.drop != queueDrop {
		t.Errorf("packet behind a full queue: %v", v.drop)
	}
}

func TestLossAfterBottleneck(t *testing.T) {
	// Lost packets still use the link: at 50% loss the queue fills as
	// fast as without loss.
	im := Impairment{Rate: 8_000_000, QueuePackets: 5, BucketBytes: 1, Loss: 0.5}
	sh := newShaper(im.populated(), 1, 1)
	q := 0
	for range 20 {
		if sh.decide(0, 1000).drop == queueDrop {
			q++
		}
	}
	if q != 15 {
		t.Errorf("queue drops = %d, want 15", q)
	}
}

func TestConfigValidation(t *testing.T) {
	if _, err := (Config{}).populated(); err != ErrNoUpstream {
		t.Errorf("no upstream: %v", err)
	}
	bad := []Impairment{{Loss: -0.1}, {Loss: 1.5}, {Duplicate: 2}, {GE: GilbertElliott{P: 0.1, R: 1.1}},
		{Delay: -1}, {Rate: -1}, {QueueBytes: -1}, {Loss: math.NaN()}}
	for _, im := range bad {
		if _, err := (Config{Upstream: "x:1", Reverse: im}).populated(); err == nil {
			t.Errorf("%+v accepted", im)
		}
	}
	c, err := Config{Upstream: "x:1", Forward: Impairment{Rate: 100_000_000}}.populated()
	if err != nil {
		t.Fatal(err)
	}
	if c.Forward.QueueBytes != 625000 || c.Forward.BucketBytes != DefaultBucketBytes || c.Listen != DefaultListen {
		t.Errorf("defaults: %+v", c)
	}
}
