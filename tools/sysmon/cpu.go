package sysmon

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// cpuStatic is CPU information that does not change while running, read
// once by New.
type cpuStatic struct {
	cores, logical int
	frequency      string
	errs           []string
}

// readCPUStatic reads core counts and the nominal frequency. Failures are
// kept for the report rather than failing New.
func (m *Monitor) readCPUStatic(ctx context.Context) cpuStatic {
	s := cpuStatic{frequency: "unknown"}
	var err error
	if s.cores, err = m.probe.cpuCounts(ctx, false); err != nil {
		s.errs = append(s.errs, fmt.Sprintf("counting cores: %v", err))
	}
	if s.logical, err = m.probe.cpuCounts(ctx, true); err != nil {
		s.errs = append(s.errs, fmt.Sprintf("counting logical cores: %v", err))
	}
	// A missing frequency is normal on some platforms (ARM, VMs): report
	// "unknown", not an error.
	if infos, err := m.probe.cpuInfo(ctx); err == nil {
		for _, in := range infos {
			if in.Mhz > 0 {
				s.frequency = fmt.Sprintf("%.1fMHz", in.Mhz)
				break
			}
		}
	}
	return s
}

// cpuReport builds the "cpu" section. With interval zero the usage comes
// from the Sampler — the same recent window for every caller, the chat's
// answers and the web page's gauge alike — or, before its first tick,
// from a firstWindow measured now; otherwise it is measured over
// interval. Only a cancelled ctx is returned as an error.
func (m *Monitor) cpuReport(ctx context.Context, interval time.Duration) (*CPUReport, error) {
	r := &CPUReport{
		Cores:        m.static.cores,
		LogicalCores: m.static.logical,
		Frequency:    m.static.frequency,
	}
	errs := append([]string(nil), m.static.errs...)

	var pct float64
	var err error
	if interval > 0 {
		pct, err = m.measureCPU(ctx, interval)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("sampling cpu: %w", ctxErr)
		}
	} else {
		var fresh bool
		pct, fresh, err = m.sampler.recent()
		if err == nil && !fresh {
			// Before the sampler's first tick its value is the average
			// since boot (an idle week hides a busy minute: 4% beside a
			// web gauge at 99.5%): measure a short window instead.
			pct, err = m.measureCPU(ctx, m.firstWindow)
			if ctxErr := ctx.Err(); ctxErr != nil {
				return nil, fmt.Errorf("sampling cpu: %w", ctxErr)
			}
		}
	}
	if err != nil {
		errs = append(errs, err.Error())
	} else {
		pct = round1(pct)
		r.UsagePercent = &pct
	}

	if avg, err := m.probe.loadAvg(ctx); err != nil {
		errs = append(errs, fmt.Sprintf("reading load average: %v", err))
	} else {
		r.LoadAvg = &LoadAvg{Load1: round2(avg.Load1), Load5: round2(avg.Load5), Load15: round2(avg.Load15)}
	}
	r.Error = strings.Join(errs, "; ")
	return r, nil
}

// measureCPU returns the CPU usage percentage over interval.
func (m *Monitor) measureCPU(ctx context.Context, interval time.Duration) (float64, error) {
	t1, err := m.probe.cpuTimes(ctx)
	if err != nil {
		return 0, fmt.Errorf("sampling cpu times: %w", err)
	}
	timer := time.NewTimer(interval)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-timer.C:
	}
	t2, err := m.probe.cpuTimes(ctx)
	if err != nil {
		return 0, fmt.Errorf("sampling cpu times: %w", err)
	}
	return busyPercent(t1, t2), nil
}
