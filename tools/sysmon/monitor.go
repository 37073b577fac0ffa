package sysmon

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/tools"
)

// Name is the tool's function name.
const Name = "sys_monitor"

// Timeout bounds one call; it exceeds the longest "interval".
const Timeout = 15 * time.Second

const description = "Report this server's resource usage: CPU usage percent, cores, " +
	"frequency and load average; memory total/used/available; disk usage of / and " +
	"of every mounted filesystem, as df shows it (total is more than used + available " +
	"by the blocks reserved for root; usage_percent is used / (used + available)); uptime. " +
	"监控系统资源使用情况（CPU、内存、磁盘）。关键词：CPU、内存、磁盘、使用率、资源监控。"

const parameters = `{
  "type": "object",
  "properties": {
    "metric": {
      "type": "string",
      "enum": ["cpu", "memory", "disk", "all"],
      "default": "all",
      "description": "which resources to report; default all"
    },
    "interval": {
      "type": "number",
      "minimum": 0.1,
      "maximum": 10,
      "description": "sampling interval in seconds; omit to use the background sampler"
    }
  },
  "additionalProperties": false
}`

// Monitor is the sys_monitor tool. It owns a background Sampler; Close
// stops it.
type Monitor struct {
	log     *zap.Logger
	probe   probe
	sampler *Sampler
	static  cpuStatic
	// firstWindow is how long a call before the sampler's first tick
	// measures the CPU (firstWindow, or the sample interval if shorter).
	firstWindow time.Duration
}

// firstWindow bounds the CPU window a call measures itself when the
// sampler has no recent value yet (right after start).
const firstWindow = 250 * time.Millisecond

var _ tools.Tool = (*Monitor)(nil)

// New returns a Monitor and starts its Sampler.
func New(cfg Config) (*Monitor, error) {
	return newMonitor(cfg, systemProbe())
}

// newMonitor returns a Monitor over the given probe.
func newMonitor(cfg Config, p probe) (*Monitor, error) {
	cfg = cfg.populate()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	m := &Monitor{log: cfg.Logger, probe: p, firstWindow: min(firstWindow, cfg.SampleInterval)}
	m.static = m.readCPUStatic(context.Background())
	m.sampler = newSampler(cfg.SampleInterval, cfg.Logger, p.cpuTimes)
	return m, nil
}

// Spec describes sys_monitor.
func (m *Monitor) Spec() tools.Spec {
	return tools.Spec{
		Name:        Name,
		Description: description,
		Summary: api.Text{Zh: "监控本机资源使用情况：CPU、内存、磁盘和运行时间。",
			En: "Report this server's resource usage: CPU, memory, disks and uptime."},
		Parameters: json.RawMessage(parameters),
		Risk:       tools.RiskReadOnly,
		Timeout:    Timeout,
	}
}

// Run returns a *Report for the requested metric. Failures inside a
// section are reported in that section; Run itself fails only for bad
// arguments or a cancelled ctx.
func (m *Monitor) Run(ctx context.Context, _ *tools.Call, raw json.RawMessage) (any, error) {
	a, err := parseArgs(raw)
	if err != nil {
		return nil, err
	}
	r := &Report{}
	if a.wants(MetricCPU) {
		if r.CPU, err = m.cpuReport(ctx, a.interval); err != nil {
			return nil, err
		}
	}
	if a.wants(MetricMemory) {
		r.Memory = m.memoryReport(ctx)
	}
	if a.wants(MetricDisk) {
		r.Disk = m.diskReport(ctx)
	}
	if r.UptimeS, err = m.probe.uptime(ctx); err != nil {
		r.UptimeError = fmt.Sprintf("reading uptime: %v", err)
	}
	return r, nil
}

// Close stops the background Sampler. It is idempotent and returns nil.
func (m *Monitor) Close() error {
	return m.sampler.Close()
}
