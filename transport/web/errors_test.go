package web

import (
	"fmt"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/storage/history"
)

// TestClassifyMessageForEveryCode: whatever the code of a chat error,
// and for the history store's own errors, the message a client reads
// has no package prefix and no Go-quoted id.
func TestClassifyMessageForEveryCode(t *testing.T) {
	s := &Server{}
	errs := []error{fmt.Errorf("%w: %q", history.ErrNotFound, "id-1"), fmt.Errorf("%w: %q", history.ErrAmbiguous, "id-1")}
	for _, code := range api.Codes() {
		errs = append(errs, &chat.Error{Code: code, Err: fmt.Errorf("chat: switching: %w", fmt.Errorf("%w: %q", history.ErrNotFound, "id-1"))})
	}
	for _, err := range errs {
		ae := s.classify(err)
		if internalPrefix.MatchString(ae.Message) || strings.Contains(ae.Message, `"id-1"`) {
			t.Errorf("%v: message %q", err, ae.Message)
		}
	}
}
