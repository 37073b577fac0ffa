// Package ratelimit counts tool calls per user and per tool (so many
// command_executor calls a minute, so many downloads an hour; config
// rate_limits). A Limiter is the Registry's tools.RateLimiter: the
// Registry asks it about each call the Policy allowed or put at Ask,
// before the user is asked, and refuses a call over the limit with the
// Limiter's reason (who, which tool, how many a minute or an hour, and
// when to try again); the audit log records it as decided by
// tools.DecidedByRateLimit.
//
// Each (user, tool) pair has a token bucket per configured window
// (golang.org/x/time/rate): a burst of the whole limit, refilled
// evenly, so per_minute 5 allows five calls at once and one more every
// 12 seconds. Connection and login limits are not its business: the
// transports and internal/authlimit own those.
package ratelimit
