// Package ratelimit will hold per-user and per-tool rate limits on tool
// calls (so many command_executor calls a minute, so many downloads an
// hour). It is empty today; a later issue (13) brings it.
//
// It plugs into the same hook as the permission policy: a tools.Policy
// that denies a call over its budget, with the wait in its reason,
// consulted before the permission rules (package policy). Connection and
// login limits are not its business: the transports and
// internal/authlimit own those.
package ratelimit
