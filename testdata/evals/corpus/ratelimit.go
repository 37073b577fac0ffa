// Package ratelimit implements the per-API-key quota used by order-service's
// public Open Platform endpoints. The edge (per-IP) limit lives in nginx; this
// file is only the application layer.
//
// Algorithm: sliding window log stored in a Redis sorted set, one key per API
// key and window, e.g. "rl:ak_live_3f9a:60". Each request adds a member scored
// with its timestamp in microseconds; members older than the window are trimmed
// atomically in a Lua script so concurrent order-service instances agree.
//
// Owner: Backend (Priya Nair). Redis: redis-01, logical db 3.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Plan quotas per minute. Keep in sync with the public API rate limit doc.
var perMinute = map[string]int{
	"free":       60,
	"standard":   600,
	"pro":        3000,
	"enterprise": 10000,
}

// writeCost: POST/PUT/DELETE consume two units.
func writeCost(method string) int {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodDelete:
		return 2
	}
	return 1
}

// KEYS[1] = zset key, ARGV = now_us, window_us, limit, cost, member
const slidingWindowLua = `
local key    = KEYS[1]
local now    = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit  = tonumber(ARGV[3])
local cost   = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
local used = redis.call('ZCARD', key)
if used + cost > limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  local reset = now + window
  if oldest[2] then reset = tonumber(oldest[2]) + window end
  return {0, limit - used, reset}
end
for i = 1, cost do
  redis.call('ZADD', key, now, ARGV[5] .. ':' .. i)
end
redis.call('PEXPIRE', key, math.ceil(window / 1000) + 1000)
return {1, limit - used - cost, now + window}
`

var script = redis.NewScript(slidingWindowLua)

// ErrFailOpen is returned when Redis is unavailable; callers let the request
// through (fail-open) and increment ratelimit_redis_errors_total.
var ErrFailOpen = errors.New("ratelimit: redis unavailable, failing open")

type Limiter struct {
	rdb    *redis.Client
	window time.Duration
}

func New(rdb *redis.Client) *Limiter {
	return &Limiter{rdb: rdb, window: time.Minute}
}

type Decision struct {
	Allowed   bool
	Limit     int
	Remaining int
	Reset     time.Time
}

func (l *Limiter) Allow(ctx context.Context, apiKey, plan, method, reqID string) (Decision, error) {
	limit, ok := perMinute[plan]
	if !ok {
		limit = perMinute["free"]
	}
	ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()

	now := time.Now().UnixMicro()
	key := fmt.Sprintf("rl:%s:%d", apiKey, int(l.window.Seconds()))
	res, err := script.Run(ctx, l.rdb, []string{key},
		now, l.window.Microseconds(), limit, writeCost(method), reqID).Int64Slice()
	if err != nil {
		return Decision{Allowed: true, Limit: limit}, ErrFailOpen
	}
	return Decision{
		Allowed:   res[0] == 1,
		Limit:     limit,
		Remaining: int(max(res[1], 0)),
		Reset:     time.UnixMicro(res[2]),
	}, nil
}

// Middleware writes the X-RateLimit-* headers and rejects with 429 + Retry-After.
func (l *Limiter) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, plan := r.Header.Get("X-Api-Key"), planFromContext(r.Context())
		d, err := l.Allow(r.Context(), key, plan, r.Method, r.Header.Get("X-Request-Id"))
		if err != nil {
			next.ServeHTTP(w, r) // fail open
			return
		}
		h := w.Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(d.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(d.Reset.Unix(), 10))
		h.Set("X-RateLimit-Policy", fmt.Sprintf("%s;w=60", plan))
		if !d.Allowed {
			retry := int(time.Until(d.Reset).Seconds()) + 1
			h.Set("Retry-After", strconv.Itoa(retry))
			h.Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprintf(w, `{"code":"RATE_LIMITED","message":"per-minute quota exceeded","retry_after":%d}`, retry)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func planFromContext(ctx context.Context) string {
	if p, ok := ctx.Value(planKey{}).(string); ok {
		return p
	}
	return "free"
}

type planKey struct{}
