// Package sysmon implements the sys_monitor tool: a read-only snapshot of
// this host's CPU, memory and disk usage plus its uptime.
//
// A Monitor owns a background Sampler that refreshes the overall CPU
// percentage once per interval, so a call without an "interval" argument
// answers from memory in microseconds instead of blocking for a second.
// A call with an interval samples the CPU over that window instead.
//
// Each section of the report is collected independently: a failure in one
// (say, disk usage) is reported inside that section's "error" field and
// does not fail the others.
package sysmon
