package sysmon

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/shirou/gopsutil/v3/cpu"
	"go.uber.org/zap"
)

func TestBusyPercent(t *testing.T) {
	tests := []struct {
		name   string
		t1, t2 cpu.TimesStat
		want   float64
	}{
		{"since boot", cpu.TimesStat{}, cpu.TimesStat{User: 25, Idle: 75}, 25},
		{"delta", cpu.TimesStat{User: 100, Idle: 100}, cpu.TimesStat{User: 130, System: 10, Idle: 150, Iowait: 10}, 40},
		{"idle only", cpu.TimesStat{User: 5, Idle: 5}, cpu.TimesStat{User: 5, Idle: 9}, 0},
		{"no change", cpu.TimesStat{User: 5, Idle: 5}, cpu.TimesStat{User: 5, Idle: 5}, 0},
		{"counter went back", cpu.TimesStat{User: 5, Idle: 50}, cpu.TimesStat{User: 6, Idle: 40}, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := busyPercent(tt.t1, tt.t2); got != tt.want {
				t.Errorf("busyPercent = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNewSamplerInvalidInterval(t *testing.T) {
	if _, err := NewSampler(-time.Second, nil); !errors.Is(err, ErrInvalidConfig) {
		t.Fatalf("NewSampler(-1s) error = %v, want ErrInvalidConfig", err)
	}
}

// TestSamplerFirstSample checks that a Sampler has a value before its
// first tick, on the real system.
func TestSamplerFirstSample(t *testing.T) {
	s, err := NewSampler(time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	pct, err := s.Percent()
	if err != nil {
		t.Fatalf("Percent: %v", err)
	}
	if pct < 0 || pct > 100 {
		t.Fatalf("Percent = %v, want in [0, 100]", pct)
	}
}

func TestSamplerTicks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fakeTimes{seq: []cpu.TimesStat{
			{User: 10, Idle: 90},   // New: 10% since boot
			{User: 60, Idle: 140},  // tick 1: 50/100
			{User: 60, Idle: 240},  // tick 2: 0/100
			{User: 160, Idle: 240}, // tick 3: 100/100
		}}
		s := newSampler(time.Second, zap.NewNop(), ft.times)
		defer s.Close()

		for i, want := range []float64{10, 50, 0, 100} {
			if i > 0 {
				time.Sleep(time.Second)
				synctest.Wait()
			}
			got, err := s.Percent()
			if err != nil || got != want {
				t.Fatalf("after %d ticks: Percent = %v, %v; want %v, nil", i, got, err, want)
			}
		}
	})
}

func TestSamplerErrorAndRecovery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		errBoom := errors.New("boom")
		ft := &fakeTimes{seq: []cpu.TimesStat{{User: 10, Idle: 90}, {User: 30, Idle: 170}}}
		ft.setErr(errBoom)
		s := newSampler(time.Second, zap.NewNop(), ft.times)
		defer s.Close()

		if _, err := s.Percent(); !errors.Is(err, errBoom) {
			t.Fatalf("Percent error = %v, want %v", err, errBoom)
		}
		ft.setErr(nil)
		time.Sleep(time.Second) // first good read: since boot
		synctest.Wait()
		if got, err := s.Percent(); err != nil || got != 10 {
			t.Fatalf("Percent = %v, %v; want 10, nil", got, err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if got, err := s.Percent(); err != nil || got != 20 {
			t.Fatalf("Percent = %v, %v; want 20, nil", got, err)
		}
	})
}

// TestSamplerClose checks that Close stops the goroutine, is idempotent,
// and that Percent then fails. synctest.Test also fails on a leaked,
// blocked goroutine.
func TestSamplerClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fakeTimes{seq: []cpu.TimesStat{{User: 1, Idle: 1}}}
		s := newSampler(time.Second, zap.NewNop(), ft.times)
		time.Sleep(3 * time.Second)
		synctest.Wait()

		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		select {
		case <-s.done:
		default:
			t.Fatal("sampler goroutine still running after Close")
		}
		if err := s.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if _, err := s.Percent(); !errors.Is(err, ErrClosed) {
			t.Fatalf("Percent after Close error = %v, want ErrClosed", err)
		}

		ft.mu.Lock()
		calls := ft.calls
		ft.mu.Unlock()
		time.Sleep(5 * time.Second)
		synctest.Wait()
		ft.mu.Lock()
		defer ft.mu.Unlock()
		if ft.calls != calls {
			t.Fatalf("sampler read cpu times %d times after Close", ft.calls-calls)
		}
	})
}
