package testkit

import (
	"context"

	"opsassist/chat"
	"opsassist/storage/history"
)

// InstantIndexer is a chat.Indexer that indexes nothing and succeeds at
// once: the fastest indexer there can be.
type InstantIndexer struct{}

var _ chat.Indexer = InstantIndexer{}

// IndexUpload returns nil.
func (InstantIndexer) IndexUpload(context.Context, string, history.Upload) error { return nil }

// FailingIndexer is a chat.Indexer that refuses every upload with Err:
// a failure, or with a *indexer.SkipError a file that cannot be indexed.
type FailingIndexer struct{ Err error }

var _ chat.Indexer = FailingIndexer{}

// IndexUpload returns Err.
func (ix FailingIndexer) IndexUpload(context.Context, string, history.Upload) error { return ix.Err }

// IndexFunc is a chat.Indexer made of a function.
type IndexFunc func(ctx context.Context, sessionID string, u history.Upload) error

var _ chat.Indexer = IndexFunc(nil)

// IndexUpload calls f.
func (f IndexFunc) IndexUpload(ctx context.Context, sessionID string, u history.Upload) error {
	return f(ctx, sessionID, u)
}
