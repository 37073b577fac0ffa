package command

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"opsassist/tools"
	"opsassist/tools/policy"
)

var _ policy.Inspector = (*Executor)(nil)

// Inspect tells the permission policy what a call would do: the
// command's tier and where each file argument lies, classified by the
// validator Run checks them with (Config.Paths). An error means the
// arguments are malformed or refused by the command's table; Run
// refuses them with the same error. A command field with arguments in
// it ({"command":"df -h"}) is allowed here and refused by Run with the
// call as it should be written (ErrArgsInCommand).
func (e *Executor) Inspect(raw json.RawMessage) (policy.Target, error) {
	var a args
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return policy.Target{}, fmt.Errorf("command: bad arguments: %w", err)
	}
	t := policy.Target{Command: a.Command, Args: a.Args}
	if e.argsInCommand(a.Command, a.Args) != nil {
		// {"command":"df -h"}: Run refuses it, saying how to write
		// it; nothing runs, so there is nothing to ask or deny.
		return t, nil
	}
	tier, entry, why := e.cfg.Commands.Classify(a.Command, a.Args)
	switch tier {
	case TierDeny:
		t.Tier, t.Why, t.WhyZh = tools.Deny, why, e.cfg.Commands.whyDeniedZh(a.Command, a.Args)
		return t, nil
	case TierAsk:
		t.Tier = tools.Ask
		t.Scope = strings.Join(append([]string{a.Command}, a.Args...), " ")
		if entry == PSEntry && why != "" {
			t.Why, t.WhyZh = why, psWhyArgsZh
		}
	}
	_, items, _, err := e.parse(a.Command, a.Args, true)
	if errors.Is(err, ErrOptionDenied) {
		// A refused option: denied, never asked (asking would only
		// lead to the same refusal once the user said yes).
		t.Tier, t.Why, t.Scope = tools.Deny, err.Error(), ""
		return t, nil
	}
	if err != nil {
		return t, err
	}
	for _, it := range items {
		switch {
		case it.arg == "" || it.arg == "-":
		case it.kind == argFile, it.kind == argMaybeFile && e.looksLikePath(it.arg):
			class, resolved := e.cfg.Paths.Classify(e.absolute(it.arg))
			t.Paths = append(t.Paths, policy.Path{Arg: it.arg, Resolved: resolved, Class: class})
		}
	}
	return t, nil
}
