package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/tools"
)

func TestCrossOriginWritesRefused(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	res, body := e.do(t, "POST", "/api/chat", `{"message":"hi"}`, "Sec-Fetch-Site", "cross-site")
	wantError(t, res, body, http.StatusForbidden, api.CodeForbidden)
	res, body = e.do(t, "POST", "/api/sessions", nil, "Origin", "http://evil.example")
	wantError(t, res, body, http.StatusForbidden, api.CodeForbidden)
	// Same-origin browser requests and plain clients pass.
	if res, _ := e.do(t, "POST", "/api/sessions", nil, "Sec-Fetch-Site", "same-origin"); res.StatusCode != http.StatusCreated {
		t.Fatal(res.StatusCode)
	}
}

func TestLoopbackServerRefusesForeignHost(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	req, _ := http.NewRequest("GET", e.ts.URL+"/api/health", nil)
	req.Host = "rebind.evil.example"
	res, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	wantError(t, res, body, http.StatusForbidden, api.CodeForbidden)
	for _, h := range []string{"localhost:8080", "127.0.0.1", "[::1]:80", "app.localhost"} {
		if !loopbackHost(h) {
			t.Errorf("%s refused", h)
		}
	}
	// A public server has a token instead, and any host name.
	p := newEnv(t, testkit.Scripted{}, public)
	req, _ = http.NewRequest("GET", p.ts.URL+"/api/health", nil)
	req.Host = "ops.example.com"
	req.Header.Set("Authorization", "Bearer s3cret-token")
	if res, err := p.ts.Client().Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("public: %v %v", res, err)
	}
}

func TestKeepAliveComments(t *testing.T) {
	ag := testkit.NewBlocking()
	ag.Status = "waiting"
	e := newEnv(t, ag, func(c *Config, _ *chat.Config) { c.KeepAlive = 5 * time.Millisecond })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", e.ts.URL+"/api/chat", strings.NewReader(`{"message":"wait"}`))
	res, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	br := bufio.NewReader(res.Body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == ": keep-alive\n" {
			break
		}
	}
	cancel()
	<-ag.Cancelled
}

func TestObserverCounts(t *testing.T) {
	obs := &testkit.Counting{}
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.Observer = obs })
	e.do(t, "POST", "/api/chat", `{"message":"hi"}`)
	e.upload(t, "a.txt", []byte("12345"), "file", "")
	e.ts.CloseClientConnections()
	deadline := time.Now().Add(10 * time.Second)
	for {
		o, c, ch, b := obs.Counts()
		if o >= 1 && c == o && ch == 1 && b == 5 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("opened %d closed %d chats %d bytes %d", o, c, ch, b)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// monitor is a fake sys_monitor.
type monitor struct{}

func (monitor) Spec() tools.Spec { return tools.Spec{Name: "sys_monitor"} }
func (monitor) Run(_ context.Context, _ *tools.Call, args json.RawMessage) (any, error) {
	return map[string]any{"cpu": map[string]any{"usage_percent": 12.5}, "args": string(args)}, nil
}

func TestSystemEndpoint(t *testing.T) {
	e := newEnv(t, testkit.Scripted{})
	res, body := e.do(t, "GET", "/api/system", nil)
	wantError(t, res, body, http.StatusNotFound, api.CodeNotFound)
	e = newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.System = monitor{} })
	res, body = e.do(t, "GET", "/api/system", nil)
	if res.StatusCode != 200 || !strings.Contains(string(body), `"usage_percent":12.5`) || !strings.Contains(string(body), `{\"metric\":\"all\"}`) {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
}

// TestStalledUploadDropped: a client that stops sending mid-upload is
// dropped after StallTimeout and leaves no temp file.
func TestStalledUploadDropped(t *testing.T) {
	e := newEnv(t, testkit.Scripted{}, func(c *Config, _ *chat.Config) { c.StallTimeout = 200 * time.Millisecond })
	nc, err := net.Dial("tcp", e.ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ct, body := multipartBody(t, "slow.bin", make([]byte, 100<<10), "file", "")
	fmt.Fprintf(nc, "POST /api/files HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", ct, body.Len())
	nc.Write(body.Bytes()[:body.Len()/2]) // then nothing more
	nc.SetReadDeadline(time.Now().Add(time.Minute))
	br := bufio.NewReader(nc)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer to a stalled upload: %v", err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || !res.Close {
		t.Fatalf("status %d, close %v", res.StatusCode, res.Close)
	}
	// The server hangs up rather than wait for the rest of the body.
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("connection still open: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(e.dir, "uploads", ".tmp")); len(ents) != 0 {
		t.Fatalf("temp files left: %v", ents)
	}
}
