package sysmon

import (
	"context"
	"fmt"

	"github.com/shirou/gopsutil/v3/mem"
)

// memoryReport builds the "memory" section.
func (m *Monitor) memoryReport(ctx context.Context) *MemoryReport {
	vm, err := m.probe.virtualMemory(ctx)
	if err != nil {
		return &MemoryReport{Error: fmt.Sprintf("reading memory: %v", err)}
	}
	used, pct := memoryUsed(vm)
	return &MemoryReport{Usage: newUsage(vm.Total, used, vm.Available, pct)}
}

// memoryUsed returns the memory in use and its share of the total, defined
// as procps-ng's free(1) (4.x) defines its "used" column: total minus
// MemAvailable. gopsutil's Used (total - free - buffers - cached -
// SReclaimable) leaves out memory the kernel cannot reclaim from the page
// cache (shmem, tmpfs) and showed about half of what free shows. Without
// an available figure (kernels before 3.14 do not export MemAvailable and
// gopsutil estimates it) gopsutil's Used is kept.
func memoryUsed(vm *mem.VirtualMemoryStat) (used uint64, pct float64) {
	if vm.Total == 0 {
		return vm.Used, vm.UsedPercent
	}
	if vm.Available == 0 || vm.Available > vm.Total {
		return vm.Used, vm.UsedPercent
	}
	used = vm.Total - vm.Available
	return used, float64(used) / float64(vm.Total) * 100
}
