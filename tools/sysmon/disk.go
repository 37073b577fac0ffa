package sysmon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/shirou/gopsutil/v3/disk"
)

// errNoFilesystem is reported when no real filesystem could be read.
var errNoFilesystem = errors.New("sysmon: no readable filesystem mounted")

// diskReport builds the "disk" section.
func (m *Monitor) diskReport(ctx context.Context) *DiskReport {
	parts, err := m.probe.partitions(ctx, true)
	if err != nil {
		return &DiskReport{Error: fmt.Sprintf("listing mounts: %v", err)}
	}
	r := &DiskReport{}
	top := -1 // index in r.Mounts of the mount whose usage is the summary
	for _, p := range realMounts(parts, m.probe.isDir) {
		mt := Mount{Mountpoint: p.Mountpoint, Device: p.Device, Fstype: p.Fstype}
		u, err := m.probe.diskUsage(ctx, p.Mountpoint)
		switch {
		case err != nil:
			mt.Error = fmt.Sprintf("reading usage: %v", err)
		case u.Total == 0:
			continue // a pseudo filesystem we did not know by name
		default:
			mt.Total, mt.Used, mt.Available = u.Total, u.Used, u.Free
			mt.UsagePercent = round1(dfPercent(u.Used, u.Free))
		}
		r.Mounts = append(r.Mounts, mt)
		if mt.Error == "" && (top < 0 || mt.Mountpoint == "/") {
			top = len(r.Mounts) - 1
		}
	}
	if top < 0 {
		r.Error = errNoFilesystem.Error()
		return r
	}
	t := r.Mounts[top]
	r.Usage = newUsage(t.Total, t.Used, t.Available, t.UsagePercent)
	return r
}

// dfPercent is the share of a filesystem in use as df(1) computes its
// Use%: used / (used + available), where available is what an
// unprivileged user can still write (f_bavail) — not used / size, since
// the size also counts blocks reserved for root or otherwise unusable.
// df rounds it up to a whole percent; the report keeps one decimal.
func dfPercent(used, available uint64) float64 {
	if used+available == 0 {
		return 0
	}
	return float64(used) * 100 / float64(used+available)
}

// realMounts returns the mounts in parts that hold real filesystems, one
// per device, "/" first when present. isDir filters out mount points that
// are files.
func realMounts(parts []disk.PartitionStat, isDir func(string) bool) []disk.PartitionStat {
	var out []disk.PartitionStat
	seen := make(map[string]int) // device -> index in out
	for _, p := range parts {
		if !isRealFS(p) || !isDir(p.Mountpoint) {
			continue
		}
		if i, ok := seen[p.Device]; ok {
			if p.Mountpoint == "/" {
				out[i] = p
			}
			continue
		}
		seen[p.Device] = len(out)
		out = append(out, p)
	}
	for i, p := range out {
		if p.Mountpoint == "/" && i > 0 {
			copy(out[1:i+1], out[:i])
			out[0] = p
			break
		}
	}
	return out
}

// isRealFS reports whether p is a filesystem worth reporting: not a kernel
// pseudo filesystem, memory-backed, or image mount. An overlay is kept
// only as the root of a container.
func isRealFS(p disk.PartitionStat) bool {
	fs := p.Fstype
	switch {
	case fs == "overlay" || fs == "aufs":
		return p.Mountpoint == "/"
	case strings.HasPrefix(fs, "cgroup"), strings.HasPrefix(fs, "fuse.lxcfs"),
		strings.HasPrefix(fs, "fuse.snapfuse"), strings.HasPrefix(fs, "fuse.gvfsd"):
		return false
	}
	switch fs {
	case "", "proc", "sysfs", "tmpfs", "devtmpfs", "devpts", "devfs", "ramfs",
		"squashfs", "mqueue", "debugfs", "tracefs", "securityfs", "pstore",
		"bpf", "configfs", "fusectl", "hugetlbfs", "autofs", "binfmt_misc",
		"rpc_pipefs", "nsfs", "efivarfs", "selinuxfs", "nfsd", "shm",
		"fuse.portal":
		return false
	}
	return true
}
