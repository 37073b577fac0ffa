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
	// defaultWhitelist is Config.Whitelist's default.
	defaultWhitelist = "ls cat grep head tail ps pwd whoami df free"
	// unsafeChars are refused anywhere in an argument. No shell runs, so
	// they have no effect, but an argument holding them is an injection
	// attempt and could be harmful if a later step ever used a shell.
	unsafeChars = ";&|><`$()\n\r\x00"
	// specTimeoutHeadroom is added to MaxTimeout for Spec.Timeout.
	specTimeoutHeadroom = 5 * time.Second
)

// Config configures the tool.
type Config struct {
	// Whitelist lists the commands that may run, as bare names looked up
	// in /usr/local/bin, /usr/bin and /bin. Commands other than the
	// defaults get generic argument checks only (see optSpecFor), and
	// New refuses commands that run other commands, wait for a terminal
	// or loop forever (watch, top, sh, env, xargs, find … see neverAllowed).
	// Default: ls cat grep head tail ps pwd whoami df free.
	Whitelist []string
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
