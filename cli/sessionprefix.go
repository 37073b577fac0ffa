package cli

import (
	"context"
	"errors"

	"opsassist/api"
	"opsassist/client"
)

// dialSession dials addr with opts, resuming opts.SessionID. The server
// resumes only a full id or a unique prefix of at least api.MinSessionPrefix
// characters; when it does not know a shorter opts.SessionID and that is
// the prefix of exactly one conversation, dialSession dials without a
// conversation and switches to that one, so --session 7e4 works as
// /switch 7e4 does. Otherwise it returns the first dial's error
// (client.ErrUnknownSession).
func dialSession(ctx context.Context, dial dialFunc, addr string, opts client.Options) (*client.Conn, error) {
	conn, err := dial(ctx, addr, opts)
	if opts.SessionID == "" || len(opts.SessionID) >= api.MinSessionPrefix || !errors.Is(err, client.ErrUnknownSession) {
		return conn, err
	}
	fresh := opts
	fresh.SessionID = ""
	fc, ferr := dial(ctx, addr, fresh)
	if ferr != nil {
		return nil, err
	}
	if full := uniqueSession(ctx, fc, opts.SessionID); full != "" {
		if _, serr := fc.Switch(ctx, full); serr == nil {
			return fc, nil
		}
	}
	_ = fc.Close()
	return nil, err
}

// uniqueSession returns the id of the one conversation whose id starts
// with prefix, or "" if there is none, several, or no list.
func uniqueSession(ctx context.Context, c *client.Conn, prefix string) string {
	list, err := allSessions(ctx, c)
	if err != nil {
		return ""
	}
	if m := withPrefix(list, prefix); len(m) == 1 {
		return m[0].SessionID
	}
	return ""
}
