//go:build !linux

package cli

// terminalSession is Linux's; elsewhere the tty name alone keys a
// terminal's conversation.
func terminalSession() string { return "" }

// controllingTTY is Linux's; elsewhere the standard streams name the
// terminal.
func controllingTTY() string { return "" }
