package sysmon

import (
	"testing"

	"github.com/shirou/gopsutil/v3/mem"
)

// TestMemoryUsedMatchesFree checks "used" is total - available, as free(1)
// from procps-ng 4 prints it, not gopsutil's total - free - buffers - cached.
func TestMemoryUsedMatchesFree(t *testing.T) {
	// A reading from this kind of host: free -b printed
	// total 25276502016, used 475607040, available 24800894976.
	vm := &mem.VirtualMemoryStat{
		Total: 25276502016, Available: 24800894976, Free: 24243204096,
		Buffers: 100 << 20, Cached: 782343936 - 100<<20,
		Used: 25276502016 - 24243204096 - 782343936, UsedPercent: 1,
	}
	used, pct := memoryUsed(vm)
	if used != 475607040 {
		t.Errorf("used = %d, want 475607040 (total - available)", used)
	}
	if want := float64(475607040) / 25276502016 * 100; pct != want {
		t.Errorf("pct = %v, want %v", pct, want)
	}
}

func TestMemoryUsedFallsBack(t *testing.T) {
	for _, vm := range []*mem.VirtualMemoryStat{
		{Total: 0, Used: 5, UsedPercent: 7},
		{Total: 100, Available: 0, Used: 40, UsedPercent: 40},
		{Total: 100, Available: 200, Used: 40, UsedPercent: 40},
	} {
		used, pct := memoryUsed(vm)
		if used != vm.Used || pct != vm.UsedPercent {
			t.Errorf("%+v: got %d %v, want gopsutil's %d %v", vm, used, pct, vm.Used, vm.UsedPercent)
		}
	}
}
