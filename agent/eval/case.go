package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"opsassist/tools"
)

// MaxLineSize bounds one line of a cases file.
const MaxLineSize = 1 << 20

// ErrEmptyInput reports a case without input.
var ErrEmptyInput = errors.New("eval: case has no input")

// ErrLineTooLong reports a line longer than MaxLineSize.
var ErrLineTooLong = errors.New("eval: line too long")

// ErrRefuseWithTool reports a case that wants a refusal and a tool.
var ErrRefuseWithTool = errors.New("eval: a case with want_refuse wants no tool")

// ErrReservedTool reports a want_tool that is one of the report's labels
// ("(none)", "(error)"): no tool call is want_tool "".
var ErrReservedTool = errors.New("eval: want_tool is a label of the report, not a tool")

// ErrUnknownTool reports a want_tool that names none of the tools.
var ErrUnknownTool = errors.New("eval: want_tool names no tool")

// ToolError is a case's want_tool that is not a tool: Err is
// ErrUnknownTool or ErrReservedTool.
type ToolError struct {
	Tool string
	Err  error
}

func (e *ToolError) Error() string { return fmt.Sprintf("%v: %q", e.Err, e.Tool) }

func (e *ToolError) Unwrap() error { return e.Err }

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
	// line is the case's 1-based line in its file, 0 if not loaded.
	line int
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
	err := eachLine(r, func(n int, line []byte) error {
		c, err := parseCase(line)
		if err == nil {
			c.line = n
			cases = append(cases, c)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return cases, nil
}

// eachLine calls fn with each non-blank line of r, trimmed, and its
// 1-based number; fn's error, and a line longer than MaxLineSize
// (ErrLineTooLong), is a *LineError.
func eachLine(r io.Reader, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineSize)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
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
	if c.WantTool == NoneLabel || c.WantTool == ErrorLabel {
		return Case{}, &ToolError{Tool: c.WantTool, Err: ErrReservedTool}
	}
	return c, nil
}

// CheckTools checks that every case's want_tool, if any, names one of
// specs: a misspelt tool ("sys_monitr") is an error at its line, not a
// row of its own in the report.
func CheckTools(cases []Case, specs []tools.Spec) error {
	known := make(map[string]bool, len(specs))
	for _, s := range specs {
		known[s.Name] = true
	}
	for i, c := range cases {
		if c.WantTool != "" && !known[c.WantTool] {
			line := c.line
			if line == 0 {
				line = i + 1
			}
			return &LineError{Line: line, Err: &ToolError{Tool: c.WantTool, Err: ErrUnknownTool}}
		}
	}
	return nil
}
