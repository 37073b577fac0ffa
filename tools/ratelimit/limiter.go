package ratelimit

import (
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"opsassist/tools"
)

// Limit is how often one user may call one tool. Zero (or less) in a
// field: no limit for that window.
type Limit struct {
	PerMinute int
	PerHour   int
}

// AnyTool is the Limits key of the limit for every tool without its
// own entry; it is counted per tool.
const AnyTool = "*"

// DefaultMaxBuckets is Config.MaxBuckets' default.
const DefaultMaxBuckets = 10000

// Config configures a Limiter.
type Config struct {
	// Limits maps a tool name, or AnyTool, to its Limit. A tool with
	// neither is not limited. Default: nothing is limited.
	Limits map[string]Limit
	// Now returns the current time. Default time.Now.
	Now func() time.Time
	// MaxBuckets caps how many (user, tool) pairs are counted at once.
	// Beyond it, pairs whose buckets are full again (idle long enough
	// to have forgotten their calls) are dropped first, then the least
	// recently used. Default DefaultMaxBuckets.
	MaxBuckets int
}

// Limiter counts calls per user and tool. It is safe for concurrent
// use.
type Limiter struct {
	limits map[string]Limit
	now    func() time.Time
	max    int

	mu      sync.Mutex
	buckets map[key]*pair
}

var _ tools.RateLimiter = (*Limiter)(nil)

type key struct{ user, tool string }

// pair holds one (user, tool)'s buckets; a nil bucket is a window
// without a limit.
type pair struct {
	minute, hour *rate.Limiter
	used         time.Time
}

// New returns a Limiter for cfg. The Limits map is copied.
func New(cfg Config) *Limiter {
	l := &Limiter{limits: make(map[string]Limit, len(cfg.Limits)), now: cfg.Now, max: cfg.MaxBuckets, buckets: make(map[key]*pair)}
	for tool, lim := range cfg.Limits {
		l.limits[tool] = Limit{PerMinute: max(lim.PerMinute, 0), PerHour: max(lim.PerHour, 0)}
	}
	if l.now == nil {
		l.now = time.Now
	}
	if l.max <= 0 {
		l.max = DefaultMaxBuckets
	}
	return l
}

// Limit returns the limit that applies to tool: its own, or AnyTool's.
func (l *Limiter) Limit(tool string) Limit {
	if lim, ok := l.limits[tool]; ok {
		return lim
	}
	return l.limits[AnyTool]
}

// Allow takes one call of tool by user from both windows' buckets, or
// from neither: ok is false when either is empty, and reason then says
// which limit was hit and about when a call will be allowed again, in
// Chinese and English.
func (l *Limiter) Allow(user, tool string) (ok bool, reason string) {
	lim := l.Limit(tool)
	if lim.PerMinute == 0 && lim.PerHour == 0 {
		return true, ""
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.pair(key{user, tool}, lim, now)
	p.used = now
	var (
		wait   time.Duration
		window string
		limit  int
	)
	for _, b := range []struct {
		bucket *rate.Limiter
		window string
		limit  int
	}{{p.minute, "minute", lim.PerMinute}, {p.hour, "hour", lim.PerHour}} {
		if b.bucket == nil {
			continue
		}
		if w := waitFor(b.bucket, now); w > wait {
			wait, window, limit = w, b.window, b.limit
		}
	}
	if wait > 0 {
		return false, refusal(user, tool, window, limit, wait)
	}
	for _, b := range []*rate.Limiter{p.minute, p.hour} {
		if b != nil {
			b.AllowN(now, 1)
		}
	}
	return true, ""
}

// waitFor is how long until b has a token at now; zero if it has one.
func waitFor(b *rate.Limiter, now time.Time) time.Duration {
	missing := 1 - b.TokensAt(now)
	if missing <= 0 {
		return 0
	}
	return time.Duration(math.Ceil(missing / float64(b.Limit()) * float64(time.Second)))
}

// pair returns k's buckets, making them (and room for them) if needed.
// l.mu is held.
func (l *Limiter) pair(k key, lim Limit, now time.Time) *pair {
	if p, ok := l.buckets[k]; ok {
		return p
	}
	if len(l.buckets) >= l.max {
		l.evict(now)
	}
	p := &pair{}
	if lim.PerMinute > 0 {
		p.minute = rate.NewLimiter(rate.Limit(float64(lim.PerMinute)/60), lim.PerMinute)
	}
	if lim.PerHour > 0 {
		p.hour = rate.NewLimiter(rate.Limit(float64(lim.PerHour)/3600), lim.PerHour)
	}
	l.buckets[k] = p
	return p
}

// evict makes room for one more pair: it drops the pairs whose buckets
// are full (a new pair would start the same), and if none is, the
// least recently used. l.mu is held.
func (l *Limiter) evict(now time.Time) {
	var oldest key
	var oldestUsed time.Time
	first := true
	for k, p := range l.buckets {
		if full(p.minute, now) && full(p.hour, now) {
			delete(l.buckets, k)
			continue
		}
		if first || p.used.Before(oldestUsed) {
			oldest, oldestUsed, first = k, p.used, false
		}
	}
	if len(l.buckets) >= l.max {
		delete(l.buckets, oldest)
	}
}

func full(b *rate.Limiter, now time.Time) bool {
	return b == nil || b.TokensAt(now) >= float64(b.Burst())
}

// refusal is the reason Allow gives: who, which tool, the limit, and
// the wait rounded up to seconds (minutes from two minutes on).
func refusal(user, tool, window string, limit int, wait time.Duration) string {
	zhWindow, enWindow := "每分钟", "a minute"
	if window == "hour" {
		zhWindow, enWindow = "每小时", "an hour"
	}
	secs := int(math.Ceil(wait.Seconds()))
	zhWait, enWait := fmt.Sprintf("%d 秒", secs), fmt.Sprintf("%ds", secs)
	if secs >= 120 {
		mins := (secs + 59) / 60
		zhWait, enWait = fmt.Sprintf("%d 分钟", mins), fmt.Sprintf("%dm", mins)
	}
	return fmt.Sprintf("调用频率超限：用户 %s %s最多调用 %s %d 次，请约 %s后再试。Rate limit: %s may call %s at most %d times %s; try again in about %s.",
		user, zhWindow, tool, limit, zhWait, user, tool, limit, enWindow, enWait)
}
