package mcp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// TestConfiguredSecretsNeverShown: servers whose args, url, env and
// headers carry secrets fail to start (the stdio child prints its
// arguments and environment to stderr); no secret appears in any log
// entry, at any level, nor in Status.
func TestConfiguredSecretsNeverShown(t *testing.T) {
	secrets := []string{"dbpa55w0rd", "qpa55word", "argpa55w0rd", "argt0kenvalue", "envs3cretvalue", "urlpa55word", "qu3rys3cret", "h3adert0ken"}
	db := childServer(t, "db", "print-args")
	db.Args = []string{"postgres://app:dbpa55w0rd@db/prod?sslmode=require&password=qpa55word", "--password=argpa55w0rd", "--token", "argt0kenvalue", "/srv/docs"}
	db.Env["MYTOKEN"] = "envs3cretvalue"
	h := ServerConfig{Name: "h", URL: "http://u:urlpa55word@127.0.0.1:1/mcp?token=qu3rys3cret&x=plain", Headers: map[string]string{"Authorization": "Bearer h3adert0ken"}}
	core, logs := observer.New(zapcore.DebugLevel)
	ch := make(statuses, 64)
	m, err := New(Config{Servers: []ServerConfig{db, h}, Registry: newRegistryForTest(), Logger: zap.New(core), Backoff: fastBackoff(), OnChange: ch.on})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Start(context.Background())
	down := map[string]bool{}
	ch.waitFor(t, "both unavailable twice", func(st ServerStatus) bool {
		if st.State == StateUnavailable && strings.Contains(st.Reason, "next attempt") {
			down[st.Name+fmt.Sprint(st.Restarts)] = true
		}
		return down["db0"] && down["db1"] && down["h0"] && down["h1"]
	})
	m.Close()
	var shown []string
	for _, st := range m.Status() {
		shown = append(shown, st.Reason)
	}
	for _, e := range logs.All() {
		shown = append(shown, e.Message)
		for k, v := range e.ContextMap() {
			shown = append(shown, k+"="+fmt.Sprint(v))
		}
	}
	all := strings.Join(shown, "\n")
	for _, s := range secrets {
		if strings.Contains(all, s) {
			t.Errorf("%q shown:\n%s", s, all)
		}
	}
	mustContain(t, "what is shown", all, "fatal: cannot start with", "/srv/docs", "127.0.0.1:1/mcp")
}
