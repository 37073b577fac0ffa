package ratelimit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"opsassist/tools"
)

// clock is a fake clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// allowN calls Allow n times and returns how many were allowed.
func allowN(l *Limiter, user, tool string, n int) int {
	ok := 0
	for range n {
		if a, _ := l.Allow(user, tool); a {
			ok++
		}
	}
	return ok
}

func TestPerUserPerTool(t *testing.T) {
	c := newClock()
	l := New(Config{Limits: map[string]Limit{"command_executor": {PerMinute: 5}}, Now: c.Now})
	if n := allowN(l, "alice", "command_executor", 5); n != 5 {
		t.Fatalf("burst: %d of 5 allowed", n)
	}
	ok, reason := l.Allow("alice", "command_executor")
	want := "调用频率超限：用户 alice 每分钟最多调用 command_executor 5 次，请约 12 秒后再试。" +
		"Rate limit: alice may call command_executor at most 5 times a minute; try again in about 12s."
	if ok || reason != want {
		t.Fatalf("sixth call: %v %q", ok, reason)
	}
	if n := allowN(l, "bob", "command_executor", 5); n != 5 {
		t.Fatalf("bob: %d of 5 allowed", n)
	}
	if n := allowN(l, "alice", "sys_monitor", 100); n != 100 {
		t.Fatalf("an unlimited tool: %d of 100 allowed", n)
	}
	c.Add(11 * time.Second)
	if ok, _ := l.Allow("alice", "command_executor"); ok {
		t.Fatal("allowed after 11s")
	}
	c.Add(time.Second)
	if ok, _ := l.Allow("alice", "command_executor"); !ok {
		t.Fatal("not allowed after 12s")
	}
	if ok, _ := l.Allow("alice", "command_executor"); ok {
		t.Fatal("two allowed after 12s")
	}
	c.Add(time.Minute)
	if n := allowN(l, "alice", "command_executor", 10); n != 5 {
		t.Fatalf("after a minute: %d allowed, want the burst of 5", n)
	}
}

// TestDefaultLimit: "*" limits every tool without its own entry, each
// tool counted on its own; a tool's own entry wins.
func TestDefaultLimit(t *testing.T) {
	c := newClock()
	l := New(Config{Limits: map[string]Limit{"*": {PerMinute: 2}, "sys_monitor": {PerMinute: 10}}, Now: c.Now})
	for _, tool := range []string{"file_download", "web_search"} {
		if n := allowN(l, "alice", tool, 5); n != 2 {
			t.Errorf("%s: %d allowed, want 2", tool, n)
		}
	}
	if n := allowN(l, "alice", "sys_monitor", 20); n != 10 {
		t.Errorf("sys_monitor: %d allowed, want 10", n)
	}
	if got := l.Limit("web_search"); got != (Limit{PerMinute: 2}) {
		t.Errorf("Limit = %+v", got)
	}
}

// TestHourWindow: the hour's limit holds though the minute's refills;
// a call refused by one window takes no token from the other.
func TestHourWindow(t *testing.T) {
	c := newClock()
	l := New(Config{Limits: map[string]Limit{"file_download": {PerMinute: 2, PerHour: 3}}, Now: c.Now})
	if n := allowN(l, "alice", "file_download", 3); n != 2 {
		t.Fatalf("%d allowed, want 2 (minute)", n)
	}
	c.Add(time.Minute)
	if n := allowN(l, "alice", "file_download", 3); n != 1 {
		t.Fatalf("%d allowed, want 1 (hour)", n)
	}
	ok, reason := l.Allow("alice", "file_download")
	if ok || !strings.Contains(reason, "每小时最多调用 file_download 3 次，请约 19 分钟后再试") ||
		!strings.Contains(reason, "at most 3 times an hour; try again in about 19m.") {
		t.Fatalf("%v %q", ok, reason)
	}
	// The minute's bucket is full again (the refused calls took nothing).
	c.Add(19 * time.Minute)
	if n := allowN(l, "alice", "file_download", 3); n != 1 {
		t.Fatalf("after 19 more minutes %d allowed, want 1", n)
	}
	c.Add(time.Hour)
	if n := allowN(l, "alice", "file_download", 5); n != 2 {
		t.Fatalf("after an hour %d allowed, want 2 (minute)", n)
	}
}

func TestNoLimits(t *testing.T) {
	l := New(Config{Limits: map[string]Limit{"x": {PerMinute: -1}}})
	if n := allowN(l, "alice", "x", 1000); n != 1000 {
		t.Fatal(n)
	}
	if n := allowN(New(Config{}), "alice", "y", 1000); n != 1000 {
		t.Fatal(n)
	}
	if len(l.buckets) != 0 {
		t.Fatalf("%d buckets for unlimited tools", len(l.buckets))
	}
}

// TestBucketsBounded: past MaxBuckets, idle full pairs are dropped
// first, then the least recently used; a pair in use keeps its count.
func TestBucketsBounded(t *testing.T) {
	c := newClock()
	l := New(Config{Limits: map[string]Limit{"*": {PerMinute: 1}}, Now: c.Now, MaxBuckets: 4})
	l.Allow("busy", "x")
	for i := range 100 {
		c.Add(time.Minute) // each earlier pair is full again
		l.Allow(fmt.Sprint("u", i), "x")
		if len(l.buckets) > 4 {
			t.Fatalf("%d buckets", len(l.buckets))
		}
	}
	// Four pairs all just used: the least recently used goes.
	l = New(Config{Limits: map[string]Limit{"*": {PerMinute: 1}}, Now: c.Now, MaxBuckets: 2})
	l.Allow("a", "x")
	c.Add(time.Second)
	l.Allow("b", "x")
	c.Add(time.Second)
	l.Allow("c", "x")
	if len(l.buckets) != 2 || l.buckets[key{"a", "x"}] != nil {
		t.Fatalf("buckets %v", l.buckets)
	}
	if ok, _ := l.Allow("b", "x"); ok {
		t.Fatal("b's count was lost")
	}
}

func TestConcurrent(t *testing.T) {
	l := New(Config{Limits: map[string]Limit{"*": {PerMinute: 50}}, Now: newClock().Now})
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 8 {
		wg.Go(func() {
			n := allowN(l, "alice", "x", 20)
			mu.Lock()
			allowed += n
			mu.Unlock()
		})
	}
	wg.Wait()
	if allowed != 50 {
		t.Fatalf("%d allowed, want 50", allowed)
	}
}

// recorder keeps the records the Registry gives it.
type recorder struct {
	mu   sync.Mutex
	recs []tools.CallRecord
}

func (r *recorder) Record(rec tools.CallRecord) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = append(r.recs, rec)
	return nil
}

type noop struct{}

func (noop) Spec() tools.Spec {
	return tools.Spec{Name: "command_executor", Parameters: json.RawMessage(`{"type":"object"}`), Risk: tools.RiskSensitive}
}

func (noop) Run(context.Context, *tools.Call, json.RawMessage) (any, error) { return "ok", nil }

// TestRegistryRefusesAndAudits: with a Limiter, the Registry refuses
// the call over the limit (denied, the reason and "do not retry" for
// the model), another user's call runs, and the audit log has every
// call, the refused one decided by the rate limit.
func TestRegistryRefusesAndAudits(t *testing.T) {
	c := newClock()
	rec := &recorder{}
	reg := tools.NewRegistry(tools.Config{
		Limiter: New(Config{Limits: map[string]Limit{"command_executor": {PerMinute: 1}}, Now: c.Now}),
		Audit:   rec,
		Now:     c.Now,
	})
	if err := reg.Register(noop{}); err != nil {
		t.Fatal(err)
	}
	run := func(user string) tools.Outcome {
		return reg.Execute(context.Background(), &tools.Call{User: user}, "command_executor", `{}`)
	}
	if o := run("alice"); !o.Result.Success {
		t.Fatalf("%+v", o.Result)
	}
	o := run("alice")
	if o.Result.Success || !strings.Contains(o.Result.Error, "try again in about 60s.") || !strings.Contains(o.Result.Error, "Do not retry command_executor before then.") {
		t.Fatalf("%+v", o.Result)
	}
	if o := run("bob"); !o.Result.Success {
		t.Fatalf("bob: %+v", o.Result)
	}
	var got []string
	for _, r := range rec.recs {
		got = append(got, r.User+":"+r.Status+":"+r.DecidedBy+":"+string(r.ErrorClass))
	}
	if want := "alice:ok:default: alice:denied:rate_limit: bob:ok:default:"; strings.Join(got, " ") != want {
		t.Fatalf("records %v, want %s", got, want)
	}
}
