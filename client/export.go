package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"opsassist/api"
	"opsassist/nplt"
)

// ErrExportUnsupported is returned by Export when the server did not
// announce nplt.FeatureExport in its HELLO reply (an older server: its
// HTTP API, ToolsAPI.Export, may still answer).
var ErrExportUnsupported = errors.New("client: server cannot export a conversation over NPLT")

// Export returns the conversation id (or a unique id prefix) in format,
// "md" or "json" (SESSION_EXPORT): the same bytes GET
// /api/sessions/{id}/export?format= answers. Another user's
// conversation, or an unknown id, is a *ServerError not_found. It
// returns ErrExportUnsupported, sending nothing, if the server cannot
// export over NPLT.
func (c *Conn) Export(ctx context.Context, id, format string) ([]byte, error) {
	if !slices.Contains(c.hello.Features, nplt.FeatureExport) {
		return nil, ErrExportUnsupported
	}
	p, err := json.Marshal(nplt.SessionExportPayload{SessionID: id, Format: format})
	if err != nil {
		return nil, fmt.Errorf("client: export request: %w", err)
	}
	return c.collect(ctx, nplt.SessionExport, p, api.MaxExport) // the server's own bound
}
