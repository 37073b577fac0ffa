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

// Case is one expectation: for Input, the planner's first tool call is
// WantTool ("" for none) and its arguments include WantArgs.
type Case struct {
	// Input is the user's message.
	Input string `json:"input"`
	// WantTool is the expected first tool, "" when no tool should be
	// called (small talk, help, refusals).
	WantTool string `json:"want_tool"`
	// WantArgs must be a subset of the call's arguments: every key
	// present, each value deeply equal (numbers compared numerically).
	WantArgs map[string]any `json:"want_args,omitempty"`
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
// no input — fails the load with a *LineError.
func Load(r io.Reader) ([]Case, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineSize)
	var cases []Case
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		c, err := parseCase(line)
		if err != nil {
			return nil, &LineError{Line: n, Err: err}
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: reading cases: %w", err)
	}
	return cases, nil
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
	return c, nil
}
