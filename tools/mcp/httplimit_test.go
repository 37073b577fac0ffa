package mcp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestHTTPReplyOverLimitFails(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		chunk := []byte(strings.Repeat(" ", 1<<20))
		for range MaxResponseBytes>>20 + 1 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	}))
	defer hs.Close()
	ch := make(statuses, 64)
	m, err := New(Config{Servers: []ServerConfig{{Name: "h", URL: hs.URL}}, Registry: newRegistryForTest(),
		Backoff: Backoff{Base: time.Hour}, OnChange: ch.on})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Start(context.Background())
	st := ch.waitFor(t, "unavailable", func(s ServerStatus) bool { return s.State == StateUnavailable })
	if !strings.Contains(st.Reason, "too large") {
		t.Errorf("reason %q does not say the reply was too large", st.Reason)
	}
}

func TestLimitedBodyCountsEventsApart(t *testing.T) {
	event := "data: " + strings.Repeat("x", 60) + "\r\n\r\n"
	body := strings.Repeat(event, 10)
	b := &limitedBody{rc: io.NopCloser(strings.NewReader(body)), max: 100, perEvent: true}
	if got, err := io.ReadAll(b); err != nil || string(got) != body {
		t.Errorf("events each under the limit: %d bytes, %v", len(got), err)
	}
	b = &limitedBody{rc: io.NopCloser(strings.NewReader(strings.Repeat("x", 101) + "\n\n")), max: 100, perEvent: true}
	if _, err := io.ReadAll(b); !errors.Is(err, ErrResponseTooLarge) {
		t.Errorf("one event over the limit: %v", err)
	}
	b = &limitedBody{rc: io.NopCloser(strings.NewReader(body)), max: 100}
	if _, err := io.ReadAll(b); !errors.Is(err, ErrResponseTooLarge) {
		t.Errorf("a JSON body over the limit: %v", err)
	}
}
