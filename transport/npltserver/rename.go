package npltserver

import (
	"context"
	"fmt"

	"opsassist/api"
	"opsassist/nplt"
)

// maxRenamePayload bounds a SESSION_RENAME payload: a title of
// chat.MaxTitle runes, each escaped as \uXXXX\uXXXX at worst, fits.
const maxRenamePayload = 4 << 10

// handleSessionRename sets the current conversation's title (JSON
// {"title"}); the reply is RESULT "session", text, end.
func (c *conn) handleSessionRename(f nplt.Frame) bool {
	if len(f.Payload) > maxRenamePayload {
		return c.enqueueError(api.CodeTooLarge, fmt.Sprintf("SESSION_RENAME payload over %d bytes", maxRenamePayload))
	}
	var p nplt.SessionRenamePayload
	if err := unmarshalStrict(f.Payload, &p); err != nil || p.Title == nil {
		return c.enqueueError(api.CodeBadJSON, `SESSION_RENAME wants JSON {"title"}`)
	}
	return c.enqueue(func(context.Context) {
		s, err := c.sess.Rename(*p.Title)
		if err != nil {
			c.replyError(chatError(err))
			return
		}
		c.result("session", sessionResult{s, "rename", nil}, fmt.Sprintf("已重命名会话 Renamed session: [%s] %s", s.ID[:8], title(s)))
	})
}
