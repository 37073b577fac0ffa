package metrics

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestMetricsText(t *testing.T) {
	m := New()
	m.ConnOpened(TransportNPLT)
	m.ConnOpened(TransportNPLT)
	m.ConnClosed(TransportNPLT)
	m.ChatStarted(TransportHTTP)
	m.UploadReceived(TransportHTTP, 1234)
	m.ToolCalled("sys_monitor", StatusOK, 20*time.Millisecond)
	m.ToolCalled("command_executor", StatusDenied, time.Millisecond)
	m.SearchDone(3 * time.Millisecond)
	m.RDTDelivered(1 << 20)
	m.RDTRetransmitted(7)
	m.RDTTransferDone(1<<20, time.Second)

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	text := string(body)
	for _, want := range []string{
		`opsassist_connections_total{transport="nplt"} 2`,
		`opsassist_connections_active{transport="nplt"} 1`,
		`opsassist_chats_total{transport="http"} 1`,
		`opsassist_upload_bytes_total{transport="http"} 1234`,
		`opsassist_tool_calls_total{status="ok",tool="sys_monitor"} 1`,
		`opsassist_tool_calls_total{status="denied",tool="command_executor"} 1`,
		`opsassist_tool_duration_seconds_count{tool="sys_monitor"} 1`,
		`opsassist_search_duration_seconds_count 1`,
		`opsassist_rdt_goodput_bytes_total 1.048576e+06`,
		`opsassist_rdt_retransmits_total 7`,
		`opsassist_rdt_transfer_goodput_bytes_per_second_count 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q", want)
		}
	}
}

func TestTwoInstancesDoNotShareState(t *testing.T) {
	a, b := New(), New()
	a.ChatStarted(TransportHTTP)
	rec := httptest.NewRecorder()
	b.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if strings.Contains(rec.Body.String(), `opsassist_chats_total{transport="http"} 1`) {
		t.Fatal("b sees a's chat")
	}
}
