package config

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func load(t *testing.T, args []string, e map[string]string) (Config, error) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return Load(fs, args, env(e))
}

func TestDefaultsAreValid(t *testing.T) {
	c, err := load(t, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.NPLT != "127.0.0.1:9999" || c.RDT != "127.0.0.1:9998" || c.HTTP != "127.0.0.1:8080" || c.Data != "./data" || c.LLM != "builtin" {
		t.Fatalf("%+v", c)
	}
	if c.Limits.MaxClients != 200 || c.Limits.MaxUpload != 100<<20 || c.Limits.IdleTimeout != 180*time.Second {
		t.Fatalf("%+v", c.Limits)
	}
}

func TestPrecedenceFileEnvFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(file, []byte(`
nplt: 127.0.0.1:1000
data: /from/file
llm: deepseek
providers:
  - name: deepseek
    base_url: https://api.deepseek.com/v1
    model: deepseek-chat
    api_key_env: DEEPSEEK_API_KEY
limits:
  max_clients: 5
  idle_timeout: 1m
log:
  level: debug
`), 0o600)
	c, err := load(t, []string{"--config", file, "--data", "/from/flag", "--log-format", "json"}, map[string]string{
		"OPSASSIST_NPLT":               "127.0.0.1:2000",
		"OPSASSIST_DATA":               "/from/env",
		"OPSASSIST_LIMITS_MAX_CLIENTS": "7",
		"OPSASSIST_LIMITS_MAX_UPLOAD":  "1024",
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.NPLT != "127.0.0.1:2000" || c.Data != "/from/flag" || c.LLM != "deepseek" || c.Log.Level != "debug" || c.Log.Format != "json" {
		t.Fatalf("%+v", c)
	}
	if c.Limits.MaxClients != 7 || c.Limits.MaxUpload != 1024 || c.Limits.IdleTimeout != time.Minute || c.Limits.StallTimeout != 30*time.Second {
		t.Fatalf("%+v", c.Limits)
	}
	// The configured deepseek replaces its preset; the other presets stay.
	if got := strings.Join(c.Models(), " "); got != "builtin deepseek zhipu openai ollama" {
		t.Fatal(got)
	}
	if p := c.AllProviders()[0]; p.Model != "deepseek-chat" || p.APIKeyEnv != "DEEPSEEK_API_KEY" {
		t.Fatal(p)
	}
}

func TestConfigFileFromEnv(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(file, []byte("http: 127.0.0.1:1\n"), 0o600)
	c, err := load(t, nil, map[string]string{"OPSASSIST_CONFIG": file})
	if err != nil || c.HTTP != "127.0.0.1:1" {
		t.Fatal(c.HTTP, err)
	}
}

func TestEmptyFileIsDefaults(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(file, nil, 0o600)
	if c, err := load(t, []string{"--config", file}, nil); err != nil || c.NPLT != Defaults().NPLT {
		t.Fatal(err)
	}
}

func TestErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(file, []byte("nplt_addr: x\n"), 0o600)
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"unknown key", []string{"--config", file}, nil, "nplt_addr"},
		{"missing file", []string{"--config", "/nonexistent.yaml"}, nil, "no such file"},
		{"bad address", []string{"--nplt", "nope"}, nil, "bad address"},
		{"public without token", []string{"--nplt", "0.0.0.0:9999"}, nil, "auth_token"},
		{"public http without token", []string{"--http", ":8080"}, nil, "http: :8080 is not a loopback address"},
		{"unknown llm", []string{"--llm", "gpt"}, nil, "llm"},
		{"bad format", []string{"--log-format", "xml"}, nil, "log.format"},
		{"bad env int", nil, map[string]string{"OPSASSIST_LIMITS_MAX_CLIENTS": "many"}, "MAX_CLIENTS"},
		{"bad env duration", nil, map[string]string{"OPSASSIST_LIMITS_IDLE_TIMEOUT": "5"}, "IDLE_TIMEOUT"},
		{"zero limit", nil, map[string]string{"OPSASSIST_LIMITS_MAX_CLIENTS": "0"}, "limits.max_clients: must be positive"},
		{"zero plan input", nil, map[string]string{"OPSASSIST_LIMITS_MAX_PLAN_INPUT": "0"}, "limits.max_plan_input: must be positive"},
		{"negative quota", nil, map[string]string{"OPSASSIST_LIMITS_MAX_UPLOAD_BYTES_TOTAL": "-1"}, "limits.max_upload_bytes_total: must not be negative"},
		{"unknown flag", []string{"--bogus"}, nil, "bogus"},
		{"short token in public", []string{"--nplt", "0.0.0.0:9999"}, map[string]string{"OPSASSIST_AUTH_TOKEN": "t0ken"}, "auth_token is too weak for a listener off loopback: it has 5 characters, want at least 16"},
		{"repeated token in public", []string{"--http", "[::]:8080"}, map[string]string{"OPSASSIST_AUTH_TOKEN": "aaaaaaaaaaaaaaaaaaaaaaaa"}, "one character repeated"},
		{"zero hello timeout", nil, map[string]string{"OPSASSIST_LIMITS_HELLO_TIMEOUT": "0s"}, "limits.hello_timeout: must be positive"},
		{"min score above 1", nil, map[string]string{"OPSASSIST_SEARCH_MIN_SCORE": "1.5"}, "search.min_score: 1.5 is not between 0 and 1"},
		{"negative min score", nil, map[string]string{"OPSASSIST_SEARCH_MIN_SCORE": "-0.1"}, "search.min_score"},
		{"bad env float", nil, map[string]string{"OPSASSIST_SEARCH_MIN_SCORE": "high"}, "MIN_SCORE"},
	}
	for _, tt := range tests {
		_, err := load(t, tt.args, tt.env)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "config: weak") {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestPublicWithToken(t *testing.T) {
	c, err := load(t, []string{"--nplt", "0.0.0.0:9999", "--http", "0.0.0.0:8080"}, map[string]string{"OPSASSIST_AUTH_TOKEN": "t0ken-0123456789abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(c.String(), "t0ken") {
		t.Fatal("token in String()")
	}
}

// TestWeakTokenOnLoopbackAllowed: a short token guards nothing public,
// so it is accepted while every listener is on loopback.
func TestWeakTokenOnLoopbackAllowed(t *testing.T) {
	if _, err := load(t, nil, map[string]string{"OPSASSIST_AUTH_TOKEN": "x"}); err != nil {
		t.Fatal(err)
	}
	for tok, weak := range map[string]bool{"": true, "abcdefghijklmno": true, "ééééééééééééééééé": true, "abcdefghijklmnop": false, "令牌令牌令牌令牌令牌令牌令牌令牌": false} {
		if err := CheckToken(tok); (err != nil) != weak {
			t.Errorf("CheckToken(%q) = %v, want weak=%v", tok, err, weak)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:1": true, "localhost:1": true, "[::1]:1": true, "127.1.2.3:1": true,
		":9999": false, "0.0.0.0:1": false, "10.0.0.1:1": false, "[::]:1": false, "bad": false,
	} {
		if IsLoopback(addr) != want {
			t.Errorf("IsLoopback(%q) != %v", addr, want)
		}
	}
}

func TestEnvNamesCoverEveryScalar(t *testing.T) {
	names := strings.Join(EnvNames(), " ")
	for _, want := range []string{"OPSASSIST_NPLT", "OPSASSIST_AUTH_TOKEN", "OPSASSIST_LOG_FORMAT", "OPSASSIST_LIMITS_SHUTDOWN_TIMEOUT"} {
		if !strings.Contains(names, want) {
			t.Errorf("%s missing from %s", want, names)
		}
	}
}

// TestDocsListEveryKey keeps docs/configuration.md in step with Config.
func TestDocsListEveryKey(t *testing.T) {
	doc, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range EnvNames() {
		if !strings.Contains(string(doc), "`"+name+"`") {
			t.Errorf("docs/configuration.md does not mention %s", name)
		}
	}
}

func TestAllowHardlinks(t *testing.T) {
	if Defaults().AllowHardlinks {
		t.Fatal("hard links allowed by default")
	}
	file := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(file, []byte("allow_hardlinks: true\n"), 0o600)
	c, err := load(t, []string{"--config", file}, nil)
	if err != nil || !c.AllowHardlinks {
		t.Fatalf("from the file: %v, %v", c.AllowHardlinks, err)
	}
	c, err = load(t, nil, map[string]string{"OPSASSIST_ALLOW_HARDLINKS": "true"})
	if err != nil || !c.AllowHardlinks {
		t.Fatalf("from the environment: %v, %v", c.AllowHardlinks, err)
	}
}

// TestZeroLimits sets every limits key to 0, then to -1, in a file: 0 is
// taken as itself by the keys whose doc says what 0 does (off, or no
// uploads), refused naming the key by every other; -1 is refused by all.
func TestZeroLimits(t *testing.T) {
	zeroOK := map[string]bool{
		"max_upload": true, "rdt_rate_limit": true,
		"max_upload_bytes_per_conversation": true, "max_upload_bytes_total": true,
		"max_indexed_text_per_conversation": true, "max_indexed_text_total": true,
	}
	lt := reflect.TypeOf(Limits{})
	for i := range lt.NumField() {
		key := lt.Field(i).Tag.Get("yaml")
		for _, v := range []string{"0", "-1"} {
			file := filepath.Join(t.TempDir(), "c.yaml")
			val := v
			if lt.Field(i).Type == reflect.TypeOf(time.Duration(0)) {
				val += "s"
			}
			if err := os.WriteFile(file, []byte("limits:\n  "+key+": "+val+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := load(t, []string{"--config", file}, nil)
			switch {
			case v == "-1":
				if want := "limits." + key + ": must not be negative"; err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s: -1: err = %v, want %q", key, err, want)
				}
			case zeroOK[key]:
				if err != nil {
					t.Errorf("%s: 0: %v", key, err)
				} else if f := reflect.ValueOf(c.Limits).Field(i); !f.IsZero() {
					t.Errorf("%s: 0 became %v", key, f)
				}
			default:
				if want := "limits." + key + ": must be positive"; err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s: 0: err = %v, want %q", key, err, want)
				}
			}
		}
	}
}

// TestPermissions: the section loads from a file and the environment,
// defaults to a 120s timeout, and refuses a non-positive timeout, a
// rule without a tool and an unknown decision, naming the key.
func TestPermissions(t *testing.T) {
	c, err := load(t, nil, nil)
	if err != nil || c.Permissions.Timeout != 120*time.Second || c.Permissions.CommandsAsk != nil || c.Permissions.Rules != nil {
		t.Fatalf("defaults: %+v, %v", c.Permissions, err)
	}
	file := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(file, []byte("permissions:\n  timeout: 30s\n  commands_ask: [\"systemctl status\"]\n  rules:\n    - {tool: command_executor, command: \"systemctl status\", decision: allow}\n"), 0o600)
	c, err = load(t, []string{"--config", file}, nil)
	if err != nil || c.Permissions.Timeout != 30*time.Second || len(c.Permissions.CommandsAsk) != 1 ||
		len(c.Permissions.Rules) != 1 || c.Permissions.Rules[0].Command != "systemctl status" || c.Permissions.Rules[0].Decision != "allow" {
		t.Fatalf("from the file: %+v, %v", c.Permissions, err)
	}
	c, err = load(t, nil, map[string]string{"OPSASSIST_PERMISSIONS_TIMEOUT": "5s"})
	if err != nil || c.Permissions.Timeout != 5*time.Second {
		t.Fatalf("from the environment: %+v, %v", c.Permissions, err)
	}
	for body, want := range map[string]string{
		"permissions:\n  timeout: 0s\n":                              "permissions.timeout",
		"permissions:\n  rules:\n    - {decision: allow}\n":          "permissions.rules[0]: no tool",
		"permissions:\n  rules:\n    - {tool: x, decision: maybe}\n": `decision "maybe"`,
	} {
		os.WriteFile(file, []byte(body), 0o600)
		if _, err := load(t, []string{"--config", file}, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}

// TestSearchMinScore: the relevance floor defaults to index.DefaultMinScore
// and is set by the environment (and the file), 0 included.
func TestSearchMinScore(t *testing.T) {
	c, err := load(t, nil, nil)
	if err != nil || c.Search.MinScore != 0.11 {
		t.Fatalf("default %v %v", c.Search.MinScore, err)
	}
	for v, want := range map[string]float64{"0.3": 0.3, "0": 0} {
		c, err := load(t, nil, map[string]string{"OPSASSIST_SEARCH_MIN_SCORE": v})
		if err != nil || c.Search.MinScore != want {
			t.Errorf("%s: %v %v", v, c.Search.MinScore, err)
		}
	}
}
