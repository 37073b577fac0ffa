package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Reach is what the last probe of a model endpoint found.
type Reach struct {
	// Reachable is true if the endpoint answered (any HTTP status: a 401
	// still proves the server is there).
	Reachable bool `json:"reachable"`
	// Reason says why it is not reachable ("" when it is).
	Reason string `json:"reason,omitempty"`
	// CheckedAt is when the probe ended (zero: never probed).
	CheckedAt time.Time `json:"checked_at"`
}

// ProberConfig configures a Prober.
type ProberConfig struct {
	// Timeout bounds one probe. Default 2s.
	Timeout time.Duration
	// TTL is how long a probe's result is fresh. Default 60s.
	TTL time.Duration
	// Now is the clock. Default time.Now.
	Now func() time.Time
	// Probe checks one base URL. Default GET {base_url}/models.
	Probe func(ctx context.Context, baseURL string) error
}

// Prober probes model endpoints for reachability, caches each result
// for TTL and runs at most one probe per endpoint at a time. It is safe
// for concurrent use.
type Prober struct {
	cfg ProberConfig

	mu      sync.Mutex
	entries map[string]*reachEntry // by base URL
}

type reachEntry struct {
	last    Reach
	running chan struct{} // closed when the probe under way ends; nil if none
}

// NewProber returns a Prober.
func NewProber(cfg ProberConfig) *Prober {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Second
	}
	if cfg.TTL <= 0 {
		cfg.TTL = 60 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Probe == nil {
		client := &http.Client{}
		cfg.Probe = func(ctx context.Context, baseURL string) error { return httpProbe(ctx, client, baseURL) }
	}
	return &Prober{cfg: cfg, entries: map[string]*reachEntry{}}
}

// Cached returns the last result for baseURL without waiting and, if it
// is stale or missing, starts a probe in the background (unless one is
// under way). A never-probed endpoint reports CheckedAt zero.
func (p *Prober) Cached(baseURL string) Reach {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.entry(baseURL)
	if p.stale(e) && e.running == nil {
		p.start(baseURL, e)
	}
	return e.last
}

// Check returns a fresh result for baseURL: the cached one if it is
// fresh, else it waits for a probe (joining one under way) bounded by
// the probe timeout and ctx.
func (p *Prober) Check(ctx context.Context, baseURL string) Reach {
	p.mu.Lock()
	e := p.entry(baseURL)
	if !p.stale(e) {
		r := e.last
		p.mu.Unlock()
		return r
	}
	if e.running == nil {
		p.start(baseURL, e)
	}
	done := e.running
	p.mu.Unlock()
	select {
	case <-done:
	case <-ctx.Done():
		return Reach{Reason: ctx.Err().Error(), CheckedAt: p.cfg.Now()}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return e.last
}

func (p *Prober) entry(baseURL string) *reachEntry {
	e := p.entries[baseURL]
	if e == nil {
		e = &reachEntry{}
		p.entries[baseURL] = e
	}
	return e
}

func (p *Prober) stale(e *reachEntry) bool {
	return e.last.CheckedAt.IsZero() || p.cfg.Now().Sub(e.last.CheckedAt) >= p.cfg.TTL
}

// start runs one probe in the background; p.mu is held.
func (p *Prober) start(baseURL string, e *reachEntry) {
	done := make(chan struct{})
	e.running = done
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), p.cfg.Timeout)
		err := p.cfg.Probe(ctx, baseURL)
		cancel()
		r := Reach{Reachable: err == nil, CheckedAt: p.cfg.Now()}
		if err != nil {
			r.Reason = probeReason(err)
		}
		p.mu.Lock()
		e.last = r
		e.running = nil
		p.mu.Unlock()
		close(done)
	}()
}

// probeReason is the innermost cause of a probe's failure ("connection
// refused", "i/o timeout"): it is shown to users, so it carries no
// package prefix or URL (the model list shows the URL beside it).
func probeReason(err error) string {
	for {
		inner := errors.Unwrap(err)
		if inner == nil {
			return err.Error()
		}
		err = inner
	}
}

// httpProbe sends GET {baseURL}/models; any HTTP answer counts.
func httpProbe(ctx context.Context, client *http.Client, baseURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(baseURL, "/")+"/models", nil)
	if err != nil {
		return fmt.Errorf("llm: probe %s: %w", baseURL, err)
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("llm: probe %s: %w", baseURL, err)
	}
	return res.Body.Close()
}
