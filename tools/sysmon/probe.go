package sysmon

import (
	"context"
	"errors"
	"os"

	"github.com/shirou/gopsutil/v3/cpu"
	"github.com/shirou/gopsutil/v3/disk"
	"github.com/shirou/gopsutil/v3/host"
	"github.com/shirou/gopsutil/v3/load"
	"github.com/shirou/gopsutil/v3/mem"
)

// errNoCPUTimes is returned when gopsutil reports no aggregate CPU times.
var errNoCPUTimes = errors.New("sysmon: no cpu times reported")

// probe is the set of system reads a Monitor makes. The default is backed
// by gopsutil; tests substitute fakes.
type probe struct {
	cpuTimes      func(ctx context.Context) (cpu.TimesStat, error)
	cpuCounts     func(ctx context.Context, logical bool) (int, error)
	cpuInfo       func(ctx context.Context) ([]cpu.InfoStat, error)
	loadAvg       func(ctx context.Context) (*load.AvgStat, error)
	virtualMemory func(ctx context.Context) (*mem.VirtualMemoryStat, error)
	partitions    func(ctx context.Context, all bool) ([]disk.PartitionStat, error)
	diskUsage     func(ctx context.Context, path string) (*disk.UsageStat, error)
	isDir         func(path string) bool
	uptime        func(ctx context.Context) (uint64, error)
}

// systemProbe returns the gopsutil-backed probe.
func systemProbe() probe {
	return probe{
		cpuTimes:      aggregateCPUTimes,
		cpuCounts:     cpu.CountsWithContext,
		cpuInfo:       cpu.InfoWithContext,
		loadAvg:       load.AvgWithContext,
		virtualMemory: mem.VirtualMemoryWithContext,
		partitions:    disk.PartitionsWithContext,
		diskUsage:     disk.UsageWithContext,
		isDir:         isDir,
		uptime:        host.UptimeWithContext,
	}
}

// aggregateCPUTimes returns the CPU times summed over all CPUs.
func aggregateCPUTimes(ctx context.Context) (cpu.TimesStat, error) {
	ts, err := cpu.TimesWithContext(ctx, false)
	if err != nil {
		return cpu.TimesStat{}, err
	}
	if len(ts) == 0 {
		return cpu.TimesStat{}, errNoCPUTimes
	}
	return ts[0], nil
}

// isDir reports whether path is a directory. Files bind-mounted into
// containers (/etc/hosts and friends) are mount points but not disks.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
