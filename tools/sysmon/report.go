package sysmon

// Report is the output of one sys_monitor call. Only the requested
// sections are set; UptimeS is always present.
type Report struct {
	CPU         *CPUReport    `json:"cpu,omitempty"`
	Memory      *MemoryReport `json:"memory,omitempty"`
	Disk        *DiskReport   `json:"disk,omitempty"`
	UptimeS     uint64        `json:"uptime_s"`
	UptimeError string        `json:"uptime_error,omitempty"`
}

// CPUReport is the "cpu" section. Fields that could not be read are
// omitted and the reasons joined in Error; Frequency is "unknown" when the
// platform does not report one.
type CPUReport struct {
	UsagePercent *float64 `json:"usage_percent,omitempty"`
	Cores        int      `json:"cores,omitempty"`
	LogicalCores int      `json:"logical_cores,omitempty"`
	Frequency    string   `json:"frequency"`
	LoadAvg      *LoadAvg `json:"load_avg,omitempty"`
	Error        string   `json:"error,omitempty"`
}

// LoadAvg is the 1, 5 and 15 minute load average.
type LoadAvg struct {
	Load1  float64 `json:"1m"`
	Load5  float64 `json:"5m"`
	Load15 float64 `json:"15m"`
}

// Usage is a capacity reading: human-readable sizes as in the tool
// contract ("23.5 GiB", IEC units), the same sizes in bytes, and the used percentage.
type Usage struct {
	Total          string  `json:"total"`
	Used           string  `json:"used"`
	UsagePercent   float64 `json:"usage_percent"`
	Available      string  `json:"available"`
	TotalBytes     uint64  `json:"total_bytes"`
	UsedBytes      uint64  `json:"used_bytes"`
	AvailableBytes uint64  `json:"available_bytes"`
}

// newUsage builds a Usage from byte counts and a percentage.
func newUsage(total, used, available uint64, pct float64) *Usage {
	return &Usage{
		Total:          humanBytes(total),
		Used:           humanBytes(used),
		UsagePercent:   round1(pct),
		Available:      humanBytes(available),
		TotalBytes:     total,
		UsedBytes:      used,
		AvailableBytes: available,
	}
}

// MemoryReport is the "memory" section: the Usage fields, or only Error.
type MemoryReport struct {
	*Usage
	Error string `json:"error,omitempty"`
}

// DiskReport is the "disk" section. The embedded Usage is that of "/", or
// of the first real mount if "/" could not be read; Mounts lists every
// real filesystem, one per device.
//
// The sizes are df(1)'s: Total is its Size (every block), Used its Used
// (blocks in use), Available its Avail (blocks an unprivileged user can
// still write), UsagePercent its Use% (used / (used + available), see
// dfPercent). Total is more than Used + Available by the blocks reserved
// for root (5 % on ext4 by default) or otherwise unusable.
type DiskReport struct {
	*Usage
	Mounts []Mount `json:"mounts,omitempty"`
	Error  string  `json:"error,omitempty"`
}

// Mount is one mounted filesystem, with sizes in bytes.
type Mount struct {
	Mountpoint   string  `json:"mountpoint"`
	Device       string  `json:"device"`
	Fstype       string  `json:"fstype"`
	Total        uint64  `json:"total"`
	Used         uint64  `json:"used"`
	UsagePercent float64 `json:"usage_percent"`
	Available    uint64  `json:"available"`
	Error        string  `json:"error,omitempty"`
}
