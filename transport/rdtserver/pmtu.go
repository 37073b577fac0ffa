package rdtserver

import "opsassist/rdt"

// probeDatagrams are the datagram sizes path MTU probing tries, in
// order: Ethernet's 1500-byte MTU less IPv6 and UDP headers, a 9000-byte
// jumbo frame less the same, and rdt.MaxDatagramSize (loopback and
// other large-MTU paths).
var probeDatagrams = [...]int{1452, 8952, rdt.MaxDatagramSize}

// blackHolePTOs is how many probe timeouts in a row, with nothing
// acknowledged, make a sender running above the size the client asked
// for fall back to it: the path may have stopped carrying the larger
// packets (RFC 8899 section 4.3, black-hole detection). A busy host
// that did not run the client for a while looks the same, so the sender
// then searches again from that size rather than giving up on larger
// packets.
const blackHolePTOs = 4

// probeAttempts is how many probes of one size may be lost before the
// sender stops probing: a size that fails twice is taken as the path's
// limit (RFC 8899's MAX_PROBES is 3; a loss-tolerant sender gives up
// sooner, as a lost probe costs a retransmission).
const probeAttempts = 2

// pmtuProbe is a sender's DPLPMTUD state (RFC 8899, without ICMP): it
// sends one DATA packet of the next size up at a time, carrying real
// data; once one is acknowledged, that size becomes the payload and the
// next size is tried; a size lost probeAttempts times, or refused by
// the local interface (EMSGSIZE with the don't-fragment bit set), ends
// the search. A lost probe is retransmitted at the validated size and
// is not congestion.
type pmtuProbe struct {
	sizes    []int // DATA payloads still to try, ascending
	inflight bool  // a probe is in flight
	pn       uint32
	fails    int
}

// newPMTUProbe returns the probing state for a client taking datagrams
// of up to maxDatagram bytes, from payload up; nil if no larger size
// is worth trying.
func newPMTUProbe(payload, maxDatagram int) *pmtuProbe {
	var p pmtuProbe
	for _, d := range probeDatagrams {
		if d <= maxDatagram && d-rdt.DataOverhead > payload {
			p.sizes = append(p.sizes, d-rdt.DataOverhead)
		}
	}
	if len(p.sizes) == 0 {
		return nil
	}
	return &p
}

// want returns the payload of the probe to send now, 0 for none.
func (p *pmtuProbe) want() int {
	if p == nil || p.inflight || len(p.sizes) == 0 {
		return 0
	}
	return p.sizes[0]
}

// sent records that the probe went out as packet pn.
func (p *pmtuProbe) sent(pn uint32) { p.inflight, p.pn = true, pn }

// acked records the probe's acknowledgement and returns the payload
// the path is now known to carry.
func (p *pmtuProbe) acked() int {
	size := p.sizes[0]
	p.sizes, p.inflight, p.fails = p.sizes[1:], false, 0
	return size
}

// lost records a lost probe.
func (p *pmtuProbe) lost() {
	p.inflight = false
	if p.fails++; p.fails >= probeAttempts {
		p.sizes = nil
	}
}

// refused records a probe the local interface refused: no larger size
// can pass either.
func (p *pmtuProbe) refused() { p.inflight, p.sizes = false, nil }

// blackHole falls back to the payload the client asked for: larger
// packets seem to vanish on the path (a route change to a smaller MTU).
// The PTO probes about to go out are cut to that size, and the search
// starts again from it (RFC 8899's BASE state): sizes the path still
// carries are proved again within a few round trips, and one that
// fails twice ends the search as before.
func (s *sender) blackHole() {
	s.payload = s.cfg.payload
	s.cfg.cc.setMSS(s.maxPacket())
	s.stats.BlackHoles++
	s.probe = newPMTUProbe(s.payload, s.capsMax)
	if s.probe == nil {
		s.probe = &pmtuProbe{}
	}
}
