package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/api"
	"opsassist/tools"
)

// MetaOffer is the _meta key of a call result that offered a file for
// download: its api.Offer (name, size, SHA-256, download URL, expiry).
const MetaOffer = "opsassist/download_offer"

// result is the MCP result of a finished call. A failure or refusal is
// IsError with the registry's error text. A success is its output JSON
// as text, and as structured content when it is an object; an output
// over MaxResult is the registry's capped view instead (marked
// truncated, no structured content). A download offer is added as a
// line of text naming the file and its URL, and whole in _meta
// (MetaOffer).
func (s *Server) result(o tools.Outcome, offer *api.Offer) *mcp.CallToolResult {
	res := o.Result
	if !res.Success {
		msg := res.Error
		if msg == "" {
			msg = "the call failed"
		}
		return errorResult("%s", msg)
	}
	r := &mcp.CallToolResult{}
	out := bytes.TrimSpace(res.Output)
	switch {
	case len(out) > s.cfg.MaxResult:
		r.Content = []mcp.Content{&mcp.TextContent{Text: o.ForModel},
			&mcp.TextContent{Text: fmt.Sprintf("(output of %d bytes truncated to the view above)", len(out))}}
	case len(out) == 0:
		r.Content = []mcp.Content{&mcp.TextContent{Text: "{}"}}
	default:
		r.Content = []mcp.Content{&mcp.TextContent{Text: string(out)}}
		if out[0] == '{' && json.Valid(out) {
			r.StructuredContent = json.RawMessage(out)
		}
	}
	if offer != nil {
		r.Content = append(r.Content, &mcp.TextContent{Text: offerText(*offer)})
		r.Meta = mcp.Meta{MetaOffer: offer}
	}
	return r
}

// offerText tells the client where an offered file is.
func offerText(o api.Offer) string {
	where := "over " + o.TransportMode + " (token " + o.DownloadToken + ")"
	if o.DownloadURL != "" {
		where = "GET " + o.DownloadURL + " (with the same Authorization header as /mcp)"
	}
	return fmt.Sprintf("download offered: %s, %d bytes, sha256 %s, until %s: %s", o.Filename, o.FileSize, o.SHA256, o.ExpiresAt, where)
}
