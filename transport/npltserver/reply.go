package npltserver

import (
	"bytes"
	"encoding/json"
	"errors"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/runecut"
	"opsassist/nplt"
)

// Reply helpers. They run on the worker goroutine, which produces one
// complete reply at a time, so replies never interleave.

// text sends s as CHAT_TEXT chunks of at most MaxPayload bytes, split on
// rune boundaries. An empty s sends nothing (an empty CHAT_TEXT ends a
// reply).
func (c *conn) text(s string) error {
	for len(s) > 0 {
		chunk := runecut.Head(s, nplt.MaxPayload)
		if err := c.send(nplt.ChatText, []byte(chunk)); err != nil {
			return err
		}
		s = s[len(chunk):]
	}
	return nil
}

// end sends the empty CHAT_TEXT that ends every reply.
func (c *conn) end() error { return c.send(nplt.ChatText, nil) }

// textReply sends s as a complete reply.
func (c *conn) textReply(s string) {
	if c.text(s) == nil {
		c.end()
	}
}

// replyError sends an error as a complete reply: an ERROR frame to HELLO
// clients, readable text to published clients.
func (c *conn) replyError(code, msg string) {
	if c.sendError(code, msg) == nil {
		c.end()
	}
}

// maxErrorMessage caps error messages, which may quote client input.
const maxErrorMessage = 1024

// sendError sends one error in the form the client understands.
func (c *conn) sendError(code, msg string) error {
	msg = cutBytes(msg, maxErrorMessage)
	if c.ext.Load() {
		return c.send(nplt.Error, errorPayload(code, msg))
	}
	return c.text("错误 [" + code + "]: " + msg)
}

// result sends a command's reply: a RESULT frame with its data to HELLO
// clients, then human-readable text, then the end.
func (c *conn) result(kind string, data any, text string) {
	if c.ext.Load() {
		if c.sendJSON(nplt.Result, nplt.ResultPayload{Kind: kind, Data: data}) != nil {
			return
		}
	}
	c.textReply(text)
}

// sendJSON sends v encoded as JSON in one frame. A value too large for a
// frame is a server bug; it is reported as an internal error instead.
func (c *conn) sendJSON(t nplt.Type, v any) error {
	b, err := marshal(v)
	if err == nil && len(b) > nplt.MaxPayload {
		err = nplt.ErrFrameTooLarge
	}
	if err != nil {
		c.log.Sugar().Errorw("cannot encode frame", "type", t, "error", err)
		return c.sendError(api.CodeInternal, "reply too large for one frame")
	}
	return c.send(t, b)
}

// emit translates chat core events to NPLT frames.
func (c *conn) emit(e chat.Event) error {
	switch e.Kind {
	case chat.KindStreamStart:
		return c.sendJSON(nplt.AgentThought, nplt.Status{Type: api.StatusStreamStart, SessionID: e.SessionID})
	case chat.KindStatus:
		return c.sendJSON(nplt.AgentThought, nplt.Status{Type: e.Status.Type, Content: e.Status.Content})
	case chat.KindDelta:
		return c.text(e.Text)
	case chat.KindOffer:
		return c.sendJSON(nplt.DownloadOffer, e.Offer)
	case chat.KindError:
		return c.sendError(e.Error.Code, e.Error.Message)
	case chat.KindPermissionRequest:
		return c.emitPermission(e.Permission)
	case chat.KindQuestion:
		return c.emitQuestion(e.Question)
	case chat.KindEnd:
		return c.reply.finish(c.end)
	}
	return errors.New("server: unknown event kind " + string(e.Kind))
}

// marshal encodes JSON without HTML escaping, so Chinese text and <>&
// stay readable on the wire.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func errorPayload(code, msg string) []byte {
	b, _ := marshal(nplt.ErrorPayload{Code: code, Message: cutBytes(msg, maxErrorMessage)})
	return b
}

// unmarshalStrict decodes one JSON value and rejects anything but white
// space after it ("{} ]" and "{}{}" alike: Decoder.More is false before
// a ']').
func unmarshalStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if len(bytes.TrimLeft(b[dec.InputOffset():], " \t\r\n")) > 0 {
		return errors.New("trailing data after JSON value")
	}
	return nil
}

// chatError is the code and message of a chat core (or store) error
// for the client: chatCode, and chat.Message, the transports' one
// wording (no package prefixes, ids unquoted).
func chatError(err error) (code, msg string) { return chatCode(err), chat.Message(err) }

// chatCode maps a chat core error to its protocol code.
func chatCode(err error) string {
	var ce *chat.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return api.CodeInternal
}
