package builtin

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDiskLine: the disk line shows df's figures — used, available,
// size, Use% as used / (used + available) — and says how much of the
// size is reserved when used and available do not add up to it, in
// both languages, sizes formatted by bytesize.
func TestDiskLine(t *testing.T) {
	const gib = 1 << 30
	for _, tc := range []struct {
		name   string
		disk   string
		zh, en string
	}{
		{
			// This machine's overlay root: df -B1 / printed 270553174016
			// 39587016704 58206277632 41%.
			"overlay with a large reserve",
			`{"total":"252.0GB","used":"36.9GB","available":"54.2GB","usage_percent":40.5,"total_bytes":270553174016,"used_bytes":39587016704,"available_bytes":58206277632}`,
			"磁盘使用率：40.5%（已用 36.9 GiB，可用 54.2 GiB；容量 252.0 GiB，其中 160.9 GiB 为保留或不可用空间）",
			"Disk usage: 40.5% (36.9 GiB used, 54.2 GiB available; size 252.0 GiB, of which 160.9 GiB is reserved or otherwise unavailable)",
		},
		{
			"ext4 with 5 % reserved",
			`{"usage_percent":42.1,"total_bytes":` + itoa(100*gib) + `,"used_bytes":` + itoa(40*gib) + `,"available_bytes":` + itoa(55*gib) + `,"total":"100.0GB"}`,
			"磁盘使用率：42.1%（已用 40.0 GiB，可用 55.0 GiB；容量 100.0 GiB，其中 5.0 GiB 为保留或不可用空间）",
			"Disk usage: 42.1% (40.0 GiB used, 55.0 GiB available; size 100.0 GiB, of which 5.0 GiB is reserved or otherwise unavailable)",
		},
		{
			"no reserve",
			`{"usage_percent":40,"total_bytes":` + itoa(10*gib) + `,"used_bytes":` + itoa(4*gib) + `,"available_bytes":` + itoa(6*gib) + `,"total":"10.0GB"}`,
			"磁盘使用率：40.0%（已用 4.0 GiB，可用 6.0 GiB；容量 10.0 GiB）",
			"Disk usage: 40.0% (4.0 GiB used, 6.0 GiB available; size 10.0 GiB)",
		},
		{
			"unreadable",
			`{"error":"no readable filesystem mounted"}`,
			"磁盘使用情况无法读取。",
			"Disk usage could not be read.",
		},
	} {
		raw := json.RawMessage(`{"disk":` + tc.disk + `,"uptime_s":0}`)
		if got := describeMonitor(true, raw); got != tc.zh {
			t.Errorf("%s, zh:\n got %s\nwant %s", tc.name, got, tc.zh)
		}
		if got := describeMonitor(false, raw); got != tc.en {
			t.Errorf("%s, en:\n got %s\nwant %s", tc.name, got, tc.en)
		}
		if strings.Contains(describeMonitor(true, raw), "剩余") {
			t.Errorf("%s: the old wording", tc.name)
		}
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestMemoryLineBytesize: the memory line says its sizes as the disk
// line does (bytesize), and keeps the tool's strings for an output
// without byte counts.
func TestMemoryLineBytesize(t *testing.T) {
	raw := json.RawMessage(`{"memory":{"total":"16.0GB","used":"4.0GB","available":"12.0GB","usage_percent":25,` +
		`"total_bytes":17179869184,"used_bytes":4294967296,"available_bytes":12884901888},"uptime_s":0}`)
	if got, want := describeMonitor(true, raw), "内存使用率：25.0%（已用 4.0 GiB / 共 16.0 GiB，可用 12.0 GiB）"; got != want {
		t.Errorf("zh: %s, want %s", got, want)
	}
	if got, want := describeMonitor(false, raw), "Memory usage: 25.0% (4.0 GiB used of 16.0 GiB, 12.0 GiB available)"; got != want {
		t.Errorf("en: %s, want %s", got, want)
	}
	old := json.RawMessage(`{"memory":{"total":"16.0GB","used":"4.0GB","available":"12.0GB","usage_percent":25},"uptime_s":0}`)
	if got := describeMonitor(false, old); !strings.Contains(got, "4.0GB used of 16.0GB") {
		t.Errorf("without byte counts: %s", got)
	}
}
