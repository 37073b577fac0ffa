package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// remoteTool is one server tool as a tools.Tool.
type remoteTool struct {
	spec   tools.Spec
	remote string // the tool's name on the server
	srv    *server
}

func (t *remoteTool) Spec() tools.Spec { return t.spec }

// Run calls the tool on the server's current session. A server without
// a session fails the call before anything is sent (ErrUnavailable,
// tools.ErrNotSent, class connection), and so does a call that finds
// the session's connection gone before its request left (callError);
// a session that ends while the call is in flight fails it with
// ErrConnectionLost (class execution: it may have run); a deadline is
// the context's error (class timeout). A call that finds the
// connection gone ends the session: the server restarts now, not at
// the next health check.
func (t *remoteTool) Run(ctx context.Context, _ *tools.Call, args json.RawMessage) (any, error) {
	out, err := t.run(ctx, args)
	return out, t.srv.red.Error(err)
}

// run is Run, its errors not yet redacted.
func (t *remoteTool) run(ctx context.Context, args json.RawMessage) (any, error) {
	sess, ended, reason := t.srv.session()
	if sess == nil {
		return nil, notSent(fmt.Errorf("%w: %s: %s", ErrUnavailable, t.srv.cfg.Name, reason))
	}
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return nil, tools.WithClass(tools.ClassParameter, fmt.Errorf("mcp: %s: arguments: %w", t.spec.Name, err))
	}
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(ended, func() { cancel(context.Cause(ended)) })
	defer stop()
	res, err := sess.CallTool(callCtx, &sdk.CallToolParams{Name: t.remote, Arguments: m})
	if err != nil {
		if ended.Err() != nil && ctx.Err() == nil {
			// The session ended under the call.
			return nil, lost(t.srv.cfg.Name, t.remote, context.Cause(ended))
		}
		if ctx.Err() == nil && brokenBy(err) {
			t.srv.sessionBroken(sess, err)
		}
		return nil, callError(ctx, t.srv.cfg.Name, t.remote, err)
	}
	return convert(res)
}

// riskOf is a server tool's risk: the configured override, else its
// annotations (readOnlyHint → read-only, destructiveHint → dangerous),
// else sensitive.
func riskOf(sc ServerConfig, t *sdk.Tool) tools.Risk {
	if r, ok := sc.Risk[t.Name]; ok {
		return r
	}
	a := t.Annotations
	switch {
	case a == nil:
		return tools.RiskSensitive
	case a.ReadOnlyHint:
		return tools.RiskReadOnly
	case a.DestructiveHint != nil && *a.DestructiveHint:
		return tools.RiskDangerous
	}
	return tools.RiskSensitive
}

// emptySchema is the schema of a tool that declares none.
const emptySchema = `{"type":"object"}`

// Limits on what a server may hand over.
const (
	// MaxServerTools is how many tools of one server are read; the rest
	// are ignored, with a warning.
	MaxServerTools = 1000
	// MaxSchemaBytes is the largest input schema taken; a tool with a
	// larger one is skipped.
	MaxSchemaBytes = 64 << 10
	// MaxDescriptionBytes is where a tool's description is cut.
	MaxDescriptionBytes = 4 << 10
	// MaxServerSchemaBytes bounds the input schemas of one server's
	// tools in all (each one is compiled on every change of the list);
	// the tools past it, in name order, are skipped.
	MaxServerSchemaBytes = 1 << 20
)

// buildTools turns a server's tool list into registry tools: filtered
// by EnabledTools and DisabledTools, named by ToolName in the order of
// the server names (so a collision resolves the same way each time).
// skipped says which tools were left out, and why.
func buildTools(s *server, list []*sdk.Tool) (out []tools.Tool, skipped []string) {
	sc := s.cfg
	list = slices.Clone(list)
	slices.SortStableFunc(list, func(a, b *sdk.Tool) int { return cmp.Compare(a.Name, b.Name) })
	taken := make(map[string]bool)
	seen := make(map[string]bool)
	schemaBytes := 0
	for _, t := range list {
		if t == nil || t.Name == "" || seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		if len(sc.EnabledTools) > 0 && !slices.Contains(sc.EnabledTools, t.Name) || slices.Contains(sc.DisabledTools, t.Name) {
			continue
		}
		params := json.RawMessage(emptySchema)
		if t.InputSchema != nil {
			if b, err := json.Marshal(t.InputSchema); err == nil && string(b) != "null" {
				params = b
			}
		}
		if len(params) > MaxSchemaBytes {
			skipped = append(skipped, fmt.Sprintf("%s: input schema of %d bytes, over %d", t.Name, len(params), MaxSchemaBytes))
			continue
		}
		params, err := objectSchema(params)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", t.Name, err))
			continue
		}
		if schemaBytes+len(params) > MaxServerSchemaBytes {
			skipped = append(skipped, fmt.Sprintf("%s: the server's input schemas are over %d bytes in all", t.Name, MaxServerSchemaBytes))
			continue
		}
		schemaBytes += len(params)
		desc := cut(t.Description, MaxDescriptionBytes)
		if desc == "" {
			desc = fmt.Sprintf("Tool %s of the MCP server %s.", t.Name, sc.Name)
		}
		out = append(out, &remoteTool{
			spec: tools.Spec{
				Name: ToolName(sc.Name, t.Name, taken), Description: desc, Parameters: params,
				Risk: riskOf(sc, t), Timeout: sc.CallTimeout, Source: sc.Name, SourceName: t.Name,
			},
			remote: t.Name,
			srv:    s,
		})
	}
	return out, skipped
}

// objectSchema is schema as an object schema: function-calling APIs
// refuse a request whose tool parameters are not {"type":"object",…}.
// An object without "type" gets "type":"object"; anything else (true,
// {"type":"string"}, an array) is an error.
func objectSchema(schema json.RawMessage) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(schema, &m); err != nil || m == nil {
		return nil, errors.New("input schema is not a JSON object")
	}
	typ, ok := m["type"]
	if !ok {
		m["type"] = json.RawMessage(`"object"`)
		return json.Marshal(m)
	}
	if string(typ) != `"object"` {
		return nil, fmt.Errorf("input schema has type %.40s, not \"object\"", typ)
	}
	return schema, nil
}

// cut is s cut to at most n bytes, at a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}
