package askuser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"opsassist/api"
	"opsassist/tools"
)

// Name is the tool's function name.
const Name = "ask_user"

// Timeout bounds one call in the Registry: longer than any question's
// own deadline (MaxTimeout, the permission timeout), which the chat core
// enforces.
const Timeout = time.Hour

// MaxTimeout is the largest timeout a question may ask for, in seconds.
const MaxTimeout = 600

const description = "Ask the user a question and wait for the answer: free text (kind text), " +
	"a choice among options (kind choice; give options with ids, mark one recommended, allow_custom for free text), " +
	"or yes/no (kind confirm). Use it when the request is ambiguous or a decision is the user's; " +
	"do not use it to ask permission for a tool call (calls that need it are confirmed automatically). " +
	"The result is {answer, option?, answered_by: user|default|timeout}; on timeout the default answers, if given. " +
	"向用户提问并等待回答：自由文本、选项或是/否。请求含糊或需要用户决定时使用。"

const parameters = `{
  "type": "object",
  "properties": {
    "question": {"type": "string", "minLength": 1, "maxLength": 2000, "description": "the question, in the user's language"},
    "kind": {"type": "string", "enum": ["text", "choice", "confirm"], "description": "text: free answer; choice: one of options; confirm: yes or no"},
    "options": {
      "type": "array",
      "maxItems": 20,
      "description": "the choices of kind choice",
      "items": {
        "type": "object",
        "properties": {
          "id": {"type": "string", "minLength": 1, "maxLength": 200},
          "label": {"type": "string", "minLength": 1, "maxLength": 500},
          "description": {"type": "string", "maxLength": 1000},
          "recommended": {"type": "boolean"}
        },
        "required": ["id", "label"],
        "additionalProperties": false
      }
    },
    "allow_custom": {"type": "boolean", "description": "kind choice: the user may answer with free text instead"},
    "default": {"type": "string", "maxLength": 500, "description": "the answer taken if the user does not answer in time (an option id, yes/no, or text)"},
    "timeout": {"type": "integer", "minimum": 1, "maximum": 600, "description": "seconds to wait; default the server's permission timeout"}
  },
  "required": ["question", "kind"],
  "additionalProperties": false
}`

// Args are the tool's arguments.
type Args struct {
	Question    string               `json:"question"`
	Kind        string               `json:"kind"`
	Options     []api.QuestionOption `json:"options,omitempty"`
	AllowCustom bool                 `json:"allow_custom,omitempty"`
	Default     string               `json:"default,omitempty"`
	Timeout     int                  `json:"timeout,omitempty"`
}

// Result is what the model reads: the answer, the option it names, and
// who answered (tools.ByUser, tools.ByDefault or tools.ByTimeout, when
// Answer is empty).
type Result struct {
	Answer     string `json:"answer"`
	Option     string `json:"option,omitempty"`
	AnsweredBy string `json:"answered_by"`
}

// Errors of a call.
var (
	// ErrCannotAsk: the call has no way to ask the user.
	ErrCannotAsk = errors.New("askuser: this client cannot be asked questions")
	// ErrBadArgs: the arguments pass the schema but make no question
	// (a choice without options, duplicate ids, options on a text).
	ErrBadArgs = errors.New("askuser: bad question")
	// ErrNoAnswer: the user cancelled the turn or left.
	ErrNoAnswer = errors.New("askuser: no answer (the user cancelled or left)")
)

// Tool is the ask_user tool.
type Tool struct{}

var _ tools.Tool = Tool{}

// Spec describes ask_user: read-only, it changes nothing.
func (Tool) Spec() tools.Spec {
	return tools.Spec{Name: Name, Description: description, Parameters: json.RawMessage(parameters), Risk: tools.RiskReadOnly, Timeout: Timeout,
		Summary: api.Text{Zh: "向用户提问并等待回答：自由文本、选项或是/否。", En: "Ask the user a question and wait for the answer: free text, a choice, or yes/no."}}
}

// Run asks the question through call.AskUser and returns a *Result.
func (Tool) Run(ctx context.Context, call *tools.Call, raw json.RawMessage) (any, error) {
	var a Args
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadArgs, err)
	}
	q, err := a.question()
	if err != nil {
		return nil, err
	}
	if call == nil || call.AskUser == nil {
		return nil, ErrCannotAsk
	}
	ans, err := call.AskUser(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("askuser: %w", err)
	}
	switch ans.By {
	case tools.ByUser, tools.ByDefault:
		return &Result{Answer: ans.Answer, Option: ans.Option, AnsweredBy: ans.By}, nil
	case tools.ByTimeout:
		return &Result{AnsweredBy: tools.ByTimeout}, nil
	}
	return nil, ErrNoAnswer
}

// question checks what the schema cannot and builds the tools.Question.
func (a Args) question() (tools.Question, error) {
	q := tools.Question{Question: a.Question, Kind: a.Kind, Options: a.Options, AllowCustom: a.AllowCustom, Default: a.Default, Timeout: time.Duration(a.Timeout) * time.Second}
	switch {
	case a.Kind == api.QuestionChoice && len(a.Options) == 0:
		return q, fmt.Errorf("%w: kind choice needs options", ErrBadArgs)
	case a.Kind != api.QuestionChoice && (len(a.Options) > 0 || a.AllowCustom):
		return q, fmt.Errorf("%w: options and allow_custom belong to kind choice", ErrBadArgs)
	}
	seen := map[string]bool{}
	for _, o := range a.Options {
		if seen[o.ID] {
			return q, fmt.Errorf("%w: duplicate option id %q", ErrBadArgs, o.ID)
		}
		seen[o.ID] = true
	}
	if a.Default != "" && a.Kind == api.QuestionChoice && !seen[a.Default] && !a.AllowCustom {
		return q, fmt.Errorf("%w: default %q is not an option id", ErrBadArgs, a.Default)
	}
	return q, nil
}
