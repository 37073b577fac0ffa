package cli

import "golang.org/x/sys/unix"

// keepTypeAhead sets NOFLSH on the terminal at fd, so that Ctrl-C (which
// the REPL turns into CANCEL) does not make the terminal discard what the
// user typed while the answer streamed: that line is the next question.
// restore puts the terminal's flags back. On a non-terminal it does
// nothing.
func keepTypeAhead(fd int) (restore func()) {
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil || t.Lflag&unix.NOFLSH != 0 {
		return func() {}
	}
	orig := *t
	t.Lflag |= unix.NOFLSH
	if unix.IoctlSetTermios(fd, unix.TCSETS, t) != nil {
		return func() {}
	}
	return func() { unix.IoctlSetTermios(fd, unix.TCSETS, &orig) }
}
