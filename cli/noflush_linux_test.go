package cli

import (
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY returns a pseudo-terminal's follower side, skipping the test
// where none can be had.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	leader, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { leader.Close() })
	if err := unix.IoctlSetPointerInt(int(leader.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(leader.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pseudo-terminal number: %v", err)
	}
	f, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the follower: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestKeepTypeAhead: the REPL's terminal gets NOFLSH (Ctrl-C keeps the
// line typed while an answer streams) and its flags back afterwards; a
// non-terminal is left alone.
func TestKeepTypeAhead(t *testing.T) {
	f := openPTY(t)
	fd := int(f.Fd())
	before, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if before.Lflag&unix.NOFLSH != 0 {
		t.Fatal("a fresh terminal already has NOFLSH")
	}
	restore := keepTypeAhead(fd)
	during, _ := unix.IoctlGetTermios(fd, unix.TCGETS)
	if during.Lflag&unix.NOFLSH == 0 {
		t.Fatal("NOFLSH not set")
	}
	restore()
	after, _ := unix.IoctlGetTermios(fd, unix.TCGETS)
	if after.Lflag != before.Lflag {
		t.Fatalf("flags %#x after, %#x before", after.Lflag, before.Lflag)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	keepTypeAhead(int(r.Fd()))() // no terminal: nothing to do, no panic
}
