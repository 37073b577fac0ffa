package command

import (
	"time"

	"go.uber.org/zap"

	"opsassist/tools/pathguard"
)

// Defaults for Config.
const (
	DefaultMaxOutput  = 1 << 20
	DefaultTimeout    = 30 * time.Second
	DefaultMaxTimeout = 120 * time.Second
	DefaultWorkspace  = "./workspace"
)

const (
	// unsafeChars are refused anywhere in an argument. No shell runs, so
	// they have no effect, but an argument holding them is an injection
	// attempt and could be harmful if a later step ever used a shell.
	unsafeChars = ";&|><`$()\n\r\x00"
	// specTimeoutHeadroom is added to MaxTimeout for Spec.Timeout.
	specTimeoutHeadroom = 5 * time.Second
)

// Config configures the tool.
type Config struct {
	// Commands are the command tiers: the whitelist of commands that may
	// run, built by NewTiers, which refuses commands that run other
	// commands, wait for a terminal or loop forever (watch, top, sh, env,
	// xargs, find … see neverAllowed). Commands other than the defaults
	// get generic argument checks only (see optSpecFor). Default: the
	// zero Tiers, whose whitelist is defaultWhitelist.
	Commands Tiers
	// Workspace is every command's working directory and HOME, and the
	// base of relative path arguments, which must still pass Paths. It is
	// created if missing. Default "./workspace".
	Workspace string
	// Paths checks every file argument. Required.
	Paths *pathguard.Validator
	// MaxOutput caps stdout and stderr each, in bytes. Default 1 MiB.
	MaxOutput int
	// DefaultTimeout bounds a call that gives no timeout. Default 30s.
	DefaultTimeout time.Duration
	// MaxTimeout bounds every call. Default 120s.
	MaxTimeout time.Duration
	// MaxConcurrent bounds the commands running at once, across all
	// sessions; a call waits for a slot (within its context). Default 4.
	MaxConcurrent int
	// Logger logs refused and finished commands. Default: no logging.
	Logger *zap.Logger
}
