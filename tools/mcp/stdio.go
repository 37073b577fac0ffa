package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrChildExited is the error (wrapped, with the exit status) that ends
// a stdio session whose child exited: its calls in flight fail with it
// (as ErrConnectionLost) and the server is restarted.
var ErrChildExited = errors.New("mcp: the stdio server exited")

// stdioTransport runs a stdio server's command and talks to it over its
// stdin and stdout, as sdk.CommandTransport does, but it also waits for
// the child itself: when the child exits, the connection ends with
// ErrChildExited and its exit status once what the child wrote has
// been read — when it closed its stdout by exiting too, and even while a
// process the child started keeps its stdout open, which leaves a
// reader of the pipe waiting for an end of file that never comes.
//
// Closing the connection closes the child's stdin, waits TerminateWait
// for it to exit, then sends SIGTERM, waits again, and kills it.
type stdioTransport struct {
	cmd       *exec.Cmd
	terminate time.Duration
}

var _ sdk.Transport = (*stdioTransport)(nil)

// Connect starts the command.
func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := startChild(t.cmd, t.terminate)
	if err != nil {
		return nil, err
	}
	out := &exitReader{f: c.stdout, c: c, end: c.exitError}
	return (&sdk.IOTransport{Reader: io.NopCloser(out), Writer: c}).Connect(ctx)
}

// child is a started stdio server: the pipes to it, and its exit.
type child struct {
	cmd       *exec.Cmd
	stdin     *os.File // our end of the child's stdin
	stdout    *os.File // our end of the child's stdout
	stderr    *os.File // our end of the child's stderr pipe, or nil
	terminate time.Duration

	// exited is closed once the child has exited and been reaped;
	// waitErr is cmd.Wait's error, set before.
	exited  chan struct{}
	waitErr error
	// copied is closed when the child's stderr has been copied to the
	// configured writer (nil when it is not copied).
	copied chan struct{}

	closeOnce sync.Once
}

// startChild starts cmd with pipes of its own for stdin, stdout and
// (when cmd.Stderr is a writer that is not a file) stderr, so that
// cmd.Wait returns when the child exits, whatever its own children
// hold open.
func startChild(cmd *exec.Cmd, terminate time.Duration) (_ *child, err error) {
	if cmd.Dir != "" {
		// A missing working directory fails the start as "fork/exec
		// <command>: no such file or directory", which blames the
		// command: name the directory (the redactor hides it when it
		// came from a ${VAR}).
		if fi, err := os.Stat(cmd.Dir); err != nil {
			return nil, fmt.Errorf("cwd: %w", err)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("cwd: %s is not a directory", cmd.Dir)
		}
	}
	var theirs, ours []*os.File
	defer func() {
		for _, f := range theirs {
			f.Close() // the child has its copies
		}
		if err != nil {
			for _, f := range ours {
				f.Close()
			}
		}
	}()
	pipe := func() (r, w *os.File, err error) {
		if r, w, err = os.Pipe(); err != nil {
			return nil, nil, fmt.Errorf("pipe: %w", err)
		}
		return r, w, nil
	}
	c := &child{cmd: cmd, terminate: terminate, exited: make(chan struct{})}
	inR, inW, err := pipe()
	if err != nil {
		return nil, err
	}
	theirs, ours = append(theirs, inR), append(ours, inW)
	outR, outW, err := pipe()
	if err != nil {
		return nil, err
	}
	theirs, ours = append(theirs, outW), append(ours, outR)
	cmd.Stdin, cmd.Stdout = inR, outW
	c.stdin, c.stdout = inW, outR
	var errOut io.Writer
	if w := cmd.Stderr; w != nil {
		if _, isFile := w.(*os.File); !isFile {
			errR, errW, err := pipe()
			if err != nil {
				return nil, err
			}
			theirs, ours = append(theirs, errW), append(ours, errR)
			cmd.Stderr, c.stderr, errOut = errW, errR, w
		}
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if c.stderr != nil {
		c.copied = make(chan struct{})
		go func() {
			defer close(c.copied)
			io.Copy(errOut, &exitReader{f: c.stderr, c: c, end: func() error { return io.EOF }})
		}()
	}
	go c.wait()
	return c, nil
}

// wait reaps the child, then wakes the readers of its pipes: they read
// what is left and end, even if a process the child started holds the
// pipes open.
func (c *child) wait() {
	c.waitErr = c.cmd.Wait()
	close(c.exited)
	for _, f := range []*os.File{c.stdout, c.stderr} {
		if f == nil {
			continue
		}
		if err := f.SetReadDeadline(time.Unix(1, 0)); err != nil {
			f.Close() // not pollable: what is left unread is lost
		}
	}
}

// hasExited reports whether the child has exited.
func (c *child) hasExited() bool {
	select {
	case <-c.exited:
		return true
	default:
		return false
	}
}

// exitError is the error that ends the session of a child that exited.
func (c *child) exitError() error {
	if st := c.cmd.ProcessState; st != nil {
		return fmt.Errorf("%w (%s)", ErrChildExited, st)
	}
	return fmt.Errorf("%w (%v)", ErrChildExited, c.waitErr)
}

// Write writes to the child's stdin.
func (c *child) Write(p []byte) (int, error) { return c.stdin.Write(p) }

// Close ends the child: stdin closed, then SIGTERM, then SIGKILL, each
// after the terminate wait; it returns once the child has exited and
// its stderr is copied.
func (c *child) Close() error {
	c.closeOnce.Do(func() {
		c.stdin.Close()
		if !c.waitExit() {
			if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil || !c.waitExit() {
				c.cmd.Process.Kill()
				<-c.exited
			}
		}
		if c.copied != nil {
			<-c.copied
			c.stderr.Close()
		}
		c.stdout.Close()
	})
	return nil
}

// waitExit waits the terminate wait for the child to exit.
func (c *child) waitExit() bool {
	t := time.NewTimer(c.terminate)
	defer t.Stop()
	select {
	case <-c.exited:
		return true
	case <-t.C:
		return false
	}
}

// exitReader reads one of a child's pipes until the child has exited
// and what it wrote is read; then Read returns end(). At the end of
// file before the child is reaped (a plain exit closes the pipe first)
// it waits for the exit, the terminate wait at most, so the session
// ends with the exit status; past that wait, with io.EOF. Only one
// goroutine reads.
type exitReader struct {
	f        *os.File
	c        *child
	end      func() error
	draining bool
}

func (r *exitReader) Read(p []byte) (int, error) {
	if !r.draining {
		n, err := r.f.Read(p)
		if err == nil {
			return n, nil
		}
		// A plain exit closes the pipe before the child is reaped: at
		// the end of file, wait (the terminate wait at most) for the
		// exit, to end with its status rather than a bare io.EOF. A
		// child that closed its stdout and lives on ends the session
		// with io.EOF.
		if !r.c.hasExited() && (!errors.Is(err, io.EOF) || !r.c.waitExit()) {
			return n, err
		}
		if n > 0 {
			return n, nil
		}
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			// The end of file (no one holds the pipe any more), or the
			// pipe closed by wait.
			return 0, r.end()
		}
		// Woken by wait: read what is buffered, without waiting.
		r.draining = true
		if err := r.f.SetReadDeadline(time.Time{}); err != nil {
			return 0, r.end()
		}
	}
	if n, err := readBuffered(r.f, p); n > 0 || err == nil {
		return n, nil
	}
	return 0, r.end()
}
