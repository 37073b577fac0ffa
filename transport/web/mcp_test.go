package web

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
)

// withMCP mounts a fake MCP handler that answers the method, the
// principal's name and the body it read.
func withMCP(c *Config, _ *chat.Config) {
	c.MCP = func(principal func(*http.Request) chat.Principal) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, "reading the body: "+err.Error(), http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, r.Method+" "+principal(r).Name+" "+string(b))
		})
	}
}

func TestMCPNotConfigured(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	res, body := e.do(t, "POST", "/mcp", `{}`, "Content-Type", "application/json")
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
}

func TestMCPMountedOnAnOpenServer(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, withMCP)
	for _, m := range []string{"POST", "GET", "DELETE"} {
		res, body := e.do(t, m, "/mcp", `{"x":1}`, "Content-Type", "application/json")
		if res.StatusCode != 200 || string(body) != m+" "+chat.LocalID+` {"x":1}` {
			t.Fatalf("%s: %d %q", m, res.StatusCode, body)
		}
	}
	res, body := e.do(t, "PUT", "/mcp", `{}`)
	wantError(t, res, body, http.StatusMethodNotAllowed, api.CodeMethodNotAllowed)
	// A loopback server without a token refuses other Hosts (DNS
	// rebinding) and cross-origin requests before the handler.
	res, body = e.do(t, "POST", "/mcp", `{}`, "Host", "evil.example", "Content-Type", "application/json")
	wantError(t, res, body, http.StatusForbidden, api.CodeForbidden)
	res, body = e.do(t, "POST", "/mcp", `{}`, "Origin", "https://evil.example", "Content-Type", "application/json")
	wantError(t, res, body, http.StatusForbidden, api.CodeForbidden)
}

func TestMCPTakesABearerTokenOnly(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, withTokenOnLoopback, withMCP)
	res, body := e.do(t, "POST", "/mcp", `{}`)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	res, body = e.do(t, "POST", "/mcp", `{}`, "Authorization", "Bearer wrong")
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	c := e.login(t, "s3cret-token")
	res, body = e.do(t, "POST", "/mcp", `{}`, "Cookie", c.Name+"="+c.Value)
	wantError(t, res, body, http.StatusUnauthorized, api.CodeUnauthorized)
	if !strings.Contains(string(body), "login cookie is not accepted") {
		t.Fatalf("cookie refusal says %s", body)
	}
	res, body = e.do(t, "POST", "/mcp", `{}`, "Authorization", "Bearer s3cret-token")
	if res.StatusCode != 200 || string(body) != "POST "+chat.AdminName+" {}" {
		t.Fatalf("bearer: %d %q", res.StatusCode, body)
	}
}

// TestMCPSlowBody: a /mcp body that stops arriving is given up after
// the stall timeout like any other, and its connection closed.
func TestMCPSlowBody(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, withMCP, shortStall)
	_, br, res := rawRequest(t, e, nil, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\"")
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("stalled body: %d", res.StatusCode)
	}
	wantClosed(t, br)
	if res, body := e.do(t, "POST", "/mcp", `{}`, "Content-Type", "application/json"); res.StatusCode != 200 {
		t.Fatalf("after: %d %s", res.StatusCode, body)
	}
}
