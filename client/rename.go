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

// ErrPagingUnsupported is returned by SessionsPage when the server did
// not announce nplt.FeatureSessionPaging (an older server).
var ErrPagingUnsupported = errors.New("client: server cannot page the conversation list")

// SessionsPage lists at most limit conversations (1–500) after the
// cursor before ("" for the first page), those whose title or messages
// contain q if q is not empty (KindSessionList). The result's data
// carries "next", the cursor of the following page, absent on the last:
// a walk of pages shows each conversation not updated meanwhile exactly
// once. It returns ErrPagingUnsupported, sending nothing, if the server
// cannot page.
func (c *Conn) SessionsPage(ctx context.Context, q string, limit int, before string) (Result, error) {
	if !slices.Contains(c.hello.Features, nplt.FeatureSessionPaging) {
		return Result{}, ErrPagingUnsupported
	}
	p, err := json.Marshal(nplt.SessionSearch{Q: q, Limit: limit, Before: before})
	if err != nil {
		return Result{}, err
	}
	return c.command(ctx, nplt.SessionList, p, "")
}
