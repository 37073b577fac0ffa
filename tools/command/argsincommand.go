package command

import (
	"encoding/json"
	"fmt"
	"strings"

	"opsassist/internal/runecut"
	"opsassist/tools"
)

// maxHintQuote bounds each quote of the call in the refusal, so that a
// command field as long as the request does not come back whole.
const maxHintQuote = 200

// argsInCommand returns the refusal of a call whose command field holds
// more than a name ({"command":"df -h"}) when its first word is a
// command the tiers run, whitelisted or asked about: the refusal shows
// the call as it should be written ({"command":"df","args":["-h"]}),
// wraps ErrArgsInCommand, and carries the class parameter and the code
// tools.CodeArgsInCommand, which the user reads in their language. The
// tool never splits the string itself: where the words of a command
// line end is the caller's to say. Other calls get nil, and a command
// field that names no runnable command is refused as not whitelisted.
func (e *Executor) argsInCommand(name string, args []string) error {
	words := strings.Fields(name)
	if len(words) < 2 {
		// A name with spaces around it ("ls ") holds no arguments:
		// refused as not whitelisted.
		return nil
	}
	argv := append(words[1:len(words):len(words)], args...)
	if tier, _, _ := e.cfg.Commands.Classify(words[0], argv); tier == TierDeny {
		return nil
	}
	hint, err := json.Marshal(struct {
		Command string   `json:"command"`
		Args    []string `json:"args,omitempty"`
	}{words[0], argv})
	if err != nil {
		return fmt.Errorf("command: %w", err)
	}
	msg := fmt.Sprintf("%q puts arguments in the command field: give the command's name alone in command and its arguments in args, as in %s",
		clip(name), clip(string(hint)))
	return tools.WithCode(tools.CodeArgsInCommand, tools.WithClass(tools.ClassParameter, &refusal{msg: msg, err: ErrArgsInCommand}))
}

// clip cuts s to maxHintQuote bytes, on a rune boundary, marking the cut.
func clip(s string) string {
	if len(s) <= maxHintQuote {
		return s
	}
	return runecut.Head(s, maxHintQuote) + "…"
}
