package llm

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func TestProbeReachableAndClosedPort(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(http.StatusUnauthorized) // no key: still reachable
	}))
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/v1"
	ln.Close()

	p := NewProber(ProberConfig{})
	ctx := context.Background()
	if r := p.Check(ctx, srv.URL+"/v1"); !r.Reachable || r.Reason != "" || r.CheckedAt.IsZero() {
		t.Fatalf("fake server: %+v", r)
	}
	if r := p.Check(ctx, closed); r.Reachable || r.Reason == "" || strings.Contains(r.Reason, "llm:") || strings.Contains(r.Reason, "127.0.0.1") {
		t.Fatalf("closed port: %+v", r)
	}
}

// TestProbeCacheAndSingleFlight: concurrent checks share one probe; a
// fresh result is not probed again; a stale one is.
func TestProbeCacheAndSingleFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		release := make(chan struct{})
		p := NewProber(ProberConfig{TTL: time.Minute, Probe: func(ctx context.Context, _ string) error {
			calls.Add(1)
			<-release
			return nil
		}})
		if r := p.Cached("u"); !r.CheckedAt.IsZero() {
			t.Fatalf("never probed: %+v", r)
		}
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				if r := p.Check(context.Background(), "u"); !r.Reachable {
					t.Errorf("%+v", r)
				}
			})
		}
		synctest.Wait() // all three wait on the probe Cached started
		p.Cached("u")
		close(release)
		wg.Wait()
		if n := calls.Load(); n != 1 {
			t.Fatalf("%d probes, want 1", n)
		}
		p.Check(context.Background(), "u")
		if n := calls.Load(); n != 1 {
			t.Fatalf("fresh result probed again (%d)", n)
		}
		time.Sleep(time.Minute) // fake time: the result goes stale
		p.Check(context.Background(), "u")
		if n := calls.Load(); n != 2 {
			t.Fatalf("stale result not probed again (%d)", n)
		}
	})
}

// TestProbeCheckHonoursContext: a caller that gives up is not stuck
// behind a slow probe.
func TestProbeCheckHonoursContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewProber(ProberConfig{Timeout: time.Hour, Probe: func(ctx context.Context, _ string) error {
			<-ctx.Done()
			return ctx.Err()
		}})
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if r := p.Check(ctx, "u"); r.Reachable || r.Reason == "" {
			t.Fatalf("%+v", r)
		}
		// The probe itself ends at its own timeout.
		if r := p.Check(context.Background(), "u"); r.Reachable {
			t.Fatalf("%+v", r)
		}
	})
}
