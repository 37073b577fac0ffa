package chat

import (
	"context"

	"opsassist/storage/history"
)

// Indexer makes a committed upload searchable. The core calls IndexUpload
// in its own goroutine after the upload is recorded; when it returns nil
// the upload's indexed flag is set. The storage layer implements it.
type Indexer interface {
	IndexUpload(ctx context.Context, sessionID string, u history.Upload) error
}
