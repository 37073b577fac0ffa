package api

// GrantScope is what an allow_session answer (and a turn's denial) of a
// call of tool covers: the scope the policy gave it, or, when it gave
// none, the tool and these exact arguments. The chat core, the registry
// and the MCP server all read this one rule.
func GrantScope(tool, scope string, args []byte) string {
	if scope != "" {
		return scope
	}
	return tool + ":" + string(args)
}

// DecisionAllows says what a permission decision does: allowed runs the
// call; session also covers calls of the same GrantScope for the rest
// of the session. Anything but DecisionAllowOnce and
// DecisionAllowSession (DecisionDeny, an empty or unknown value) is a
// deny.
func DecisionAllows(decision string) (allowed, session bool) {
	switch decision {
	case DecisionAllowSession:
		return true, true
	case DecisionAllowOnce:
		return true, false
	}
	return false, false
}
