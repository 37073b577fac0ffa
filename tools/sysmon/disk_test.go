package sysmon

import (
	"slices"
	"testing"

	"github.com/shirou/gopsutil/v3/disk"
)

func TestRealMounts(t *testing.T) {
	always := func(string) bool { return true }
	tests := []struct {
		name  string
		parts []disk.PartitionStat
		isDir func(string) bool
		want  []string // mount points
	}{
		{
			name: "host",
			parts: []disk.PartitionStat{
				{Device: "sysfs", Mountpoint: "/sys", Fstype: "sysfs"},
				{Device: "proc", Mountpoint: "/proc", Fstype: "proc"},
				{Device: "udev", Mountpoint: "/dev", Fstype: "devtmpfs"},
				{Device: "/dev/nvme0n1p2", Mountpoint: "/", Fstype: "ext4"},
				{Device: "tmpfs", Mountpoint: "/run", Fstype: "tmpfs"},
				{Device: "cgroup2", Mountpoint: "/sys/fs/cgroup", Fstype: "cgroup2"},
				{Device: "/dev/loop3", Mountpoint: "/snap/core/1", Fstype: "squashfs"},
				{Device: "/dev/nvme0n1p1", Mountpoint: "/boot/efi", Fstype: "vfat"},
				{Device: "lxcfs", Mountpoint: "/var/lib/lxcfs", Fstype: "fuse.lxcfs"},
			},
			isDir: always,
			want:  []string{"/", "/boot/efi"},
		},
		{
			name: "container with overlay root and file bind mounts",
			parts: []disk.PartitionStat{
				{Device: "overlay", Mountpoint: "/", Fstype: "overlay"},
				{Device: "overlay", Mountpoint: "/var/lib/docker/overlay2/x/merged", Fstype: "overlay"},
				{Device: "/dev/sda1", Mountpoint: "/etc/hosts", Fstype: "ext4"},
				{Device: "/dev/sda1", Mountpoint: "/srv", Fstype: "ext4"},
			},
			isDir: func(p string) bool { return p != "/etc/hosts" },
			want:  []string{"/", "/srv"},
		},
		{
			name: "bind mount of root device seen first",
			parts: []disk.PartitionStat{
				{Device: "/dev/sdb1", Mountpoint: "/data", Fstype: "xfs"},
				{Device: "/dev/sda1", Mountpoint: "/mnt/root-bind", Fstype: "ext4"},
				{Device: "/dev/sda1", Mountpoint: "/", Fstype: "ext4"},
				{Device: "/dev/sdb1", Mountpoint: "/data2", Fstype: "xfs"},
			},
			isDir: always,
			want:  []string{"/", "/data"},
		},
		{name: "none", parts: nil, isDir: always, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range realMounts(tt.parts, tt.isDir) {
				got = append(got, p.Mountpoint)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("realMounts = %q, want %q", got, tt.want)
			}
		})
	}
}
