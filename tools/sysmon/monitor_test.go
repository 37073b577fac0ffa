package sysmon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/shirou/gopsutil/v3/cpu"
	"github.com/shirou/gopsutil/v3/load"
	"github.com/shirou/gopsutil/v3/mem"

	"opsassist/tools"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// newTestMonitor returns a Monitor on the real system, closed at cleanup.
func newTestMonitor(t testing.TB) *Monitor {
	t.Helper()
	m, err := New(Config{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// run calls m.Run and returns its output as decoded JSON.
func run(t *testing.T, m *Monitor, raw string) map[string]any {
	t.Helper()
	out, err := m.Run(t.Context(), &tools.Call{}, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("Run(%s): %v", raw, err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatalf("encoding output: %v", err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("decoding output: %v", err)
	}
	return got
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s mismatch (run with -update to accept)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestSpecGolden(t *testing.T) {
	m := newTestMonitor(t)
	s := m.Spec()
	if s.Name != "sys_monitor" || s.Risk != tools.RiskReadOnly || s.Timeout != 15*time.Second {
		t.Errorf("Spec = %q, %q, %v; want sys_monitor, read_only, 15s", s.Name, s.Risk, s.Timeout)
	}
	var params bytes.Buffer
	if err := json.Indent(&params, s.Parameters, "", "  "); err != nil {
		t.Fatalf("Parameters is not JSON: %v", err)
	}
	got, err := json.MarshalIndent(map[string]any{
		"name":        s.Name,
		"description": s.Description,
		"parameters":  json.RawMessage(params.Bytes()),
		"risk":        s.Risk,
		"timeout":     s.Timeout.String(),
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "spec.golden", append(got, '\n'))
}

func TestNewInvalidConfig(t *testing.T) {
	if _, err := New(Config{SampleInterval: -1}); !errors.Is(err, ErrInvalidConfig) {
		t.Fatalf("New error = %v, want ErrInvalidConfig", err)
	}
}

// TestRunShape checks each metric's output on the real system: which
// sections appear, their keys and types, and sane values.
func TestRunShape(t *testing.T) {
	all := []string{"cpu", "memory", "disk"}
	tests := []struct {
		raw  string
		want []string
	}{
		{`{}`, all},
		{`{"metric":"all"}`, all},
		{`{"metric":"cpu"}`, []string{"cpu"}},
		{`{"metric":"memory"}`, []string{"memory"}},
		{`{"metric":"disk"}`, []string{"disk"}},
	}
	m := newTestMonitor(t)
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got := run(t, m, tt.raw)
			up, ok := got["uptime_s"].(float64)
			if !ok || up <= 0 {
				t.Errorf("uptime_s = %v, want a positive number", got["uptime_s"])
			}
			for _, sec := range all {
				v, present := got[sec]
				if present != slices.Contains(tt.want, sec) {
					t.Fatalf("section %q present = %v, want %v", sec, present, !present)
				}
				if !present {
					continue
				}
				obj, ok := v.(map[string]any)
				if !ok {
					t.Fatalf("%s = %T, want object", sec, v)
				}
				if e, ok := obj["error"]; ok {
					t.Errorf("%s.error = %v", sec, e)
				}
				switch sec {
				case "cpu":
					checkCPU(t, obj)
				case "memory":
					checkUsage(t, "memory", obj)
				case "disk":
					checkUsage(t, "disk", obj)
					checkMounts(t, obj)
				}
			}
		})
	}
}

var humanSize = regexp.MustCompile(`^(\d+ B|\d+\.\d [KMGTPE]iB)$`)

func checkPercent(t *testing.T, where string, v any) {
	t.Helper()
	p, ok := v.(float64)
	if !ok || p < 0 || p > 100 {
		t.Errorf("%s = %v (%T), want a number in [0, 100]", where, v, v)
	}
}

func checkCPU(t *testing.T, c map[string]any) {
	t.Helper()
	checkPercent(t, "cpu.usage_percent", c["usage_percent"])
	cores, _ := c["cores"].(float64)
	logical, _ := c["logical_cores"].(float64)
	if cores < 1 || logical < cores {
		t.Errorf("cpu cores, logical_cores = %v, %v; want 1 <= cores <= logical", c["cores"], c["logical_cores"])
	}
	if f, ok := c["frequency"].(string); !ok || !regexp.MustCompile(`^(\d+\.\dMHz|unknown)$`).MatchString(f) {
		t.Errorf("cpu.frequency = %v, want \"1234.5MHz\" or \"unknown\"", c["frequency"])
	}
	la, ok := c["load_avg"].(map[string]any)
	if !ok {
		t.Fatalf("cpu.load_avg = %v, want object", c["load_avg"])
	}
	for _, k := range []string{"1m", "5m", "15m"} {
		if v, ok := la[k].(float64); !ok || v < 0 {
			t.Errorf("cpu.load_avg.%s = %v, want a non-negative number", k, la[k])
		}
	}
}

func checkUsage(t *testing.T, sec string, u map[string]any) {
	t.Helper()
	for _, k := range []string{"total", "used", "available"} {
		if s, ok := u[k].(string); !ok || !humanSize.MatchString(s) {
			t.Errorf("%s.%s = %v, want a size like \"23.5 GiB\"", sec, k, u[k])
		}
	}
	checkPercent(t, sec+".usage_percent", u["usage_percent"])
	total, ok1 := u["total_bytes"].(float64)
	used, ok2 := u["used_bytes"].(float64)
	avail, ok3 := u["available_bytes"].(float64)
	if !ok1 || !ok2 || !ok3 || total <= 0 || used > total || avail > total {
		t.Errorf("%s bytes total, used, available = %v, %v, %v; want numbers with used, available <= total",
			sec, u["total_bytes"], u["used_bytes"], u["available_bytes"])
	}
}

func checkMounts(t *testing.T, d map[string]any) {
	t.Helper()
	mounts, ok := d["mounts"].([]any)
	if !ok || len(mounts) == 0 {
		t.Fatalf("disk.mounts = %v, want a non-empty array", d["mounts"])
	}
	devices := map[string]bool{}
	for i, v := range mounts {
		mt, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("disk.mounts[%d] = %T, want object", i, v)
		}
		mp, _ := mt["mountpoint"].(string)
		dev, _ := mt["device"].(string)
		if mp == "" || devices[dev] {
			t.Errorf("disk.mounts[%d] mountpoint %q device %q: want a mount point, unique device", i, mp, dev)
		}
		devices[dev] = true
		if fs, _ := mt["fstype"].(string); fs == "" || fs == "proc" || fs == "tmpfs" || fs == "sysfs" {
			t.Errorf("disk.mounts[%d].fstype = %q, want a real filesystem", i, fs)
		}
		checkPercent(t, "disk.mounts.usage_percent", mt["usage_percent"])
		total, ok1 := mt["total"].(float64)
		used, ok2 := mt["used"].(float64)
		_, ok3 := mt["available"].(float64)
		if !ok1 || !ok2 || !ok3 || used > total {
			t.Errorf("disk.mounts[%d] total, used, available = %v, %v, %v; want numbers with used <= total",
				i, mt["total"], mt["used"], mt["available"])
		}
	}
}

// TestRunRightAfterNew checks that a call before the sampler's first tick
// still reports a CPU percentage.
func TestRunRightAfterNew(t *testing.T) {
	m, err := New(Config{SampleInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	got := run(t, m, `{"metric":"cpu"}`)
	checkPercent(t, "cpu.usage_percent", got["cpu"].(map[string]any)["usage_percent"])
}

func TestRunInterval(t *testing.T) {
	m := newTestMonitor(t)
	start := time.Now()
	got := run(t, m, `{"metric":"cpu","interval":0.1}`)
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("Run with interval 0.1 took %v, want >= 100ms", d)
	}
	checkPercent(t, "cpu.usage_percent", got["cpu"].(map[string]any)["usage_percent"])
}

// TestRunGolden pins the full output for a fake system.
// The call comes before the sampler's first tick, so it measures its
// own first window: New, window start, window end (12.3%).
func TestRunGolden(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fakeTimes{seq: []cpu.TimesStat{{}, {}, {User: 123, Idle: 877}}}
		m, err := newMonitor(Config{SampleInterval: time.Hour}, fakeProbe(ft))
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		out, err := m.Run(t.Context(), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "report_all.golden", append(got, '\n'))
	})
}

// TestRunRecentWindowNotSinceBoot: the answer and the web gauge read the
// same recent window. A call right after start measured the average
// since boot (4% on an idle-for-days machine now at 99.5%); it now
// measures a first window, and once the sampler has ticked every call
// reads the sampler's last window.
func TestRunRecentWindowNotSinceBoot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fakeTimes{seq: []cpu.TimesStat{
			{User: 40, Idle: 960},   // New: 4% since boot
			{User: 40, Idle: 960},   // first window start
			{User: 239, Idle: 961},  // first window end: 99.5%
			{User: 438, Idle: 962},  // first tick (1s after New): 99.5% of the last second
			{User: 438, Idle: 1162}, // second tick: 0%
		}}
		m, err := newMonitor(Config{SampleInterval: time.Second}, fakeProbe(ft))
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		usage := func() float64 {
			out, err := m.Run(t.Context(), nil, json.RawMessage(`{"metric":"cpu"}`))
			if err != nil {
				t.Fatal(err)
			}
			return *out.(*Report).CPU.UsagePercent
		}
		if u := usage(); u != 99.5 {
			t.Errorf("right after start: %v, want 99.5 (not 4 since boot)", u)
		}
		time.Sleep(time.Second) // fake clock: the first tick
		synctest.Wait()
		if u := usage(); u != 99.5 {
			t.Errorf("after the first tick: %v, want 99.5", u)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if u := usage(); u != 0 {
			t.Errorf("after the second tick: %v, want 0", u)
		}
	})
}

// TestRunSectionErrors checks that a failing read is reported inside its
// section and leaves the other sections intact.
func TestRunSectionErrors(t *testing.T) {
	// New, then the first window's start and end (50%).
	ft := &fakeTimes{seq: []cpu.TimesStat{{}, {}, {User: 50, Idle: 50}}}
	p := fakeProbe(ft)
	boom := errors.New("boom")
	p.cpuInfo = func(context.Context) ([]cpu.InfoStat, error) { return nil, boom }
	p.loadAvg = func(context.Context) (*load.AvgStat, error) { return nil, boom }
	p.virtualMemory = func(context.Context) (*mem.VirtualMemoryStat, error) { return nil, boom }
	p.uptime = func(context.Context) (uint64, error) { return 0, boom }
	m, err := newMonitor(Config{SampleInterval: time.Hour}, p)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()

	out, err := m.Run(t.Context(), nil, json.RawMessage(`{"metric":"all"}`))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	r := out.(*Report)
	if r.CPU.UsagePercent == nil || *r.CPU.UsagePercent != 50 || r.CPU.Frequency != "unknown" ||
		r.CPU.LoadAvg != nil || r.CPU.Error != "reading load average: boom" {
		t.Errorf("cpu = %+v; want usage 50, frequency unknown, load error", r.CPU)
	}
	if r.Memory.Usage != nil || r.Memory.Error != "reading memory: boom" {
		t.Errorf("memory = %+v; want only the error", r.Memory)
	}
	if r.Disk.Usage == nil || r.Disk.Error != "" || r.Disk.TotalBytes != 100<<30 {
		t.Errorf("disk = %+v; want the fake / usage", r.Disk)
	}
	if r.UptimeError == "" {
		t.Error("uptime_error empty, want the uptime failure")
	}

	b, _ := json.Marshal(r.Memory)
	if string(b) != `{"error":"reading memory: boom"}` {
		t.Errorf("memory JSON = %s", b)
	}
}

func TestRunDiskNoFilesystem(t *testing.T) {
	p := fakeProbe(&fakeTimes{seq: []cpu.TimesStat{{}}})
	p.isDir = func(string) bool { return false }
	m, err := newMonitor(Config{SampleInterval: time.Hour}, p)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	out, err := m.Run(t.Context(), nil, json.RawMessage(`{"metric":"disk"}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := out.(*Report).Disk; d.Usage != nil || d.Error != errNoFilesystem.Error() {
		t.Errorf("disk = %+v, want only %q", d, errNoFilesystem)
	}
}

func TestRunIntervalFake(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fakeTimes{seq: []cpu.TimesStat{
			{User: 10, Idle: 90},  // New
			{User: 10, Idle: 90},  // interval start
			{User: 40, Idle: 160}, // interval end: 30%
		}}
		m, err := newMonitor(Config{SampleInterval: time.Hour}, fakeProbe(ft))
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		start := time.Now()
		out, err := m.Run(t.Context(), nil, json.RawMessage(`{"metric":"cpu","interval":2.5}`))
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d != 2500*time.Millisecond {
			t.Errorf("Run took %v, want 2.5s", d)
		}
		if u := out.(*Report).CPU.UsagePercent; u == nil || *u != 30 {
			t.Errorf("usage_percent = %v, want 30", u)
		}
	})
}

func TestRunIntervalCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, err := newMonitor(Config{}, fakeProbe(&fakeTimes{seq: []cpu.TimesStat{{}}}))
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		start := time.Now()
		_, err = m.Run(ctx, nil, json.RawMessage(`{"interval":10}`))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Run error = %v, want DeadlineExceeded", err)
		}
		if d := time.Since(start); d != time.Second {
			t.Errorf("Run returned after %v, want 1s", d)
		}
	})
}

func TestRunInvalidArgs(t *testing.T) {
	m := newTestMonitor(t)
	if _, err := m.Run(t.Context(), nil, json.RawMessage(`{"metric":"gpu"}`)); !errors.Is(err, ErrInvalidArgs) {
		t.Fatalf("Run error = %v, want ErrInvalidArgs", err)
	}
}

// BenchmarkRunCached measures a call answered from the background sampler
// (no interval), all sections, on the real system.
func BenchmarkRunCached(b *testing.B) {
	m := newTestMonitor(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := m.Run(ctx, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRegistry registers the tool with the real Registry: its schema must
// compile, accept the documented arguments and reject others.
func TestRegistry(t *testing.T) {
	reg := tools.NewRegistry(tools.Config{})
	if err := reg.Register(newTestMonitor(t)); err != nil {
		t.Fatalf("Register: %v", err)
	}
	for raw, ok := range map[string]bool{
		``:                                true,
		`{"metric":"memory"}`:             true,
		`{"metric":"disk","interval":10}`: true,
		`{"metric":"gpu"}`:                false,
		`{"interval":0.01}`:               false,
		`{"verbose":true}`:                false,
	} {
		o := reg.Execute(t.Context(), &tools.Call{}, Name, raw)
		if o.Result.Success != ok {
			t.Errorf("Execute(%s) success = %v (%s), want %v", raw, o.Result.Success, o.Result.Error, ok)
		}
	}
}
