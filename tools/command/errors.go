package command

import "errors"

// Errors returned by Run for calls it refuses to start. Match them with
// errors.Is; path refusals wrap the pathguard errors instead.
var (
	// ErrNotAllowed means the command is not in the whitelist or is not
	// a bare name.
	ErrNotAllowed = errors.New("command: not in the whitelist")
	// ErrNeedsApproval means the command is in the ask tier and the call
	// was not approved by the user (tools.Call.Approved).
	ErrNeedsApproval = errors.New("command: needs the user's approval")
	// ErrUnsafeArgument means an argument contains a shell metacharacter,
	// a line break or a NUL byte.
	ErrUnsafeArgument = errors.New("command: unsafe character in argument")
	// ErrOptionDenied means an argument is an option refused for the
	// command.
	ErrOptionDenied = errors.New("command: option not allowed")
	// ErrArgsInCommand means the command field holds arguments too
	// ("df -h"): the tool takes the command's name alone and its
	// arguments in args, and never splits a string into argv.
	ErrArgsInCommand = errors.New("command: arguments in the command field")
	// ErrTooManyFiles means a call names more files than one command may
	// hold open.
	ErrTooManyFiles = errors.New("command: too many file arguments")
	// ErrTimeout is the cause in an ExitError for a command killed at its
	// timeout.
	ErrTimeout = errors.New("command: timed out")
)

// refusal is a refused call: its message is written for the user, and
// it matches its sentinel with errors.Is.
type refusal struct {
	msg string
	err error
}

func (r *refusal) Error() string { return r.msg }

func (r *refusal) Unwrap() error { return r.err }
