package client

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"opsassist/api"
)

// TestToolsAPIErrors: an error answer with a JSON body is a *ServerError
// with its code; one without (a proxy's 502) and an address nobody
// listens on are ErrHTTP; an answer that is not the expected JSON is
// ErrProtocol.
func TestToolsAPIErrors(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/tools/nope":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"code":"not_found","message":"no such tool"}`)
		case "/api/tools/garbage":
			io.WriteString(w, `not json`)
		default:
			w.WriteHeader(http.StatusBadGateway)
			io.WriteString(w, "bad gateway")
		}
	}))
	defer ts.Close()
	ta := &ToolsAPI{Addr: strings.TrimPrefix(ts.URL, "http://")}
	ctx := context.Background()
	_, err := ta.Call(ctx, "nope", "", nil)
	if !errors.Is(err, &ServerError{Code: api.CodeNotFound}) {
		t.Fatalf("404: %v", err)
	}
	if _, err := ta.Call(ctx, "garbage", "", nil); !errors.Is(err, ErrProtocol) {
		t.Fatalf("garbage: %v", err)
	}
	if _, _, err := ta.Catalog(ctx); !errors.Is(err, ErrHTTP) || !strings.Contains(err.Error(), "502") {
		t.Fatalf("502: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	if _, _, err := (&ToolsAPI{Addr: addr}).Catalog(ctx); !errors.Is(err, ErrHTTP) {
		t.Fatalf("nobody listening: %v", err)
	}
}
