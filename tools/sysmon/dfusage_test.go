package sysmon

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v3/cpu"
	"github.com/shirou/gopsutil/v3/disk"
)

// TestDiskPercentAsDF: the usage percent is df's Use%, used / (used +
// available), whatever the probe's own percent says, and the sizes are
// the probe's: size, used, available, with the reserve left out of both.
func TestDiskPercentAsDF(t *testing.T) {
	const gib = 1 << 30
	p := fakeProbe(&fakeTimes{seq: []cpu.TimesStat{{}}})
	p.diskUsage = func(_ context.Context, path string) (*disk.UsageStat, error) {
		// 100 GiB, 30 used, 50 available: 20 GiB reserved.
		return &disk.UsageStat{Path: path, Total: 100 * gib, Used: 30 * gib, Free: 50 * gib, UsedPercent: 99}, nil
	}
	m, err := newMonitor(Config{SampleInterval: time.Hour}, p)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r := m.diskReport(t.Context())
	if r.Usage == nil || r.UsagePercent != 37.5 || r.TotalBytes != 100*gib || r.UsedBytes != 30*gib || r.AvailableBytes != 50*gib {
		t.Fatalf("disk report %+v", r.Usage)
	}
	for _, mt := range r.Mounts {
		if mt.UsagePercent != 37.5 {
			t.Errorf("mount %s: %v%%", mt.Mountpoint, mt.UsagePercent)
		}
	}
	if got := dfPercent(0, 0); got != 0 {
		t.Errorf("dfPercent(0, 0) = %v", got)
	}
}

// TestDiskMatchesDF compares the report of "/" on this machine with
// what df -B1 / prints: the same size, and used and available within
// what other processes may write between the two reads.
func TestDiskMatchesDF(t *testing.T) {
	out, err := exec.Command("df", "-B1", "--output=size,used,avail,pcent,target", "/").Output()
	if err != nil {
		t.Skipf("df: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		t.Skipf("df printed %q", out)
	}
	f := strings.Fields(lines[1])
	if len(f) != 5 || f[4] != "/" {
		t.Skipf("df printed %q", out)
	}
	var n [3]uint64
	for i := range n {
		if n[i], err = strconv.ParseUint(f[i], 10, 64); err != nil {
			t.Fatalf("df field %q: %v", f[i], err)
		}
	}
	size, used, avail := n[0], n[1], n[2]
	pct, err := strconv.ParseFloat(strings.TrimSuffix(f[3], "%"), 64)
	if err != nil {
		t.Fatalf("df Use%% %q: %v", f[3], err)
	}

	u, err := systemProbe().diskUsage(t.Context(), "/")
	if err != nil {
		t.Skipf("reading /: %v", err)
	}
	const slack = 1 << 30
	within := func(a, b uint64) bool { return max(a, b)-min(a, b) <= slack }
	if u.Total != size || !within(u.Used, used) || !within(u.Free, avail) {
		t.Errorf("probe: size %d used %d available %d; df: %d %d %d", u.Total, u.Used, u.Free, size, used, avail)
	}
	// df rounds its Use% up to a whole percent.
	if got := dfPercent(u.Used, u.Free); got > pct || got < pct-1.5 {
		t.Errorf("dfPercent = %.2f, df says %v%%", got, pct)
	}
}
