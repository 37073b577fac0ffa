package npltserver

import (
	"context"
	"errors"
	"unicode/utf8"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/nplt"
)

// handleChat queues a user message, or answers the published heartbeat.
func (c *conn) handleChat(f nplt.Frame) bool {
	switch {
	case len(f.Payload) == 0:
		return true // published clients may send an empty frame; it means nothing
	case string(f.Payload) == nplt.HeartbeatText:
		c.trySend(nplt.ChatText, []byte(nplt.HeartbeatText))
		return true
	case !utf8.Valid(f.Payload):
		return c.enqueueError(api.CodeBadRequest, "chat text is not valid UTF-8")
	}
	text := string(f.Payload)
	return c.enqueue(func(ctx context.Context) {
		c.srv.cfg.Metrics.ChatStarted(transportName)
		c.reply.begin()
		defer c.reply.finish(nil)
		err := c.sess.Chat(ctx, text, c.emit)
		if err != nil && !errors.Is(err, context.Canceled) {
			c.log.Info("chat turn failed", zap.String("session", c.sess.ID()), zap.Error(err))
		}
	})
}

// greet sends the welcome reply every connection starts with.
func (c *conn) greet(context.Context) {
	id := c.sess.ID()
	c.textReply("欢迎使用 opsassist 智能运维助手！Welcome to opsassist. 会话ID: " + id[:8] +
		"\n输入问题开始对话；Type a question to start.")
}
