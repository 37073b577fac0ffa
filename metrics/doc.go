// Package metrics collects the daemon's operational metrics and serves
// them in the Prometheus text format. Components report through the
// small interfaces in this package (Transport, Tools, Search, RDT), so
// they never import Prometheus; Nop satisfies all of them for tests and
// for components built without metrics. Each Metrics owns its own
// prometheus.Registry: nothing is registered globally.
package metrics
