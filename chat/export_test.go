package chat

import (
	"context"

	"opsassist/storage/history"
)

// Hooks into the package's internals for its external tests (package
// chat_test, which can use the shared fakes in internal/testkit).

// ConfigOf returns the configuration s runs with, defaults filled in.
func ConfigOf(s *Service) Config { return s.cfg }

// LockTurn takes the turn lock of conversation id, as a turn does.
func LockTurn(ctx context.Context, s *Service, id string) (unlock func(), err error) {
	return s.lockTurn(ctx, id)
}

// CurrentConversation returns se's current conversation.
func CurrentConversation(se *Session) *history.Conversation { return se.current() }
