package command

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"opsassist/tools"
)

// Output is the tool's result, as in the tool contract.
type Output struct {
	// Command is the command line that ran, e.g. "ls -la /data".
	// Arguments that are empty or contain spaces or quotes are quoted.
	Command string `json:"command"`
	// ExitCode is the exit status, or -1 if a signal ended the command.
	ExitCode int `json:"exit_code"`
	// Stdout and Stderr are what the command printed, each capped at
	// Config.MaxOutput bytes plus a "…[truncated N bytes]" marker.
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
}

// ExitError means the command ran but did not succeed: it exited non-zero,
// a signal ended it, or it was killed at its timeout or on cancellation.
// Run returns it together with the Output (a failed call in the contract
// still shows what the command printed), and it carries the same Output
// so that a caller keeping only the error loses nothing.
type ExitError struct {
	Output Output
	// Timeout is the limit the command ran past; zero if it did not time
	// out.
	Timeout time.Duration
	// Err is why the command ended when it did not exit by itself:
	// ErrTimeout, the context's error, or the wait error for a signal.
	// Nil for a plain non-zero exit.
	Err error
}

// Error returns "exit status N: <first line of stderr>", "timed out after
// Ns", or the cause for a signal or cancellation.
func (e *ExitError) Error() string {
	var msg string
	switch {
	case e.Timeout > 0:
		return "timed out after " + strconv.FormatFloat(e.Timeout.Seconds(), 'f', -1, 64) + "s"
	case e.Err != nil:
		msg = e.Err.Error()
	default:
		msg = fmt.Sprintf("exit status %d", e.Output.ExitCode)
	}
	if line := firstLine(e.Output.Stderr); line != "" {
		msg += ": " + line
	}
	return msg
}

// Unwrap returns the cause, if any.
func (e *ExitError) Unwrap() error { return e.Err }

// ErrorClass is tools.ClassTimeout for a command killed at its time
// limit and tools.ClassExecution otherwise, whatever the command wrote
// to stderr ("Connection refused" from curl is not the Registry's to
// retry: the command ran).
func (e *ExitError) ErrorClass() tools.ErrorClass {
	if e.Timeout > 0 {
		return tools.ClassTimeout
	}
	return tools.ClassExecution
}

var _ tools.Classed = (*ExitError)(nil)

// firstLine returns the first non-blank line of s, trimmed.
func firstLine(s string) string {
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}

// commandLine joins argv for Output.Command.
func commandLine(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a == "" || strings.ContainsAny(a, " \t\"'") {
			a = strconv.Quote(a)
		}
		b.WriteString(a)
	}
	return b.String()
}
