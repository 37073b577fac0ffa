package builtin

import (
	"fmt"

	"opsassist/internal/bytesize"
)

// diskUsage is sys_monitor's disk section as the answer reads it: df's
// figures (tools/sysmon DiskReport), the sizes in bytes and as the
// tool formats them, for an output without the byte counts.
type diskUsage struct {
	Total, Used, Available string
	TotalBytes             uint64  `json:"total_bytes"`
	UsedBytes              uint64  `json:"used_bytes"`
	AvailableBytes         uint64  `json:"available_bytes"`
	Usage                  float64 `json:"usage_percent"`
	Error                  string  `json:"error"`
}

// diskLine is the answer's disk line, with the figures df shows — used,
// available, size, and the share in use as df computes it, used /
// (used + available) — and, when the size is at least 1 % more than
// used plus available, how much of it is reserved or otherwise
// unavailable, so that the numbers add up: "磁盘使用率：40.5%（已用 36.9
// GiB，可用 54.2 GiB；容量 252.0 GiB，其中 161.0 GiB 为保留或不可用空间）".
func diskLine(zh bool, d diskUsage) string {
	t := lang(zh)
	if d.TotalBytes == 0 && d.Total == "" {
		// The raw reason stays in the tool's output and the log.
		return t("磁盘使用情况无法读取。", "Disk usage could not be read.")
	}
	if d.TotalBytes == 0 {
		// An output without byte counts: its strings, as they are.
		return fmt.Sprintf(t("磁盘使用率：%.1f%%（已用 %s，可用 %s；容量 %s）", "Disk usage: %.1f%% (%s used, %s available; size %s)"),
			d.Usage, d.Used, d.Available, d.Total)
	}
	used, avail, size := bytesize.Format(int64(d.UsedBytes)), bytesize.Format(int64(d.AvailableBytes)), bytesize.Format(int64(d.TotalBytes))
	line := fmt.Sprintf(t("磁盘使用率：%.1f%%（已用 %s，可用 %s；容量 %s", "Disk usage: %.1f%% (%s used, %s available; size %s"),
		d.Usage, used, avail, size)
	if d.UsedBytes+d.AvailableBytes < d.TotalBytes {
		if reserved := d.TotalBytes - d.UsedBytes - d.AvailableBytes; reserved*100 >= d.TotalBytes {
			line += fmt.Sprintf(t("，其中 %s 为保留或不可用空间", ", of which %s is reserved or otherwise unavailable"), bytesize.Format(int64(reserved)))
		}
	}
	return line + t("）", ")")
}
