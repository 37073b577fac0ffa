package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"opsassist/api"
	"opsassist/client"
	"opsassist/config"
)

// promptRecorder is an OpenAI-compatible chat completions endpoint that
// records each request's system prompt and answers "ok".
type promptRecorder struct {
	*httptest.Server
	mu      sync.Mutex
	prompts []string
}

func newPromptRecorder(t *testing.T) *promptRecorder {
	r := &promptRecorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body struct {
			Messages []struct{ Role, Content string }
		}
		if err := json.NewDecoder(req.Body).Decode(&body); err != nil || len(body.Messages) == 0 || body.Messages[0].Role != "system" {
			http.Error(w, `{"error":{"message":"no system prompt"}}`, http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		r.prompts = append(r.prompts, body.Messages[0].Content)
		r.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		for _, delta := range []string{`{"role":"assistant","content":"ok"}`, `{}`} {
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s}]}\n\n", delta)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(r.Close)
	return r
}

// last returns the newest recorded system prompt.
func (r *promptRecorder) last() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.prompts) == 0 {
		return ""
	}
	return r.prompts[len(r.prompts)-1]
}

// TestConfiguredCommandsReachEveryone is issue 11's acceptance for the
// command tiers: a config file adding uptime to commands: changes all
// four readers of the one definition, end to end through the daemon.
// The tool runs uptime; the offline planner turns "执行 uptime" and "run
// uptime" into that call; its refusal of an unlisted command lists
// uptime; the model's system prompt lists it. With the default list,
// none of these holds.
func TestConfiguredCommandsReachEveryone(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		uptime     bool
	}{
		{"default", "", false},
		{"uptime added", "commands: [ls, cat, grep, head, tail, ps, pwd, whoami, df, free, uptime]\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := newPromptRecorder(t)
			file := filepath.Join(t.TempDir(), "opsassist.yaml")
			if err := os.WriteFile(file, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			a := startApp(t, t.TempDir(), func(c *config.Config) {
				if err := c.LoadFile(file); err != nil {
					t.Fatal(err)
				}
				c.Providers = []config.Provider{{Name: "recorder", BaseURL: model.URL + "/v1", Model: "m"}}
			})
			defer stop(t, a)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			conn, err := client.Dial(ctx, a.NPLTAddr().String(), client.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()

			// The offline planner and the tool, for both spellings.
			for _, q := range []string{"执行 uptime", "run uptime"} {
				got, evs := chatOnce(ctx, t, conn, q)
				called := false
				for _, e := range evs {
					called = called || e.Type == client.EventStatus && e.Status.Type == api.StatusToolCall &&
						e.Status.Content == `command_executor {"args":[],"command":"uptime"}`
				}
				ran := strings.Contains(got, "`uptime`") && strings.Contains(got, "load average")
				if called != tc.uptime || ran != tc.uptime {
					t.Errorf("%q: called uptime %v, ran it %v; answer %q", q, called, ran, got)
				}
			}
			// The planner's refusal lists the whitelist.
			got, _ := chatOnce(ctx, t, conn, "执行 uname -a")
			if !strings.Contains(got, "uname") || !strings.Contains(got, "whoami df free") || strings.Contains(got, "uptime") != tc.uptime {
				t.Errorf("refusal %q", got)
			}
			// The model's system prompt lists the whitelist.
			if _, err := conn.Model(ctx, "recorder"); err != nil {
				t.Fatal(err)
			}
			if got, _ := chatOnce(ctx, t, conn, "hello"); got != "ok" {
				t.Fatalf("model answered %q", got)
			}
			prompt := model.last()
			if !strings.Contains(prompt, "whoami df free") || strings.Contains(prompt, "uptime") != tc.uptime {
				t.Errorf("system prompt:\n%s", prompt)
			}
		})
	}
}
