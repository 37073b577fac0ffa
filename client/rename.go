package client

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"opsassist/nplt"
)

// ErrRenameUnsupported is returned by Rename when the server did not
// announce nplt.FeatureRename in its HELLO reply (an older server).
var ErrRenameUnsupported = errors.New("client: server cannot rename a conversation")

// Rename sets the current conversation's title (SESSION_RENAME; ""
// restores the title derived from its first message) and returns the
// conversation (KindSession). It returns ErrRenameUnsupported, sending
// nothing, if the server cannot rename.
func (c *Conn) Rename(ctx context.Context, title string) (Result, error) {
	if !slices.Contains(c.hello.Features, nplt.FeatureRename) {
		return Result{}, ErrRenameUnsupported
	}
	p, err := json.Marshal(nplt.SessionRenamePayload{Title: &title})
	if err != nil {
		return Result{}, err
	}
	return c.command(ctx, nplt.SessionRename, p, "")
}

// ErrSearchUnsupported is returned by SearchSessions when the server did
// not announce nplt.FeatureSessionSearch (an older server).
var ErrSearchUnsupported = errors.New("client: server cannot search conversations")

// SearchSessions lists the conversations whose title or messages
// contain q, ignoring case (KindSessionList). It returns
// ErrSearchUnsupported, sending nothing, if the server cannot search.
func (c *Conn) SearchSessions(ctx context.Context, q string) (Result, error) {
	if !slices.Contains(c.hello.Features, nplt.FeatureSessionSearch) {
		return Result{}, ErrSearchUnsupported
	}
	p, err := json.Marshal(nplt.SessionSearch{Q: q})
	if err != nil {
		return Result{}, err
	}
	return c.command(ctx, nplt.SessionList, p, "")
}
