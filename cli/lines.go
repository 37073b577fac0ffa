package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/peterh/liner"
)

// errInterrupted is returned by lineReader.readLine when the user pressed
// Ctrl-C at the prompt.
var errInterrupted = errors.New("client: prompt interrupted")

// lineReader is the REPL's source of input lines.
type lineReader interface {
	// readLine shows prompt and returns the next line without its
	// newline: io.EOF at the end of input, errInterrupted on Ctrl-C, or
	// ctx's error.
	readLine(ctx context.Context, prompt string) (string, error)
	// addHistory records a line for recall.
	addHistory(line string)
	// close releases the input and saves the history.
	close() error
}

// historyPath returns where the REPL keeps its history:
// $XDG_STATE_HOME/opsassist/history, else ~/.opsassist_history, else ""
// (no history file).
func historyPath(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "opsassist", "history")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".opsassist_history")
	}
	return ""
}

// linerReader reads lines from the terminal with liner's line editing and
// a history persisted to a file.
type linerReader struct {
	st      *liner.State
	path    string
	restore func() // the terminal's flags before keepTypeAhead
}

// newLinerReader opens the terminal and loads the history at path, if any.
func newLinerReader(path string) (*linerReader, error) {
	// Before liner records the terminal's mode, which it restores after
	// every prompt: the flag then holds while answers stream.
	restore := keepTypeAhead(int(os.Stdin.Fd()))
	st := liner.NewLiner()
	st.SetCtrlCAborts(true)
	l := &linerReader{st: st, path: path, restore: restore}
	if path == "" {
		return l, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return l, fmt.Errorf("opening history: %w", err)
	}
	defer f.Close()
	if _, err := st.ReadHistory(f); err != nil {
		return l, fmt.Errorf("reading history: %w", err)
	}
	return l, nil
}

func (l *linerReader) readLine(_ context.Context, prompt string) (string, error) {
	s, err := l.st.Prompt(prompt)
	if errors.Is(err, liner.ErrPromptAborted) {
		return "", errInterrupted
	}
	return s, err
}

func (l *linerReader) addHistory(line string) { l.st.AppendHistory(line) }

// close saves the history and restores the terminal.
func (l *linerReader) close() error {
	err := l.saveHistory()
	if cerr := l.st.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("restoring terminal: %w", cerr)
	}
	l.restore()
	return err
}

func (l *linerReader) saveHistory() error {
	if l.path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return fmt.Errorf("saving history: %w", err)
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("saving history: %w", err)
	}
	if _, err := l.st.WriteHistory(f); err != nil {
		return fmt.Errorf("saving history: %w", errors.Join(err, f.Close()))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("saving history: %w", err)
	}
	return nil
}

// streamReader reads lines from a plain stream (a pipe or a file). It
// shows no prompt. A goroutine reads ahead so readLine can return when
// ctx ends; it exits at the end of the input or when close is called
// while it waits to hand over a line.
type streamReader struct {
	src   io.Reader
	once  sync.Once
	lines chan lineOrErr
	quit  chan struct{}
}

type lineOrErr struct {
	line string
	err  error
}

func newStreamReader(r io.Reader) *streamReader {
	return &streamReader{src: r, lines: make(chan lineOrErr), quit: make(chan struct{})}
}

func (s *streamReader) readLine(ctx context.Context, _ string) (string, error) {
	s.once.Do(func() { go s.readAhead() })
	select {
	case l, ok := <-s.lines:
		if !ok {
			return "", io.EOF
		}
		return l.line, l.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// readAhead is the reading goroutine.
func (s *streamReader) readAhead() {
	defer close(s.lines)
	br := bufio.NewReader(s.src)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			line = strings.TrimRight(line, "\r\n")
			select {
			case s.lines <- lineOrErr{line: line}:
			case <-s.quit:
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				select {
				case s.lines <- lineOrErr{err: fmt.Errorf("reading input: %w", err)}:
				case <-s.quit:
				}
			}
			return
		}
	}
}

func (s *streamReader) addHistory(string) {}

func (s *streamReader) close() error {
	close(s.quit)
	return nil
}

// newLineReader returns liner on a terminal, else a streamReader.
func (c *CLI) newLineReader() (lineReader, error) {
	if isTerminal(c.Stdin) && isTerminal(c.Stdout) {
		return newLinerReader(historyPath(c.getenv))
	}
	return newStreamReader(c.stdin()), nil
}
