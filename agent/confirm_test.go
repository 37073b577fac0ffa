package agent

import (
	"context"
	"encoding/json"
	"testing"

	"opsassist/chat"
	"opsassist/tools"
)

// keyResponder records the Confirmation the chat core is given.
type keyResponder struct {
	chat.Responder
	got chat.Confirmation
}

func (r *keyResponder) Confirm(_ context.Context, c chat.Confirmation) (chat.Confirmed, error) {
	r.got = c
	return chat.Confirmed{By: chat.AnsweredByUser}, nil
}

// TestConfirmerPassesTheGrantKey: the chat core gets the tool layer's
// grant key with the shown arguments, so its grants match on the raw
// arguments, never on the redacted text.
func TestConfirmerPassesTheGrantKey(t *testing.T) {
	r := &keyResponder{}
	c := tools.Confirmation{Tool: "mcp__fs__write_file", Args: json.RawMessage(`{"content":"***"}`), Key: "sha256:raw"}
	if _, err := confirmer(r)(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if r.got.Key != "sha256:raw" || string(r.got.Args) != `{"content":"***"}` {
		t.Fatalf("%+v", r.got)
	}
}
