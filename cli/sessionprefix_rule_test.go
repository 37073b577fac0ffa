package cli

import (
	"testing"

	"opsassist/api"
	"opsassist/storage/history"
)

// TestSessionPrefixRuleHasOneOwner: the shortest prefix the CLI leaves to
// the server, the shortest /delete takes and the shortest the store
// resolves are one value, api.MinSessionPrefix.
func TestSessionPrefixRuleHasOneOwner(t *testing.T) {
	if minDeletePrefix != api.MinSessionPrefix || history.MinPrefix != api.MinSessionPrefix {
		t.Fatalf("minDeletePrefix %d, history.MinPrefix %d, api.MinSessionPrefix %d: want one value",
			minDeletePrefix, history.MinPrefix, api.MinSessionPrefix)
	}
}
