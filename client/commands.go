package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.uber.org/zap"

	"opsassist/nplt"
)

// Sessions lists the conversations (KindSessionList).
func (c *Conn) Sessions(ctx context.Context) (Result, error) {
	return c.command(ctx, nplt.SessionList, nil, "")
}

// NewSession starts a new conversation and makes it current (KindSession).
func (c *Conn) NewSession(ctx context.Context) (Result, error) {
	return c.command(ctx, nplt.SessionNew, nil, "")
}

// Switch makes the conversation id current (KindSession). The server
// accepts a unique prefix of at least 4 characters.
func (c *Conn) Switch(ctx context.Context, id string) (Result, error) {
	p, err := json.Marshal(nplt.SessionRef{SessionID: id})
	if err != nil {
		return Result{}, err
	}
	return c.command(ctx, nplt.SessionSwitch, p, id)
}

// Delete deletes the conversation id. Deleting the current conversation
// moves the connection to a new one.
func (c *Conn) Delete(ctx context.Context, id string) (Result, error) {
	p, err := json.Marshal(nplt.SessionRef{SessionID: id})
	if err != nil {
		return Result{}, err
	}
	return c.command(ctx, nplt.SessionDelete, p, id)
}

// History returns the current conversation's messages (KindHistory).
func (c *Conn) History(ctx context.Context) (Result, error) {
	return c.command(ctx, nplt.HistoryRequest, nil, "")
}

// Clear clears the current conversation's messages (KindCleared).
func (c *Conn) Clear(ctx context.Context) (Result, error) {
	return c.command(ctx, nplt.ClearRequest, nil, "")
}

// Model switches to the model name, or lists the models when name is
// empty (KindModels).
func (c *Conn) Model(ctx context.Context, name string) (Result, error) {
	var p []byte
	if name != "" {
		var err error
		if p, err = json.Marshal(nplt.ModelRequest{Model: name}); err != nil {
			return Result{}, err
		}
	}
	return c.command(ctx, nplt.ModelSwitch, p, "")
}

// command sends a command frame and collects its reply: RESULT, CHAT_TEXT
// text, end. target is the session id a switch or delete names.
func (c *Conn) command(ctx context.Context, t nplt.Type, payload []byte, target string) (Result, error) {
	r, end, err := c.begin(ctx, false)
	if err != nil {
		return Result{}, err
	}
	defer end()
	if err := c.write(t, payload); err != nil {
		return Result{}, err
	}
	var (
		res        Result
		text       strings.Builder
		serr, perr error
	)
	for {
		f, err := r.next(ctx)
		if err != nil {
			return Result{}, joinServerError(serr, err)
		}
		switch {
		case f.Type == nplt.Result:
			var p resultPayload
			if err := json.Unmarshal(f.Payload, &p); err != nil {
				perr = fmt.Errorf("%w: decoding %v: %w", ErrProtocol, f.Type, err)
				continue
			}
			res.Kind, res.Data = p.Kind, p.Data
		case f.Type == nplt.Error:
			se, err := decodeServerError(f.Payload)
			if err != nil {
				perr = err
				continue
			}
			serr = se
		case isEnd(f):
			res.Text = text.String()
			if serr != nil {
				return res, serr
			}
			if perr != nil {
				return res, perr
			}
			c.trackSession(t, target, res)
			return res, nil
		case f.Type == nplt.ChatText:
			text.Write(f.Payload)
		}
	}
}

// trackSession updates SessionID from a command's result.
func (c *Conn) trackSession(t nplt.Type, target string, res Result) {
	if t == nplt.SessionDelete && res.Kind != KindSessionList {
		// The result names the deleted conversation, not the current one.
		// If it was the current one the server moved us to a new one we do
		// not know yet; forget the old id so a reconnect does not resume it.
		c.mu.Lock()
		if target != "" && strings.HasPrefix(c.sessionID, target) {
			c.sessionID = ""
		}
		c.mu.Unlock()
		return
	}
	if res.Kind != KindSessionList && res.Kind != KindSession && res.Kind != KindHistory {
		return
	}
	var h sessionHint
	if err := res.Decode(&h); err != nil {
		// The command itself succeeded; only the session tracking misses
		// this update.
		c.log.Warn("no session in result", zap.String("kind", res.Kind), zap.Error(err))
		return
	}
	if res.Kind == KindSessionList {
		c.setSessionID(h.Current)
	} else {
		c.setSessionID(h.SessionID)
	}
}
