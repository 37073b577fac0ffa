package metrics

import (
	"time"

	"opsassist/api"
)

// Transport names used as the "transport" label: api's names.
const (
	TransportNPLT = api.TransportNPLT
	TransportHTTP = api.TransportHTTP
	TransportRDT  = api.TransportRDT
)

// Tool call statuses used as the "status" label.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusDenied  = "denied"
	StatusTimeout = "timeout"
	// StatusCancelled: the call ran and its caller stopped it.
	StatusCancelled = "cancelled"
)

// Transport is reported to by the chat transports (NPLT, HTTP).
type Transport interface {
	// ConnOpened counts a client connection that was accepted.
	ConnOpened(transport string)
	// ConnClosed counts the end of a connection ConnOpened counted.
	ConnClosed(transport string)
	// ChatStarted counts one chat turn.
	ChatStarted(transport string)
	// UploadReceived adds the bytes of a committed upload.
	UploadReceived(transport string, bytes int64)
}

// Tools is reported to by the tool registry after every call.
type Tools interface {
	// ToolCalled records one finished call: its tool, status (StatusOK,
	// StatusError, StatusDenied, StatusTimeout, StatusCancelled) and
	// duration.
	ToolCalled(tool, status string, d time.Duration)
}

// Search is reported to by the retrieval layer.
type Search interface {
	// SearchDone records the latency of one search.
	SearchDone(d time.Duration)
}

// RDT is reported to by the RDT download server.
type RDT interface {
	// RDTDelivered adds payload bytes the receiver acknowledged for the
	// first time: the goodput, not counting retransmissions.
	RDTDelivered(bytes int64)
	// RDTRetransmitted adds packets sent again after a loss or timeout.
	RDTRetransmitted(packets int)
	// RDTTransferDone records one finished transfer of bytes in d, for
	// the per-transfer goodput histogram.
	RDTTransferDone(bytes int64, d time.Duration)
}

// Recorder is every report the daemon makes.
type Recorder interface {
	Transport
	Tools
	Search
	RDT
}

// Nop discards every report.
type Nop struct{}

var _ Recorder = Nop{}

// ConnOpened does nothing.
func (Nop) ConnOpened(string) {}

// ConnClosed does nothing.
func (Nop) ConnClosed(string) {}

// ChatStarted does nothing.
func (Nop) ChatStarted(string) {}

// UploadReceived does nothing.
func (Nop) UploadReceived(string, int64) {}

// ToolCalled does nothing.
func (Nop) ToolCalled(string, string, time.Duration) {}

// SearchDone does nothing.
func (Nop) SearchDone(time.Duration) {}

// RDTDelivered does nothing.
func (Nop) RDTDelivered(int64) {}

// RDTRetransmitted does nothing.
func (Nop) RDTRetransmitted(int) {}

// RDTTransferDone does nothing.
func (Nop) RDTTransferDone(int64, time.Duration) {}
