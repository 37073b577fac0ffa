package command

import (
	"errors"
	"os"
	"testing"
)

// TestStdinIsEmpty: a command that reads standard input (cat, grep or
// tail without a file, or "-") reads an empty one and ends at once, even
// when the server's own standard input is a pipe that never closes.
// Were the server's input passed on, each would run until its timeout.
func TestStdinIsEmpty(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old }()

	f := newFixture(t)
	for _, call := range [][]string{{"cat"}, {"cat", "-"}, {"grep", "x"}, {"grep", "x", "-"}, {"head", "-n", "1"}, {"tail"}} {
		out, err := f.run(t, t.Context(), call[0], call[1:], 10)
		if errors.Is(err, ErrTimeout) || out.Stdout != "" {
			t.Errorf("%q: %+v, %v; want it to end at once with no output", call, out, err)
		}
	}
}
