package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"

	"go.uber.org/zap"
)

// waitDelay bounds how long Wait waits for the output pipes to close after
// the command has exited or been killed, in case something outside its
// process group still holds them.
const waitDelay = 2 * time.Second

// newCmd prepares argv (argv[0] is the command name) to run the executable
// at path in the workspace, with the scrubbed environment, in a new
// process group that cancel kills as a whole.
func (e *Executor) newCmd(ctx context.Context, path string, argv []string, killed *atomic.Bool) *exec.Cmd {
	cmd := exec.CommandContext(ctx, path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = e.workspace
	cmd.Env = childEnv(e.workspace)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		killed.Store(true)
		// The group's id is the leader's pid (Setpgid with Pgid 0).
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return err
	}
	cmd.WaitDelay = waitDelay
	return cmd
}

// run runs p's argv with its pinned files and waits for it, killing its process group after
// timeout or when ctx is done. It returns nil Output only if the command
// could not be started.
func (e *Executor) run(ctx context.Context, path string, p *pinned, timeout time.Duration) (*Output, error) {
	argv := p.argv
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var killed atomic.Bool
	stdout := &capWriter{max: e.cfg.MaxOutput}
	stderr := &capWriter{max: e.cfg.MaxOutput}
	cmd := e.newCmd(runCtx, path, argv, &killed)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.ExtraFiles = p.files
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("command: starting %s: %w", argv[0], err)
	}
	if e.onStart != nil {
		e.onStart(cmd.Process.Pid)
	}
	waitErr := cmd.Wait()
	out := &Output{
		Command:  commandLine(p.shown),
		ExitCode: cmd.ProcessState.ExitCode(),
		Stdout:   p.names.Replace(stdout.String()),
		Stderr:   p.names.Replace(stderr.String()),
	}
	var err error
	switch {
	case killed.Load() && ctx.Err() == nil:
		err = &ExitError{Output: *out, Timeout: timeout, Err: ErrTimeout}
	case killed.Load():
		err = &ExitError{Output: *out, Err: ctx.Err()}
	case out.ExitCode > 0:
		err = &ExitError{Output: *out}
	case waitErr != nil:
		err = &ExitError{Output: *out, Err: waitErr}
	}
	e.log.Info("command finished",
		zap.String("command", argv[0]),
		zap.Int("exit_code", out.ExitCode),
		zap.Duration("duration", time.Since(start)),
		zap.Int64("stdout_dropped", stdout.dropped),
		zap.Int64("stderr_dropped", stderr.dropped),
		errField(err))
	return out, err
}
