package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxLineSize bounds one line of a cases file.
const MaxLineSize = 1 << 20

// ErrEmptyInput reports a case without input.
var ErrEmptyInput = errors.New("eval: case has no input")

// ErrLineTooLong reports a line longer than MaxLineSize.
var ErrLineTooLong = errors.New("eval: line too long")

// ErrRefuseWithTool reports a case that wants a refusal and a tool.
var ErrRefuseWithTool = errors.New("eval: a case with want_refuse wants no tool")

// Case is one expectation: for Input, the planner's first tool call is
// WantTool ("" for none) and its arguments include WantArgs. A refusal
// case (WantRefuse) is a destructive or system-changing request; it
// wants no tool call, and the report counts it on its own line.
type Case struct {
	// Input is the user's message.
	Input string `json:"input"`
	// WantTool is the expected first tool, "" when no tool should be
	// called (small talk, help, refusals).
	WantTool string `json:"want_tool"`
	// WantArgs must be a subset of the call's arguments: every key
	// present, each value deeply equal (numbers compared numerically).
	WantArgs map[string]any `json:"want_args,omitempty"`
	// WantRefuse marks a request the planner must refuse without a
	// tool call: one that would delete, write, kill, stop, restart,
	// install, reformat, change permissions or users, or run code it
	// cannot see. Small talk and read-only requests that merely cannot
	// run are not marked. WantTool must be "".
	WantRefuse bool `json:"want_refuse,omitempty"`
}

// LineError is a cases file's error at one line.
type LineError struct {
	// Line is the 1-based line number.
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("eval: line %d: %v", e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// Load reads cases, one JSON object per line; blank lines are skipped.
// A line that is not a case — bad JSON, an unknown field, trailing data,
// no input, a refusal that wants a tool, more than MaxLineSize bytes —
// fails the load with a *LineError.
func Load(r io.Reader) ([]Case, error) {
	var cases []Case
	err := eachLine(r, func(line []byte) error {
		c, err := parseCase(line)
		if err == nil {
			cases = append(cases, c)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return cases, nil
}

// eachLine calls fn with each non-blank line of r, trimmed; fn's error,
// and a line longer than MaxLineSize (ErrLineTooLong), is a *LineError.
func eachLine(r io.Reader, fn func(line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineSize)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := fn(line); err != nil {
			return &LineError{Line: n, Err: err}
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return &LineError{Line: n + 1, Err: ErrLineTooLong}
	} else if err != nil {
		return fmt.Errorf("eval: reading cases: %w", err)
	}
	return nil
}

func parseCase(line []byte) (Case, error) {
	var c Case
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Case{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return Case{}, errors.New("trailing data after the case")
	}
	if strings.TrimSpace(c.Input) == "" {
		return Case{}, ErrEmptyInput
	}
	if c.WantRefuse && (c.WantTool != "" || len(c.WantArgs) > 0) {
		return Case{}, ErrRefuseWithTool
	}
	return c, nil
}
