package daemon

import (
	"time"

	"opsassist/chat"
	"opsassist/config"
)

// retentionEvery is how often the retention policy runs after start.
const retentionEvery = time.Hour

// retention is the chat core's form of the retention keys.
func retention(r config.Retention) chat.Retention {
	return chat.Retention{DropEmpty: r.DropEmpty, MaxConversations: r.MaxConversations, MaxAge: time.Duration(r.MaxAge)}
}
