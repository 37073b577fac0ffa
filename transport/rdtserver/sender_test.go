package rdtserver

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"

	"opsassist/rdt"
)

// fakeClock is virtual time for the state machines.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time                    { return c.t }
func (c *fakeClock) advance(d time.Duration) time.Time { c.t = c.t.Add(d); return c.t }

// fixedCC is a congestion controller with a fixed window and rate.
type fixedCC struct {
	window int
	rate   float64
	acks   []ackSample
	lost   int
}

func (f *fixedCC) onSent(time.Time, int, int) bool     { return false }
func (f *fixedCC) onAck(_ time.Time, s ackSample)      { f.acks = append(f.acks, s) }
func (f *fixedCC) onLossOnly(_ time.Time, lost, _ int) { f.lost += lost }
func (f *fixedCC) cwnd() int                           { return f.window }
func (f *fixedCC) pacingRate() float64                 { return f.rate }
func (f *fixedCC) bandwidth() float64                  { return f.rate }
func (f *fixedCC) setRateCap(float64)                  {}
func (f *fixedCC) setMSS(int)                          {}

var _ congestionController = (*fixedCC)(nil)

func newTestSender(t *testing.T, size int, clk *fakeClock, cc congestionController) (*sender, []byte) {
	t.Helper()
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 7)
	}
	s := newSender(senderConfig{connID: 1, file: bytes.NewReader(data), size: uint64(size), payload: 1000, window: 1000,
		cc: cc, rtt: &rttStats{}}, clk.now())
	return s, data
}

// sendAll collects every packet the sender lets go at the current time.
func sendAll(t *testing.T, s *sender, now time.Time) []rdt.Packet {
	t.Helper()
	var out []rdt.Packet
	for {
		b, ok := s.next(now, nil)
		if !ok {
			return out
		}
		p, err := rdt.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
}

// ackOf is the ACK a receiver holding packets pns sends: their numbers
// as descending, merged ranges, and no flow-control limit to speak of.
func ackOf(pns ...uint32) *rdt.Packet {
	sorted := slices.Clone(pns)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	var acks []rdt.PNRange
	for _, pn := range slices.Backward(sorted) {
		if n := len(acks); n > 0 && acks[n-1].Lo == pn+1 {
			acks[n-1].Lo = pn
			continue
		}
		acks = append(acks, rdt.PNRange{Lo: pn, Hi: pn})
	}
	return &rdt.Packet{Type: rdt.TypeAck, ConnID: 1, Acks: acks, MaxOffset: 1 << 40}
}

// TestSenderPacketThresholdLoss: a packet three behind an acknowledged one
// is declared lost at once and its bytes are resent — twice, as all
// bytes were sent; the FIN follows the data.
func TestSenderPacketThresholdLoss(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	s, data := newTestSender(t, 5500, clk, &fixedCC{window: 1 << 20, rate: 1e12})
	first := sendAll(t, s, clk.now())
	if len(first) != 7 || first[5].Payload == nil || len(first[5].Payload) != 500 || first[6].Type != rdt.TypeFin {
		t.Fatalf("first flight: %d packets", len(first))
	}
	clk.advance(10 * time.Millisecond)
	s.onAck(ackOf(0, 2, 3, 4), clk.now()) // 1 is 3 behind 4
	if s.stats.Lost != 1 || len(s.retx) != 1 {
		t.Fatalf("lost %d, retx %v", s.stats.Lost, s.retx)
	}
	// Every byte went out already: the retransmission goes out twice
	// (a tail copy), since nothing sent later could reveal its loss.
	again := sendAll(t, s, clk.now())
	if len(again) != 2 {
		t.Fatalf("retransmission: %d packets", len(again))
	}
	for i, p := range again {
		if p.Offset != 1000 || !bytes.Equal(p.Payload, data[1000:2000]) || p.PN != uint32(7+i) {
			t.Fatalf("retransmission %d: pn %d offset %d", i, p.PN, p.Offset)
		}
	}
	if s.stats.Retransmits != 2 || s.stats.TailCopies != 1 {
		t.Fatalf("retransmits %d, tail copies %d", s.stats.Retransmits, s.stats.Retransmits)
	}
	// The late original arrives after all: a spurious retransmission.
	s.onAck(ackOf(0, 1, 2, 3, 4), clk.now())
	if s.stats.Spurious != 1 || s.pktThreshold <= initPacketThreshold {
		t.Fatalf("spurious %d, threshold %d", s.stats.Spurious, s.pktThreshold)
	}
	s.onAck(ackOf(0, 1, 2, 3, 4, 5, 6, 7, 8), clk.now())
	if !s.finAcked || s.inflight != 0 || !s.allDelivered() {
		t.Fatalf("fin acked %v, inflight %d", s.finAcked, s.inflight)
	}
	done := &rdt.Packet{Type: rdt.TypeAck, Done: true}
	s.onAck(done, clk.now())
	if ok, err := s.finished(); !ok || err != nil {
		t.Fatalf("finished %v %v", ok, err)
	}
}

// TestSenderTimeThresholdLoss: the loss timer declares a packet lost
// 9/8 RTT after it was sent once a later one was acknowledged.
func TestSenderTimeThresholdLoss(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	cc := &fixedCC{window: 1 << 20, rate: 1e12}
	s, _ := newTestSender(t, 3000, clk, cc)
	sendAll(t, s, clk.now())
	clk.advance(20 * time.Millisecond)
	s.onAck(ackOf(1), clk.now()) // 0 is only one behind: wait for the timer
	if s.stats.Lost != 0 || s.lossTime.IsZero() {
		t.Fatalf("lost %d, loss time %v", s.stats.Lost, s.lossTime)
	}
	d := s.deadline(clk.now())
	if want := s.lossTime; !d.Equal(want) {
		t.Fatalf("deadline %v, want loss time %v", d, want)
	}
	clk.t = d
	s.onTimer(clk.now())
	if s.stats.Lost != 1 || cc.lost == 0 {
		t.Fatalf("lost %d", s.stats.Lost)
	}
}

// TestSenderPTO: with no ACK at all, the probe timer fires, sends two
// probes and backs off exponentially.
func TestSenderPTO(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	s, _ := newTestSender(t, 1500, clk, &fixedCC{window: 1 << 20, rate: 1e12})
	if n := len(sendAll(t, s, clk.now())); n != 3 {
		t.Fatalf("%d packets", n)
	}
	pto := s.deadline(clk.now())
	if got := pto.Sub(clk.now()); got != 2*initialRTT {
		t.Fatalf("first PTO after %v", got)
	}
	clk.t = pto
	s.onTimer(clk.now())
	probes := sendAll(t, s, clk.now())
	// Tail-loss probes: the newest data first, then the one before it.
	if len(probes) != 2 || probes[0].Type != rdt.TypeData || probes[0].Offset != 1000 || probes[1].Offset != 0 {
		t.Fatalf("probes %+v", probes)
	}
	next := s.deadline(clk.now())
	if got := next.Sub(clk.now()); got != 4*initialRTT {
		t.Fatalf("second PTO after %v", got)
	}
}

// TestSenderFlowControl: the sender never sends at or beyond the
// receiver's MaxOffset, and resumes when it grows.
func TestSenderFlowControl(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	s, _ := newTestSender(t, 10000, clk, &fixedCC{window: 1 << 20, rate: 1e12})
	s.maxOffset = 2500
	ps := sendAll(t, s, clk.now())
	if len(ps) != 3 || ps[2].Offset+uint64(len(ps[2].Payload)) != 2500 {
		t.Fatalf("%d packets", len(ps))
	}
	a := ackOf(0, 1, 2)
	a.MaxOffset = 5000
	s.onAck(a, clk.now())
	if ps := sendAll(t, s, clk.now()); len(ps) != 3 || ps[0].Offset != 2500 {
		t.Fatalf("after the window grew: %d", len(ps))
	}
}

// TestSenderResumeSkipsHeldRanges: bytes the client holds are not sent.
func TestSenderResumeSkipsHeldRanges(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	data := make([]byte, 5000)
	s := newSender(senderConfig{connID: 1, file: bytes.NewReader(data), size: 5000, payload: 1000, window: 100,
		have: []rdt.Range{{Start: 0, End: 2000}, {Start: 3000, End: 5000}}, cc: &fixedCC{window: 1 << 20, rate: 1e12}, rtt: &rttStats{}}, clk.now())
	ps := sendAll(t, s, clk.now())
	if len(ps) != 2 || ps[0].Offset != 2000 || len(ps[0].Payload) != 1000 || ps[1].Type != rdt.TypeFin {
		t.Fatalf("%+v", ps)
	}
}

// TestSenderPacing: with a small rate the pacer lets a burst through,
// then one packet per interval.
func TestSenderPacing(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	s, _ := newTestSender(t, 100000, clk, &fixedCC{window: 1 << 20, rate: 1e6}) // 1 MB/s
	clk.advance(time.Second)
	burst := len(sendAll(t, s, clk.now()))
	if burst != minBurst {
		t.Fatalf("burst of %d", burst)
	}
	d := s.deadline(clk.now()).Sub(clk.now())
	if d <= 0 || d > 2*time.Millisecond {
		t.Fatalf("next packet after %v", d)
	}
	clk.advance(d)
	if n := len(sendAll(t, s, clk.now())); n != 1 {
		t.Fatalf("%d packets after one interval", n)
	}
}

// TestRTTStats checks RFC 6298 smoothing, the ack-delay adjustment and
// the LAN floor of the probe timeout.
func TestRTTStats(t *testing.T) {
	now := time.Unix(1000, 0)
	var r rttStats
	if r.pto() != 2*initialRTT {
		t.Fatal(r.pto())
	}
	r.seed(300*time.Millisecond, now)
	r.update(100*time.Microsecond, 0, now) // replaces the handshake seed
	if r.smoothed() != 100*time.Microsecond || r.rttvar != 50*time.Microsecond {
		t.Fatalf("first sample: %v %v", r.smoothed(), r.rttvar)
	}
	if r.pto() != minPTO+time.Microsecond*100+maxAckDelay+timerGranule-minPTO && r.pto() < minPTO {
		t.Fatalf("pto %v below the floor", r.pto())
	}
	if r.pto() > 10*time.Millisecond {
		t.Fatalf("pto %v: not suited to a LAN", r.pto())
	}
	r.update(200*time.Microsecond, 50*time.Microsecond, now)
	// adjusted 150µs: rttvar = (3·50 + 50)/4 = 50, srtt = (7·100 + 150)/8
	if r.smoothed() != (700+150)*time.Microsecond/8 || r.rttvar != 50*time.Microsecond || r.min() != 100*time.Microsecond {
		t.Fatalf("%v %v %v", r.smoothed(), r.rttvar, r.min())
	}
}

// bbrRounds feeds b n rounds of 20 ms: each acknowledges acked bytes and
// loses lost bytes at the rate sample rate, with the RTT given; clean
// says whether the packets were sent clean (as onSent would have said).
func bbrRounds(clk *fakeClock, b *bbrCC, rtt *rttStats, n int, sampleRTT time.Duration, rate float64, acked, lost int, clean bool) {
	for range n {
		clk.advance(sampleRTT)
		rtt.update(sampleRTT, 0, clk.now())
		s := ackSample{acked: acked, lost: lost, rate: rate, roundStart: true, rtt: rtt, inflight: acked}
		if clean {
			s.cleanAcked, s.cleanLost = acked, lost
		}
		b.onAck(clk.now(), s)
	}
}

// TestBBRRandomLossKeepsRate: random loss — the same rate on clean
// packets, sent below the bottleneck, as on all — does not lower the
// bandwidth estimate, and raises the pacing rate to make up for it.
func TestBBRRandomLossKeepsRate(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b := newBBR(1200, 0, &rttStats{}, clk.now())
	rtt := &rttStats{}
	const bw = 12.5e6 // 100 Mbit/s
	bbrRounds(clk, b, rtt, 40, 20*time.Millisecond, bw, 225000, 25000, true)
	if b.mode != bbrProbeBW {
		t.Fatalf("mode %d", b.mode)
	}
	if b.bandwidth() != bw || b.backoffs != 0 {
		t.Fatalf("bandwidth %v, backoffs %d", b.bandwidth(), b.backoffs)
	}
	if b.lossAvg < 0.09 || b.lossAvg > 0.11 {
		t.Fatalf("random loss estimate %v", b.lossAvg)
	}
	b.cycleIdx = 2 // a gain-1 phase
	if r := b.pacingRate(); r < bw/0.91 || r > bw/0.89 {
		t.Fatalf("pacing %v, want bandwidth/(1−loss)", r)
	}
}

// TestBBRShallowQueueBacksOff: loss far above the random rate measured
// on clean packets, even without RTT growth, lowers the estimate and is
// not compensated.
func TestBBRShallowQueueBacksOff(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b := newBBR(1200, 0, &rttStats{}, clk.now())
	rtt := &rttStats{}
	const bw = 12.5e6
	bbrRounds(clk, b, rtt, 20, 20*time.Millisecond, bw, 250000, 0, true)
	bbrRounds(clk, b, rtt, 1, 20*time.Millisecond, bw, 200000, 50000, false)
	if b.backoffs == 0 || b.bandwidth() >= bw || b.lossAvg != 0 {
		t.Fatalf("bandwidth %v, backoffs %d, loss estimate %v", b.bandwidth(), b.backoffs, b.lossAvg)
	}
}

// TestBBRQueueBacksOff: loss together with a standing queue (every RTT
// sample of the round inflated) lowers the estimate, even with random
// loss known.
func TestBBRQueueBacksOff(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b := newBBR(1200, 0, &rttStats{}, clk.now())
	rtt := &rttStats{}
	const bw = 12.5e6
	bbrRounds(clk, b, rtt, 20, 20*time.Millisecond, bw, 237500, 12500, true) // 5% random
	before := b.backoffs
	bbrRounds(clk, b, rtt, 1, 40*time.Millisecond, bw/2, 225000, 25000, false) // 10%, queued
	if b.backoffs == before || b.bandwidth() >= bw {
		t.Fatalf("bandwidth %v after a queue, backoffs %d", b.bandwidth(), b.backoffs)
	}
}

// TestBBRCleanSamples: only the second half of the 0.75-gain phase is
// clean.
func TestBBRCleanSamples(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b := newBBR(1200, 0, &rttStats{}, clk.now())
	if b.onSent(clk.now(), 1200, 0) {
		t.Fatal("startup packet clean")
	}
	b.mode, b.cycleIdx, b.cycleStart, b.minRTT = bbrProbeBW, 1, clk.now(), 20*time.Millisecond
	if b.onSent(clk.advance(5*time.Millisecond), 1200, 0) {
		t.Fatal("first half of the drain phase clean")
	}
	if !b.onSent(clk.advance(10*time.Millisecond), 1200, 0) {
		t.Fatal("second half of the drain phase not clean")
	}
	b.cycleIdx = 0
	if b.onSent(clk.now(), 1200, 0) {
		t.Fatal("probing packet clean")
	}
}

// TestBBRRateCap: the pacing rate never exceeds the configured cap.
func TestBBRRateCap(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b := newBBR(1200, 1e6, &rttStats{}, clk.now())
	rtt := &rttStats{}
	rtt.update(time.Millisecond, 0, clk.now())
	b.onAck(clk.now(), ackSample{acked: 1e6, rate: 1e9, roundStart: true, rtt: rtt})
	if b.pacingRate() != 1e6 {
		t.Fatal(b.pacingRate())
	}
}

// TestSenderPNExhausted ends the transfer rather than reuse a number.
func TestSenderPNExhausted(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	s, _ := newTestSender(t, 5000, clk, &fixedCC{window: 1 << 20, rate: 1e12})
	s.nextPN, s.base = 1<<32-2, 1<<32-2
	if n := len(sendAll(t, s, clk.now())); n != 1 {
		t.Fatalf("%d packets", n)
	}
	if done, err := s.finished(); !done || !errors.Is(err, errPNExhausted) {
		t.Fatal(done, err)
	}
}

// TestBBRStartupIgnoresRandomLoss: random loss without a queue (no RTT
// inflation) does not end startup while the estimate grows, nor at once
// when it stops growing; a plateau of three rounds does. Loss with a
// standing queue ends it at once.
func TestBBRStartupIgnoresRandomLoss(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b := newBBR(1200, 0, &rttStats{}, clk.now())
	rtt := &rttStats{}
	bw := 1e6
	for range 3 { // growing, with 10% loss: still startup
		bw *= 2
		bbrRounds(clk, b, rtt, 1, 20*time.Millisecond, bw, 90000, 10000, false)
	}
	bbrRounds(clk, b, rtt, 2, 20*time.Millisecond, bw, 90000, 10000, false) // plateau and loss
	if b.mode != bbrStartup {
		t.Fatalf("left startup on random loss: mode %d", b.mode)
	}
	bbrRounds(clk, b, rtt, 1, 20*time.Millisecond, bw, 90000, 10000, false)
	if b.mode == bbrStartup {
		t.Fatal("still in startup after three rounds without growth")
	}

	q := newBBR(1200, 0, &rttStats{}, clk.now())
	rtt = &rttStats{}
	bbrRounds(clk, q, rtt, 2, 20*time.Millisecond, 2e6, 100000, 0, false)
	bbrRounds(clk, q, rtt, 1, 40*time.Millisecond, 4e6, 90000, 10000, false) // queue and loss
	if q.mode == bbrStartup || q.backoffs != 1 {
		t.Fatalf("mode %d, backoffs %d after loss with a standing queue", q.mode, q.backoffs)
	}
}

// bbrInProbeBW returns a controller that measured 100 Mbit/s at a 20 ms
// minimum RTT and cycles its probe gains.
func bbrInProbeBW(t *testing.T, clk *fakeClock) (*bbrCC, *rttStats) {
	t.Helper()
	b := newBBR(1200, 0, &rttStats{}, clk.now())
	rtt := &rttStats{}
	bbrRounds(clk, b, rtt, 20, 20*time.Millisecond, 12.5e6, 250000, 0, true)
	if b.mode != bbrProbeBW {
		t.Fatalf("mode %d", b.mode)
	}
	return b, rtt
}

// TestBBRPersistentQueueBacksOff: a standing queue without loss through
// a whole probe cycle (8 rounds) is another flow's: the estimate is cut.
// Seven rounds are not enough.
func TestBBRPersistentQueueBacksOff(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b, rtt := bbrInProbeBW(t, clk)
	bbrRounds(clk, b, rtt, persistentRounds-1, 40*time.Millisecond, 12.5e6, 250000, 0, false)
	if b.backoffs != 0 {
		t.Fatalf("backed off after %d rounds", persistentRounds-1)
	}
	bbrRounds(clk, b, rtt, 1, 40*time.Millisecond, 12.5e6, 250000, 0, false)
	if b.backoffs != 1 || b.bandwidth() >= 12.5e6 {
		t.Fatalf("backoffs %d, bandwidth %v after a persistent queue", b.backoffs, b.bandwidth())
	}
}

// TestBBRProbeRTT: with every RTT sample above the minimum for 5 s (a
// queue held by others), PROBE_RTT halves the window for 200 ms and
// then probes again; samples at the minimum postpone it.
func TestBBRProbeRTT(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b, rtt := bbrInProbeBW(t, clk)
	bbrRounds(clk, b, rtt, 300, 20*time.Millisecond, 12.5e6, 250000, 0, true) // 6 s at the minimum
	if b.mode != bbrProbeBW {
		t.Fatalf("PROBE_RTT although the minimum was seen: mode %d", b.mode)
	}
	full := b.cwnd()
	for i := 0; b.mode != bbrProbeRTT; i++ {
		if i > 200 {
			t.Fatal("no PROBE_RTT after 5 s above the minimum")
		}
		bbrRounds(clk, b, rtt, 1, 26*time.Millisecond, 12.5e6, 250000, 0, false)
	}
	if w := b.cwnd(); w > full/3 {
		t.Fatalf("cwnd %d in PROBE_RTT, %d before", w, full)
	}
	bbrRounds(clk, b, rtt, 10, 20*time.Millisecond, 12.5e6, 125000, 0, false) // 200 ms
	if b.mode != bbrProbeBW {
		t.Fatalf("still mode %d after 200 ms", b.mode)
	}
}

// TestBBRProbeQuantum: the probing phase adds at least probeQuantum
// packets a round, so a flow with a small share probes harder than its
// gain alone; a large flow probes at its gain.
func TestBBRProbeQuantum(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b, _ := bbrInProbeBW(t, clk)
	b.cycleIdx = 0
	if r, want := b.pacingRate(), 1.25*12.5e6; r != want {
		t.Fatalf("100 Mbit/s probes at %v, want %v", r, want)
	}
	b.bwRounds = [bwWindowRounds]float64{1e6}
	b.maxBW = 1e6 // 8 Mbit/s
	if r, want := b.pacingRate(), 1e6+probeQuantum*1200/0.02; r < want*0.999 {
		t.Fatalf("8 Mbit/s probes at %v, want %v", r, want)
	}
}

// TestBBREstimateRisesOnlyFromProbes: in PROBE_BW a higher delivery
// rate raises the estimate only in the probe phase and the one after it
// (when the probe's packets are acknowledged), not in the cruising
// phases: room another flow freed is not taken at once.
func TestBBREstimateRisesOnlyFromProbes(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b, rtt := bbrInProbeBW(t, clk)
	for _, c := range []struct {
		phase int
		rises bool
	}{{2, false}, {5, false}, {0, true}, {1, true}} {
		b.cycleIdx, b.cycleStart = c.phase, clk.now()
		before := b.bandwidth()
		b.onAck(clk.now(), ackSample{acked: 1200, rate: 2 * before, rtt: rtt, inflight: 100000})
		if got := b.bandwidth() > before; got != c.rises {
			t.Errorf("phase %d: estimate rose %v, want %v", c.phase, got, c.rises)
		}
	}
}

// failingReader fails every read, like a file closed under the sender.
type failingReader struct{}

func (failingReader) ReadAt([]byte, int64) (int, error) { return 0, errors.New("file is closed") }

// TestSenderReadsNothingOnceDataAcked: once every byte was acknowledged
// the transfer closes its file (its slot is given back), so nothing the
// sender still sends — the FIN again, probes — may read it, even a probe
// for a packet still in flight whose bytes came through another one.
func TestSenderReadsNothingOnceDataAcked(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	s, _ := newTestSender(t, 1000, clk, &fixedCC{window: 1 << 20, rate: 1e12})
	if ps := sendAll(t, s, clk.now()); len(ps) != 2 || ps[1].Type != rdt.TypeFin {
		t.Fatalf("sent %+v", ps)
	}
	if s.dataAcked() {
		t.Fatal("data acked before any ACK")
	}
	clk.t = s.deadline(clk.now())
	s.onTimer(clk.now())
	// Each range is probed at most once per timeout: pn 2 the only data,
	// pn 3 the FIN.
	if ps := sendAll(t, s, clk.now()); len(ps) != 2 || ps[0].Type != rdt.TypeData || ps[1].Type != rdt.TypeFin {
		t.Fatalf("probes %+v", ps)
	}
	clk.advance(time.Millisecond)
	s.onAck(ackOf(2), clk.now()) // pn 0's bytes are acknowledged through pn 2; pn 0 is still in flight
	if !s.dataAcked() || s.allDelivered() {
		t.Fatalf("dataAcked %v, allDelivered %v", s.dataAcked(), s.allDelivered())
	}
	s.cfg.file = failingReader{}
	for range 4 {
		if d := s.deadline(clk.now()); !d.IsZero() && d.After(clk.now()) {
			clk.t = d
		}
		s.onTimer(clk.now())
		for _, p := range sendAll(t, s, clk.now()) {
			if p.Type == rdt.TypeData {
				t.Fatalf("sent DATA pn %d after every byte was acknowledged", p.PN)
			}
		}
		if done, err := s.finished(); done || err != nil {
			t.Fatalf("finished %v: %v", done, err)
		}
	}
}

// TestSenderTailCopiesOnlyAtTheTail: a retransmission while new data is
// still to be sent goes out once; only once every byte went out is it
// sent a second time.
func TestSenderTailCopiesOnlyAtTheTail(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	s, _ := newTestSender(t, 20000, clk, &fixedCC{window: 5 * 1036, rate: 1e12})
	if n := len(sendAll(t, s, clk.now())); n != 5 || s.finQueued {
		t.Fatalf("first flight %d packets, fin queued %v", n, s.finQueued)
	}
	clk.advance(10 * time.Millisecond)
	s.onAck(ackOf(1, 2, 3, 4), clk.now()) // 0 is lost
	again := sendAll(t, s, clk.now())
	if len(again) == 0 || again[0].Offset != 0 || s.stats.TailCopies != 0 {
		t.Fatalf("%d packets, first at %d, tail copies %d", len(again), again[0].Offset, s.stats.TailCopies)
	}
	for _, p := range again[1:] {
		if p.Offset == 0 {
			t.Fatal("a retransmission before the tail went out twice")
		}
	}
}

// TestSenderDispersionSample: the ACKs of the first flight, spaced by
// the bottleneck, yield a delivery-rate sample of the bottleneck once
// dispersionPackets were acknowledged after the first — marked as such —
// where the ordinary sample, whose interval spans the round trip, sees
// a fraction of it.
func TestSenderDispersionSample(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	cc := &fixedCC{window: 1 << 20, rate: 1e12}
	s, _ := newTestSender(t, 64*1000, clk, cc)
	if n := len(sendAll(t, s, clk.now())); n < 64 {
		t.Fatalf("first flight %d packets", n)
	}
	const bottleneck = 12.5e6 // bytes/s: one 1036-byte packet every 82.9 µs
	gap := time.Duration(float64(1036) / bottleneck * float64(time.Second))
	clk.advance(20 * time.Millisecond)
	var last ackSample
	for pn := uint32(0); pn < 40; pn += 2 {
		s.onAck(ackOf(pn, pn+1), clk.now())
		last = cc.acks[len(cc.acks)-1]
		if pn/2+1 < dispersionPackets/2 && last.dispersion {
			t.Fatalf("dispersion sample after %d packets", pn+2)
		}
		clk.advance(2 * gap)
	}
	if !last.dispersion || last.rate < 0.95*bottleneck || last.rate > 1.05*bottleneck {
		t.Fatalf("last sample %.0f B/s (dispersion %v), want %.0f", last.rate, last.dispersion, bottleneck)
	}
}

// TestSenderNoDispersionForLongTransfers: a transfer whose remaining
// bytes take more than dispersionRounds round trips at the measured rate
// gets no dispersion sample: it grows by its ordinary samples and
// leaves a flow sharing the bottleneck time to claim its part.
func TestSenderNoDispersionForLongTransfers(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	cc := &fixedCC{window: 64 * 1036, rate: 1e12}
	s, _ := newTestSender(t, 64<<20, clk, cc) // 64 MiB: 270 RTTs of 20 ms at 12.5 MB/s
	sendAll(t, s, clk.now())
	clk.advance(20 * time.Millisecond)
	s.cfg.rtt.update(20*time.Millisecond, 0, clk.now())
	gap := time.Duration(float64(1036) / 12.5e6 * float64(time.Second))
	for pn := uint32(0); pn < 60; pn += 2 {
		s.onAck(ackOf(pn, pn+1), clk.now())
		if cc.acks[len(cc.acks)-1].dispersion {
			t.Fatalf("dispersion sample after %d packets of a 64 MiB transfer", pn+2)
		}
		clk.advance(2 * gap)
	}
}

// TestBBRAckAggregation: ACKs that arrive in bunches — a receiver on the
// same host, scheduled in slices — widen the window by what a bunch
// acknowledges beyond the estimated rate, up to maxAggregation at that
// rate; ACKs that keep pace with the rate add only the usual headroom;
// the estimate forgets bunches 5–10 rounds after they stop; startup and
// PROBE_RTT add none. At 10 Gbit/s (where an unset epoch start once
// overflowed the expected bytes) it works the same.
func TestBBRAckAggregation(t *testing.T) {
	const (
		mss    = 16384
		minRTT = 50 * time.Microsecond
	)
	type flow struct {
		b   *bbrCC
		clk *fakeClock
		rtt *rttStats
		bw  float64
	}
	start := func(bw float64) *flow {
		clk := &fakeClock{t: time.Unix(1000, 0)}
		rtt := &rttStats{}
		rtt.seed(minRTT, clk.now())
		b := newBBR(mss, 0, rtt, clk.now())
		b.mode, b.cycleIdx, b.cycleStart, b.maxBW, b.minRTT, b.minRTTAt = bbrProbeBW, 2, clk.now(), bw, minRTT, clk.now()
		b.firstFlight = false
		return &flow{b, clk, rtt, bw}
	}
	// feed sends n ACKs, one every `every`, each for what share × the
	// rate delivers in that time, a round starting every roundEvery ACKs.
	feed := func(f *flow, every time.Duration, n, roundEvery int, share float64) {
		for i := range n {
			f.clk.advance(every)
			f.rtt.update(minRTT, 0, f.clk.now())
			f.b.onAck(f.clk.now(), ackSample{acked: int(share * f.bw * every.Seconds()), rate: f.bw, rtt: f.rtt, inflight: f.b.cwnd(), roundStart: i%roundEvery == 0})
			f.b.cycleIdx = 2 // stay in a gain-1 phase
		}
	}
	for _, bw := range []float64{500e6, 1.25e9} { // 4 and 10 Gbit/s
		bdp := int(bw * minRTT.Seconds())
		steadyEvery := time.Duration(2 * mss * float64(time.Second) / bw) // an ACK every two packets
		steady := start(bw)
		feed(steady, steadyEvery, 400, 20, 1)
		if a := steady.b.aggregation(); a > 2*mss {
			t.Errorf("%v B/s, steady ACKs: aggregation %d bytes, want ≤ %d", bw, a, 2*mss)
		}
		if w, want := steady.b.cwnd(), max(2*bdp+4*mss, 8*mss); w != want {
			t.Errorf("%v B/s, steady ACKs: cwnd %d, want %d", bw, w, want)
		}
		bunched := start(bw)
		feed(bunched, time.Millisecond, 100, 20, 1) // a bunch every millisecond
		if a, want := bunched.b.aggregation(), int(bw*0.001); a < want*9/10 {
			t.Errorf("%v B/s, 1 ms bunches: aggregation %d bytes, want about %d", bw, a, want)
		}
		if w, want := bunched.b.cwnd(), 2*bdp+int(bw*0.001)*9/10; w < want {
			t.Errorf("%v B/s, 1 ms bunches: cwnd %d, want ≥ %d", bw, w, want)
		}
		// Then at pace — a little below the estimate, a max over ten
		// rounds, as deliveries are — until the excess is made up, then
		// for 2 × aggRounds rounds.
		feed(bunched, steadyEvery, 5*aggRounds*100, 100, 0.95)
		if a := bunched.b.aggregation(); a > 2*mss {
			t.Errorf("%v B/s, bunches forgotten: aggregation %d bytes, want ≤ %d", bw, a, 2*mss)
		}
		capped := start(bw)
		feed(capped, 20*time.Millisecond, 50, 20, 1) // far apart: capped
		if a, want := capped.b.aggregation(), int(bw*maxAggregation.Seconds()); a != want {
			t.Errorf("%v B/s, 20 ms bunches: aggregation %d, want the cap %d", bw, a, want)
		}
		for _, mode := range []int{bbrStartup, bbrProbeRTT} {
			capped.b.mode = mode
			if a := capped.b.aggregation(); a != 0 {
				t.Errorf("%v B/s, mode %d: aggregation %d, want 0", bw, mode, a)
			}
		}
	}
}
