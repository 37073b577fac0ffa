package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes every metric name.
const Namespace = "opsassist"

// Metrics is the Prometheus-backed Recorder. Its methods are safe for
// concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	conns       *prometheus.CounterVec
	active      *prometheus.GaugeVec
	chats       *prometheus.CounterVec
	uploadBytes *prometheus.CounterVec
	toolCalls   *prometheus.CounterVec
	toolLatency *prometheus.HistogramVec
	search      prometheus.Histogram
	rdtBytes    prometheus.Counter
	rdtRetrans  prometheus.Counter
	rdtGoodput  prometheus.Histogram
}

var _ Recorder = (*Metrics)(nil)

// New returns Metrics on a fresh registry, with the Go runtime and
// process collectors.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		conns: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "connections_total",
			Help: "Client connections accepted, by transport."}, []string{"transport"}),
		active: prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: Namespace, Name: "connections_active",
			Help: "Client connections open now, by transport."}, []string{"transport"}),
		chats: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "chats_total",
			Help: "Chat turns started, by transport."}, []string{"transport"}),
		uploadBytes: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "upload_bytes_total",
			Help: "Bytes of committed uploads, by transport."}, []string{"transport"}),
		toolCalls: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "tool_calls_total",
			Help: "Tool calls, by tool and status (ok, error, denied, timeout)."}, []string{"tool", "status"}),
		toolLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "tool_duration_seconds",
			Help:    "Tool call latency, by tool.",
			Buckets: []float64{.001, .005, .01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}}, []string{"tool"}),
		search: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "search_duration_seconds",
			Help:    "Semantic search latency.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1}}),
		rdtBytes: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "rdt_goodput_bytes_total",
			Help: "RDT payload bytes delivered to receivers, retransmissions not counted."}),
		rdtRetrans: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "rdt_retransmits_total",
			Help: "RDT packets retransmitted."}),
		rdtGoodput: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "rdt_transfer_goodput_bytes_per_second",
			Help:    "Goodput of finished RDT transfers.",
			Buckets: prometheus.ExponentialBuckets(64<<10, 4, 9)}), // 64 KiB/s … 4 GiB/s
	}
	m.reg.MustRegister(m.conns, m.active, m.chats, m.uploadBytes, m.toolCalls, m.toolLatency,
		m.search, m.rdtBytes, m.rdtRetrans, m.rdtGoodput,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Registry returns the registry the metrics live in.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// ConnOpened counts an accepted connection.
func (m *Metrics) ConnOpened(transport string) {
	m.conns.WithLabelValues(transport).Inc()
	m.active.WithLabelValues(transport).Inc()
}

// ConnClosed counts a closed connection.
func (m *Metrics) ConnClosed(transport string) { m.active.WithLabelValues(transport).Dec() }

// ChatStarted counts a chat turn.
func (m *Metrics) ChatStarted(transport string) { m.chats.WithLabelValues(transport).Inc() }

// UploadReceived adds upload bytes.
func (m *Metrics) UploadReceived(transport string, bytes int64) {
	m.uploadBytes.WithLabelValues(transport).Add(float64(bytes))
}

// ToolCalled records a tool call.
func (m *Metrics) ToolCalled(tool, status string, d time.Duration) {
	m.toolCalls.WithLabelValues(tool, status).Inc()
	m.toolLatency.WithLabelValues(tool).Observe(d.Seconds())
}

// SearchDone records a search's latency.
func (m *Metrics) SearchDone(d time.Duration) { m.search.Observe(d.Seconds()) }

// RDTDelivered adds delivered RDT payload bytes.
func (m *Metrics) RDTDelivered(bytes int64) { m.rdtBytes.Add(float64(bytes)) }

// RDTRetransmitted adds retransmitted RDT packets.
func (m *Metrics) RDTRetransmitted(packets int) { m.rdtRetrans.Add(float64(packets)) }

// RDTTransferDone records one transfer's goodput.
func (m *Metrics) RDTTransferDone(bytes int64, d time.Duration) {
	if d <= 0 {
		return
	}
	m.rdtGoodput.Observe(float64(bytes) / d.Seconds())
}
