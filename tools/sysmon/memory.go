package sysmon

import (
	"context"
	"fmt"
)

// memoryReport builds the "memory" section.
func (m *Monitor) memoryReport(ctx context.Context) *MemoryReport {
	vm, err := m.probe.virtualMemory(ctx)
	if err != nil {
		return &MemoryReport{Error: fmt.Sprintf("reading memory: %v", err)}
	}
	return &MemoryReport{Usage: newUsage(vm.Total, vm.Used, vm.Available, vm.UsedPercent)}
}
