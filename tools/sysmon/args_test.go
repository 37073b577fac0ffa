package sysmon

import (
	"errors"
	"testing"
	"time"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		raw  string
		want args
	}{
		{``, args{metric: MetricAll}},
		{`null`, args{metric: MetricAll}},
		{`{}`, args{metric: MetricAll}},
		{`{"metric":"cpu"}`, args{metric: MetricCPU}},
		{`{"metric":"memory","interval":null}`, args{metric: MetricMemory}},
		{`{"metric":"disk","interval":0.1}`, args{metric: MetricDisk, interval: 100 * time.Millisecond}},
		{`{"interval":10}`, args{metric: MetricAll, interval: 10 * time.Second}},
	}
	for _, tt := range tests {
		got, err := parseArgs([]byte(tt.raw))
		if err != nil || got != tt.want {
			t.Errorf("parseArgs(%s) = %+v, %v; want %+v, nil", tt.raw, got, err, tt.want)
		}
	}
}

func TestParseArgsInvalid(t *testing.T) {
	for _, raw := range []string{
		`{"metric":"network"}`,
		`{"metric":1}`,
		`{"interval":0}`,
		`{"interval":0.05}`,
		`{"interval":10.5}`,
		`{"interval":"1"}`,
		`{"extra":true}`,
		`[]`,
		`{`,
	} {
		if _, err := parseArgs([]byte(raw)); !errors.Is(err, ErrInvalidArgs) {
			t.Errorf("parseArgs(%s) error = %v, want ErrInvalidArgs", raw, err)
		}
	}
}
