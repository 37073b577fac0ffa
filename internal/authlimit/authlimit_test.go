package authlimit

import (
	"net/netip"
	"testing"
	"time"
)

func TestBlocksAfterMaxFailuresUntilWindowEnds(t *testing.T) {
	l := New(3, time.Minute)
	a := netip.MustParseAddr("192.0.2.7")
	t0 := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	for i := range 3 {
		if l.Blocked(a, t0) {
			t.Fatalf("blocked after %d failures", i)
		}
		l.Fail(a, t0)
	}
	if !l.Blocked(a, t0.Add(59*time.Second)) {
		t.Fatal("not blocked after 3 failures")
	}
	if l.Blocked(netip.MustParseAddr("192.0.2.8"), t0) {
		t.Fatal("a neighbouring IPv4 address was blocked")
	}
	if l.Blocked(a, t0.Add(time.Minute)) {
		t.Fatal("still blocked after the window")
	}
}

func TestIPv6GroupedBy64(t *testing.T) {
	l := New(2, time.Minute)
	t0 := time.Unix(0, 0)
	l.Fail(netip.MustParseAddr("2001:db8:1:2::1"), t0)
	l.Fail(netip.MustParseAddr("2001:db8:1:2:ffff::9"), t0)
	if !l.Blocked(netip.MustParseAddr("2001:db8:1:2:abcd::77"), t0) {
		t.Fatal("another address of the same /64 is not blocked")
	}
	if l.Blocked(netip.MustParseAddr("2001:db8:1:3::1"), t0) {
		t.Fatal("the next /64 is blocked")
	}
	// An IPv4-mapped address counts as its IPv4 address.
	l.Fail(netip.MustParseAddr("::ffff:192.0.2.1"), t0)
	l.Fail(netip.MustParseAddr("192.0.2.1"), t0)
	if !l.Blocked(netip.MustParseAddr("192.0.2.1"), t0) {
		t.Fatal("mapped and plain IPv4 counted apart")
	}
}

func TestTableBounded(t *testing.T) {
	l := New(1, time.Minute)
	t0 := time.Unix(0, 0)
	for i := range maxTracked + 100 {
		l.Fail(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}), t0)
	}
	if n := len(l.byAddr); n > maxTracked {
		t.Fatalf("%d addresses tracked", n)
	}
}

func TestAddrOf(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1:80":       "192.0.2.1",
		"[2001:db8::1]:443":  "2001:db8::1",
		"[fe80::1%eth0]:443": "fe80::1%eth0",
		"192.0.2.9":          "192.0.2.9",
		"pipe":               "invalid IP",
	} {
		if got := AddrOf(in).String(); got != want {
			t.Errorf("AddrOf(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestBlockedSurvivesAFullTable: failures from many other addresses fill
// the table many times over; the blocked address stays blocked, since
// prune forgets the oldest unblocked groups first.
func TestBlockedSurvivesAFullTable(t *testing.T) {
	l := New(2, time.Minute)
	t0 := time.Unix(0, 0)
	attacker := netip.MustParseAddr("198.51.100.1")
	l.Fail(attacker, t0)
	l.Fail(attacker, t0)
	for i := range 5 * maxTracked {
		a := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		l.Fail(a, t0.Add(time.Duration(i)*time.Microsecond))
		if !l.Blocked(attacker, t0) {
			t.Fatalf("the blocked address was forgotten after %d other failures", i+1)
		}
	}
	if n := len(l.byAddr); n > maxTracked {
		t.Fatalf("%d groups tracked", n)
	}
}

// TestIPv6SiteBudget: one failure from each of SiteFactor×max /64s of a
// /48 blocks the whole /48, a fresh /64 in it included; another /48 is
// not blocked.
func TestIPv6SiteBudget(t *testing.T) {
	l := New(3, time.Minute)
	t0 := time.Unix(0, 0)
	for i := range SiteFactor * 3 {
		a := netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 1, byte(i >> 8), byte(i), 15: 1})
		if l.Blocked(a, t0) {
			t.Fatalf("blocked after %d failures in the /48", i)
		}
		l.Fail(a, t0)
	}
	if !l.Blocked(netip.MustParseAddr("2001:db8:1:ffff::1"), t0) {
		t.Fatal("a fresh /64 of an exhausted /48 is not blocked")
	}
	if l.Blocked(netip.MustParseAddr("2001:db8:2::1"), t0) {
		t.Fatal("another /48 is blocked")
	}
	if l.Blocked(netip.MustParseAddr("2001:db8:1:ffff::1"), t0.Add(time.Minute)) {
		t.Fatal("still blocked after the window")
	}
}
