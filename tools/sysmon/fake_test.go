package sysmon

import (
	"context"
	"sync"

	"github.com/shirou/gopsutil/v3/cpu"
	"github.com/shirou/gopsutil/v3/disk"
	"github.com/shirou/gopsutil/v3/load"
	"github.com/shirou/gopsutil/v3/mem"
)

// fakeTimes returns the given CPU times in order, repeating the last one.
type fakeTimes struct {
	mu    sync.Mutex
	seq   []cpu.TimesStat
	err   error // returned instead while set
	calls int
}

func (f *fakeTimes) times(context.Context) (cpu.TimesStat, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return cpu.TimesStat{}, f.err
	}
	i := min(f.calls, len(f.seq)-1)
	f.calls++
	return f.seq[i], nil
}

func (f *fakeTimes) setErr(err error) {
	f.mu.Lock()
	f.err = err
	f.mu.Unlock()
}

// fakeProbe returns a deterministic probe: 4 cores, 8 threads, 2400 MHz,
// 16 GiB memory a quarter used, and a container-like mount table whose
// only real filesystems are "/" (overlay, 100 GiB, 40% used) and /data.
func fakeProbe(ft *fakeTimes) probe {
	const gib = 1 << 30
	return probe{
		cpuTimes: ft.times,
		cpuCounts: func(_ context.Context, logical bool) (int, error) {
			if logical {
				return 8, nil
			}
			return 4, nil
		},
		cpuInfo: func(context.Context) ([]cpu.InfoStat, error) {
			return []cpu.InfoStat{{Mhz: 2400}}, nil
		},
		loadAvg: func(context.Context) (*load.AvgStat, error) {
			return &load.AvgStat{Load1: 0.123, Load5: 0.5, Load15: 1}, nil
		},
		virtualMemory: func(context.Context) (*mem.VirtualMemoryStat, error) {
			return &mem.VirtualMemoryStat{Total: 16 * gib, Used: 4 * gib, Available: 12 * gib, UsedPercent: 25}, nil
		},
		partitions: func(context.Context, bool) ([]disk.PartitionStat, error) {
			return []disk.PartitionStat{
				{Device: "proc", Mountpoint: "/proc", Fstype: "proc"},
				{Device: "/dev/sdb1", Mountpoint: "/data", Fstype: "xfs"},
				{Device: "overlay", Mountpoint: "/", Fstype: "overlay"},
				{Device: "tmpfs", Mountpoint: "/dev/shm", Fstype: "tmpfs"},
				{Device: "/dev/sda1", Mountpoint: "/etc/hosts", Fstype: "ext4"},
				{Device: "/dev/sdb1", Mountpoint: "/data-bind", Fstype: "xfs"},
			}, nil
		},
		diskUsage: func(_ context.Context, path string) (*disk.UsageStat, error) {
			switch path {
			case "/":
				return &disk.UsageStat{Path: path, Total: 100 * gib, Used: 40 * gib, Free: 60 * gib, UsedPercent: 40}, nil
			case "/data":
				return &disk.UsageStat{Path: path, Total: 10 * gib, Used: 1 * gib, Free: 9 * gib, UsedPercent: 10}, nil
			}
			return &disk.UsageStat{Path: path}, nil
		},
		isDir:  func(path string) bool { return path != "/etc/hosts" },
		uptime: func(context.Context) (uint64, error) { return 12345, nil },
	}
}
