package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"opsassist/api"
)

// maxToolsReply bounds a tools answer read from the HTTP API.
const maxToolsReply = 32 << 20

// ErrHTTP wraps a failure to reach the HTTP API or to read its answer.
var ErrHTTP = errors.New("client: http api")

// ToolsAPI reaches the HTTP API's tool endpoints, GET /api/tools and
// POST /api/tools/{name}: the alternative to Conn.Tools and Conn.CallTool
// (NPLT's TOOL_LIST and TOOL_CALL) that the CLI uses when it is given
// the server's HTTP listener (--http, OPSASSIST_TOOLS_HTTP).
type ToolsAPI struct {
	// Addr is the HTTP listener, host:port.
	Addr string
	// Token is the access token, sent as a bearer token; "" sends none.
	Token string
	// TLS, if set, makes the requests HTTPS with this configuration.
	TLS *tls.Config
	// HTTP is the client used; nil: a new one for each request, with TLS.
	HTTP *http.Client
}

// ToolResult is a direct call's answer.
type ToolResult = api.ToolResult

// Catalog returns GET /api/tools, decoded and as sent.
func (t *ToolsAPI) Catalog(ctx context.Context) (api.Catalog, json.RawMessage, error) {
	var c api.Catalog
	raw, err := t.do(ctx, http.MethodGet, "/api/tools", nil)
	if err != nil {
		return c, nil, err
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, nil, fmt.Errorf("%w: GET /api/tools: %v", ErrProtocol, err)
	}
	return c, raw, nil
}

// Call runs the tool name directly with args (a JSON object; nil: {}),
// in the conversation sessionID when it is not "". A call that ran and
// failed, or that the policy refused, is a ToolResult with Success
// false, not an error.
func (t *ToolsAPI) Call(ctx context.Context, name, sessionID string, args json.RawMessage) (ToolResult, error) {
	var r ToolResult
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	body, err := json.Marshal(struct {
		SessionID string          `json:"session_id,omitempty"`
		Arguments json.RawMessage `json:"arguments"`
	}{sessionID, args})
	if err != nil {
		return r, fmt.Errorf("arguments: %w", err)
	}
	raw, err := t.do(ctx, http.MethodPost, "/api/tools/"+url.PathEscape(name), body)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return r, fmt.Errorf("%w: POST /api/tools/%s: %v", ErrProtocol, name, err)
	}
	return r, nil
}

// do sends one request and returns the body of a 2xx answer; an error
// answer is a *ServerError.
func (t *ToolsAPI) do(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	scheme := "http"
	hc := t.HTTP
	if t.TLS != nil {
		scheme = "https"
	}
	if hc == nil {
		hc = &http.Client{Transport: &http.Transport{TLSClientConfig: t.TLS, Proxy: http.ProxyFromEnvironment}}
		defer hc.CloseIdleConnections()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, scheme+"://"+t.Addr+path, rd)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrHTTP, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if t.Token != "" {
		req.Header.Set("Authorization", "Bearer "+t.Token)
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrHTTP, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxToolsReply))
	if err != nil {
		return nil, fmt.Errorf("%w: reading %s %s: %w", ErrHTTP, method, path, err)
	}
	if res.StatusCode/100 != 2 {
		var se ServerError
		if json.Unmarshal(raw, &struct {
			Code    *string `json:"code"`
			Message *string `json:"message"`
		}{&se.Code, &se.Message}) != nil || se.Code == "" {
			return nil, fmt.Errorf("%w: %s %s: %s", ErrHTTP, method, path, res.Status)
		}
		return nil, &se
	}
	return raw, nil
}

// Export returns GET /api/sessions/{id}/export?format=: the conversation
// id (or a unique prefix) as Markdown ("md") or JSON ("json"), at most
// api.MaxExport (32 MiB).
func (t *ToolsAPI) Export(ctx context.Context, id, format string) ([]byte, error) {
	return t.do(ctx, http.MethodGet, "/api/sessions/"+url.PathEscape(id)+"/export?format="+url.QueryEscape(format), nil)
}
