package sysmon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrInvalidArgs is wrapped by Run for arguments outside the schema.
var ErrInvalidArgs = errors.New("sysmon: invalid arguments")

// Bounds of the "interval" argument, in seconds.
const (
	minInterval = 0.1
	maxInterval = 10
)

// Metric values of the "metric" argument.
const (
	MetricCPU    = "cpu"
	MetricMemory = "memory"
	MetricDisk   = "disk"
	MetricAll    = "all"
)

// args are the decoded arguments of one call.
type args struct {
	metric   string
	interval time.Duration // zero: use the background sampler
}

// wants reports whether section (MetricCPU, MetricMemory or MetricDisk)
// was requested.
func (a args) wants(section string) bool {
	return a.metric == MetricAll || a.metric == section
}

// parseArgs decodes and checks raw. The registry validates against the
// schema first; this re-checks so Run is safe on its own.
func parseArgs(raw json.RawMessage) (args, error) {
	var in struct {
		Metric   string   `json:"metric"`
		Interval *float64 `json:"interval"`
	}
	if len(bytes.TrimSpace(raw)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return args{}, fmt.Errorf("%w: %w", ErrInvalidArgs, err)
		}
	}
	a := args{metric: in.Metric}
	switch a.metric {
	case "":
		a.metric = MetricAll
	case MetricCPU, MetricMemory, MetricDisk, MetricAll:
	default:
		return args{}, fmt.Errorf("%w: metric %q is not one of cpu, memory, disk, all", ErrInvalidArgs, in.Metric)
	}
	if in.Interval != nil {
		iv := *in.Interval
		if !(iv >= minInterval && iv <= maxInterval) {
			return args{}, fmt.Errorf("%w: interval %v is outside [%v, %v] seconds", ErrInvalidArgs, iv, minInterval, maxInterval)
		}
		a.interval = time.Duration(iv * float64(time.Second))
	}
	return a, nil
}
