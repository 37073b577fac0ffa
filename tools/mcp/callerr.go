package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"opsassist/tools"
)

// A failed CallTool is read by the types in its error chain, never by
// its text. The SDK's streamable HTTP client wraps every failure of its
// HTTP client (*url.Error) in a *jsonrpc.Error ("rejected by transport",
// so that its connection survives a per-request failure): that one is
// the transport's, not the server's answer.

// closing reports whether err says the SDK refused the call because the
// session's connection is closing (ErrConnectionClosed), or a request
// was written to a stdio child's closed stdin: nothing reached the
// server.
func closing(err error) bool {
	return errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe)
}

// dialError is the error of an HTTP request that could not reach the
// server — its connection could not be opened (refused, no route, an
// unknown host), so nothing of the request left — or nil.
func dialError(err error) error {
	if op, ok := errors.AsType[*net.OpError](err); ok && (op.Op == "dial" || op.Op == "proxyconnect") {
		return op
	}
	return nil
}

// httpFailed reports whether err is the HTTP client's failure to get a
// reply (*url.Error): the connection broke, the request may have
// reached the server.
func httpFailed(err error) bool {
	_, ok := errors.AsType[*url.Error](err)
	return ok
}

// brokenBy reports whether a call's error says the session's connection
// is gone though the session has not noticed its end yet: it closes,
// the server cannot be reached, the HTTP exchange broke, or the server
// no longer knows the session (HTTP 404, sdk.ErrSessionMissing).
func brokenBy(err error) bool {
	return closing(err) || errors.Is(err, sdk.ErrSessionMissing) || httpFailed(err)
}

// notSent marks err as a failure before the request left.
func notSent(err error) error {
	return tools.WithClass(tools.ClassConnection, errors.Join(err, tools.ErrNotSent))
}

// callError classifies a failed CallTool of tool on server: a request
// that provably never reached the server is ErrUnavailable, not sent
// (class connection: the registry may retry it); a broken connection
// with the request under way is ErrConnectionLost (class execution: it
// may have run); the caller's deadline or cancellation is ctx's cause;
// an error the server answered is class execution.
func callError(ctx context.Context, server, tool string, err error) error {
	if closing(err) {
		// The SDK refuses calls started while the session closes; a
		// request written to a stdio child's closed stdin reached no one.
		return notSent(fmt.Errorf("%w: %s: the session is closing; try again shortly", ErrUnavailable, server))
	}
	if ctx.Err() != nil {
		return fmt.Errorf("mcp: %s: %s: %w", server, tool, context.Cause(ctx))
	}
	if derr := dialError(err); derr != nil {
		return notSent(fmt.Errorf("%w: %s: %s: cannot reach the server (%w); the call was not sent, the session is being restarted", ErrUnavailable, server, tool, derr))
	}
	if errors.Is(err, sdk.ErrSessionMissing) {
		// HTTP 404 for the session: the server ran nothing of it.
		return notSent(fmt.Errorf("%w: %s: %s: the server no longer knows the session (it restarted?); the call was not run, the session is being restarted", ErrUnavailable, server, tool))
	}
	if httpFailed(err) {
		return lost(server, tool, err)
	}
	if _, ok := errors.AsType[*jsonrpc.Error](err); ok {
		// The server answered with an error.
		return tools.WithClass(tools.ClassExecution, fmt.Errorf("mcp: %s: %s: %w", server, tool, err))
	}
	return lost(server, tool, err)
}

// lost is the error of a call whose session ended under it, for why.
func lost(server, tool string, why error) error {
	return tools.WithClass(tools.ClassExecution, fmt.Errorf("%w: %s: %s (%v); it may or may not have run: check before calling it again, once the server is back", ErrConnectionLost, server, tool, why))
}
