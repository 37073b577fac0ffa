package confkv

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// parseJSON reads one JSON value, a map or a list, token by token: the
// depth is checked as it grows, and every value is numbered with its
// line.
func parseJSON(text string) ([]Entry, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	lines := lineIndex(text)
	type frame struct {
		path  string
		array bool
		n     int    // items so far
		key   string // an object's pending key
		hasK  bool
		line  int
	}
	var c collector
	var stack []frame
	// value records a complete value v (or an empty container) at the
	// current position.
	pathHere := func() (string, error) {
		if len(stack) == 0 {
			return "", nil
		}
		top := &stack[len(stack)-1]
		if top.array {
			p := index(top.path, top.n)
			top.n++
			return p, nil
		}
		if !top.hasK {
			return "", &SyntaxError{Format: JSON, Msg: "value without a key"}
		}
		top.hasK = false
		top.n++
		return join(top.path, top.key), nil
	}
	started := false
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &SyntaxError{Format: JSON, Line: lines.at(int(dec.InputOffset())), Msg: err.Error()}
		}
		line := lines.at(int(off) + leadingSpace(text[off:]))
		if len(stack) == 0 && started {
			return nil, &SyntaxError{Format: JSON, Line: line, Msg: "text after the value"}
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(stack) == 0 {
					started = true
					stack = append(stack, frame{array: t == '[', line: line})
					continue
				}
				p, err := pathHere()
				if err != nil {
					return nil, err
				}
				if len(stack) >= MaxDepth {
					return nil, ErrTooDeep
				}
				stack = append(stack, frame{path: p, array: t == '[', line: line})
			case '}', ']':
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if top.n == 0 && (len(stack) > 0 || top.path != "") {
					empty := "{}"
					if top.array {
						empty = "[]"
					}
					if err := c.add(top.path, empty, top.line); err != nil {
						return nil, err
					}
				}
			}
		default:
			if len(stack) == 0 {
				return nil, &SyntaxError{Format: JSON, Line: line, Msg: "not an object or an array"}
			}
			top := &stack[len(stack)-1]
			if !top.array && !top.hasK {
				top.key, top.hasK = tok.(string), true
				continue
			}
			p, err := pathHere()
			if err != nil {
				return nil, err
			}
			if err := c.add(p, jsonScalar(tok), line); err != nil {
				return nil, err
			}
		}
	}
	if !started {
		return nil, &SyntaxError{Format: JSON, Msg: "empty text"}
	}
	return c.out, nil
}

// jsonScalar is a JSON scalar token as text.
func jsonScalar(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case bool:
		if v {
			return "true"
		}
		return "false"
	case json.Number:
		return v.String()
	case string:
		return v
	}
	return ""
}

// leadingSpace is the length of s's leading JSON whitespace and
// separators, so a token's line is the line it starts on.
func leadingSpace(s string) int {
	return len(s) - len(strings.TrimLeft(s, " \t\r\n,:"))
}

// lineStarts is the offsets at which a text's lines start.
type lineStarts []int

func lineIndex(text string) lineStarts {
	starts := lineStarts{0}
	for i := range len(text) {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// at is the 1-based line of byte offset off.
func (l lineStarts) at(off int) int {
	lo, hi := 0, len(l)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if l[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}
