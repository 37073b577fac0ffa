package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// countLists counts the tools/list requests srv receives.
func countLists(srv *sdk.Server) *atomic.Int32 {
	var n atomic.Int32
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" {
				n.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	return &n
}

// TestUnchangedToolListNotReRegistered: health checks that list the
// same tools leave the registry alone (no schema compilation).
func TestUnchangedToolListNotReRegistered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := sdk.NewServer(&sdk.Implementation{Name: "s", Version: "1"}, nil)
		echoTool(srv, "", nil)
		lists := countLists(srv)
		core, logs := observer.New(zapcore.DebugLevel)
		reg := newRegistryForTest()
		m, _ := New(Config{Servers: []ServerConfig{{Name: "s", Command: "x"}}, Registry: reg, Logger: zap.New(core),
			HealthInterval: 10 * time.Second, Transport: inMemory(map[string]*sdk.Server{"s": srv})})
		defer m.Close()
		m.Start(t.Context())
		time.Sleep(35 * time.Second)
		synctest.Wait()
		regs := logs.FilterMessage("mcp server tools registered").Len()
		if lists.Load() != 4 || regs != 1 {
			t.Fatalf("%d lists, %d registrations; want 4 and 1", lists.Load(), regs)
		}
		if st := m.Status()[0]; st.State != StateReady || st.Tools != 1 {
			t.Fatalf("status %+v", st)
		}
	})
}

// TestListChangedStormDebounced: a server that changes its tools every
// 15 ms is re-listed at most once a second, and the last change is
// registered.
func TestListChangedStormDebounced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := sdk.NewServer(&sdk.Implementation{Name: "s", Version: "1"}, nil)
		echoTool(srv, "", nil)
		lists := countLists(srv)
		reg := newRegistryForTest()
		m, _ := New(Config{Servers: []ServerConfig{{Name: "s", Command: "x"}}, Registry: reg,
			HealthInterval: time.Hour, Transport: inMemory(map[string]*sdk.Server{"s": srv})})
		defer m.Close()
		m.Start(t.Context())
		synctest.Wait()
		before := lists.Load()
		h := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return textResult("x"), nil }
		for i := range 200 { // 3 s
			srv.RemoveTools(fmt.Sprint("x", i-1))
			srv.AddTool(&sdk.Tool{Name: fmt.Sprint("x", i), InputSchema: json.RawMessage(`{"type":"object"}`)}, h)
			time.Sleep(15 * time.Millisecond)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if n := lists.Load() - before; n < 1 || n > 5 {
			t.Fatalf("%d re-lists in 5 s", n)
		}
		if names := strings.Join(reg.Names(), ","); !strings.Contains(names, "mcp__s__x199") || strings.Contains(names, "mcp__s__x198") {
			t.Fatalf("registry after the storm: %s", names)
		}
	})
}

func TestServerSchemaBytesCapped(t *testing.T) {
	s := &server{cfg: ServerConfig{Name: "s"}, m: &Manager{cfg: Config{Registry: newRegistryForTest()}}}
	schema := json.RawMessage(`{"type":"object","description":"` + strings.Repeat("d", 60<<10) + `"}`)
	var list []*sdk.Tool
	for i := range 30 {
		list = append(list, &sdk.Tool{Name: fmt.Sprintf("t%02d", i), InputSchema: schema})
	}
	ts, skipped := buildTools(s, list)
	total := 0
	for _, tl := range ts {
		total += len(tl.Spec().Parameters)
	}
	if total > MaxServerSchemaBytes || len(ts) == 0 || len(ts)+len(skipped) != 30 || !strings.Contains(skipped[0], "in all") {
		t.Fatalf("%d tools, %d schema bytes; skipped %d: %.100s", len(ts), total, len(skipped), skipped)
	}
}
