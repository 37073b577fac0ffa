package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Limits of a chain case.
const (
	// MaxChainSteps bounds a chain's uploads and messages together.
	MaxChainSteps = 16
	// MaxUploadFileSize bounds a file an upload step names by path.
	MaxUploadFileSize = 1 << 20
	// maxNameLen bounds an upload's file name, in bytes.
	maxNameLen = 255
)

// Errors of a chain case; Load's *LineError wraps them.
var (
	ErrChainName      = errors.New("eval: chain has no name")
	ErrChainDuplicate = errors.New("eval: chain name used twice")
	ErrChainSteps     = errors.New("eval: chain needs 1–16 steps, the last a message")
	ErrChainStep      = errors.New("eval: a step is either a message (say) or an upload (upload with content or path)")
	ErrUploadName     = errors.New("eval: upload name must be a plain file name")
	ErrUploadPath     = errors.New("eval: upload path must be relative and stay under the cases file's directory")
	ErrChainWant      = errors.New("eval: chain expects nothing")
	ErrChainTools     = errors.New("eval: want_tools and want_tools_in_order exclude each other")
	ErrEmptyWant      = errors.New("eval: an expected string or tool is empty")
	ErrUploadTooLarge = errors.New("eval: upload file too large")
)

// Chain is a multi-step case: uploads and messages in order, through a
// real conversation, and what the whole chain must do. Every message's
// tool calls count, in order; the answer checked is the last message's.
type Chain struct {
	// Name identifies the case in test output; unique in its file.
	Name string `json:"name"`
	// Steps are the uploads and messages, in order; the last is a
	// message.
	Steps []Step `json:"steps"`
	// WantTools, when present, is exactly the tools called over the
	// chain, in order; present and empty ("want_tools": []) means no
	// tool at all, absent (nil) means no expectation.
	WantTools []string `json:"want_tools"`
	// WantToolsInOrder, when set, must appear among the tools called,
	// in this order, others allowed between and around them.
	WantToolsInOrder []string `json:"want_tools_in_order,omitempty"`
	// WantOffer, when set, is the file name of a download offer the
	// chain must make.
	WantOffer string `json:"want_offer,omitempty"`
	// MustContain are strings the last answer contains.
	MustContain []string `json:"must_contain,omitempty"`
	// MustNotContain are strings the last answer does not contain.
	MustNotContain []string `json:"must_not_contain,omitempty"`
	// KnownGap, when set, says what the answer still lacks: the case is
	// expected to fail, and its test fails once it passes, so that the
	// marker is removed when the answer lands.
	KnownGap string `json:"known_gap,omitempty"`
}

// Step is one message (Say) or one upload (Upload, a file name, with
// its Content inline or at Path, relative to the cases file).
type Step struct {
	Say     string `json:"say,omitempty"`
	Upload  string `json:"upload,omitempty"`
	Content string `json:"content,omitempty"`
	Path    string `json:"path,omitempty"`
}

// Data is an upload step's bytes: its Content, or the file at Path
// under dir (the cases file's directory), at most MaxUploadFileSize.
func (s Step) Data(dir string) ([]byte, error) {
	if s.Path == "" {
		return []byte(s.Content), nil
	}
	if !filepath.IsLocal(s.Path) {
		return nil, ErrUploadPath
	}
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(s.Path)))
	if err != nil {
		return nil, fmt.Errorf("eval: upload %s: %w", s.Upload, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxUploadFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("eval: upload %s: %w", s.Upload, err)
	}
	if len(b) > MaxUploadFileSize {
		return nil, fmt.Errorf("%w: %s over %d bytes", ErrUploadTooLarge, s.Path, MaxUploadFileSize)
	}
	return b, nil
}

// LoadChains reads chain cases, one JSON object per line; blank lines
// are skipped. A line that is not a valid chain — bad JSON, an unknown
// field, trailing data, a step that is neither or both kinds, a name
// reused, an upload name with a directory, a path that leaves the
// cases file's directory, nothing expected, more than MaxLineSize
// bytes — fails the load with a *LineError.
func LoadChains(r io.Reader) ([]Chain, error) {
	var chains []Chain
	names := map[string]bool{}
	err := eachLine(r, func(_ int, line []byte) error {
		c, err := parseChain(line)
		if err != nil {
			return err
		}
		if names[c.Name] {
			return fmt.Errorf("%w: %q", ErrChainDuplicate, c.Name)
		}
		names[c.Name] = true
		chains = append(chains, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return chains, nil
}

func parseChain(line []byte) (Chain, error) {
	var c Chain
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Chain{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return Chain{}, errors.New("trailing data after the case")
	}
	return c, c.Validate()
}

// Validate reports what makes c no chain case, nil if nothing.
func (c Chain) Validate() error {
	if strings.TrimSpace(c.Name) == "" {
		return ErrChainName
	}
	if len(c.Steps) == 0 || len(c.Steps) > MaxChainSteps || c.Steps[len(c.Steps)-1].Say == "" {
		return ErrChainSteps
	}
	for i, s := range c.Steps {
		if err := s.validate(); err != nil {
			return fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	if c.WantTools != nil && len(c.WantToolsInOrder) > 0 {
		return ErrChainTools
	}
	if c.WantTools == nil && len(c.WantToolsInOrder) == 0 && c.WantOffer == "" && len(c.MustContain) == 0 && len(c.MustNotContain) == 0 {
		return ErrChainWant
	}
	for _, l := range [][]string{c.WantTools, c.WantToolsInOrder, c.MustContain, c.MustNotContain} {
		for _, s := range l {
			if strings.TrimSpace(s) == "" {
				return ErrEmptyWant
			}
		}
	}
	return nil
}

func (s Step) validate() error {
	switch {
	case s.Say != "" && s.Upload == "" && s.Content == "" && s.Path == "":
		if strings.TrimSpace(s.Say) == "" {
			return ErrEmptyInput
		}
		return nil
	case s.Say != "" || s.Upload == "" || (s.Content == "") == (s.Path == ""):
		return ErrChainStep
	}
	if !plainName(s.Upload) {
		return fmt.Errorf("%w: %q", ErrUploadName, s.Upload)
	}
	if s.Path != "" && (!filepath.IsLocal(s.Path) || strings.Contains(s.Path, `\`)) {
		return fmt.Errorf("%w: %q", ErrUploadPath, s.Path)
	}
	return nil
}

// plainName reports whether name is a file name without a directory:
// not empty, ".", "..", no slash, backslash or control character, valid
// UTF-8, at most maxNameLen bytes.
func plainName(name string) bool {
	if name == "" || name == "." || name == ".." || len(name) > maxNameLen || !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f {
			return false
		}
	}
	return strings.TrimSpace(name) == name
}

// ChainResult is what a chain did.
type ChainResult struct {
	// Tools are the tools called over the whole chain, in order.
	Tools []string
	// Offers are the file names of the download offers made.
	Offers []string
	// Answer is the last message's answer.
	Answer string
}

// Check returns what res lacks against c's expectations, one sentence
// each; none when the chain passed. KnownGap is not consulted.
func (c Chain) Check(res ChainResult) []string {
	var problems []string
	if c.WantTools != nil && !slices.Equal(c.WantTools, res.Tools) {
		problems = append(problems, fmt.Sprintf("tools %v, want exactly %v", res.Tools, c.WantTools))
	}
	if len(c.WantToolsInOrder) > 0 && !subsequence(c.WantToolsInOrder, res.Tools) {
		problems = append(problems, fmt.Sprintf("tools %v, want %v among them in this order", res.Tools, c.WantToolsInOrder))
	}
	if c.WantOffer != "" && !slices.Contains(res.Offers, c.WantOffer) {
		problems = append(problems, fmt.Sprintf("offers %v, want %s", res.Offers, c.WantOffer))
	}
	for _, s := range c.MustContain {
		if !strings.Contains(res.Answer, s) {
			problems = append(problems, fmt.Sprintf("answer lacks %q", s))
		}
	}
	for _, s := range c.MustNotContain {
		if strings.Contains(res.Answer, s) {
			problems = append(problems, fmt.Sprintf("answer contains %q", s))
		}
	}
	return problems
}

// subsequence reports whether want appears in got in order.
func subsequence(want, got []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}
