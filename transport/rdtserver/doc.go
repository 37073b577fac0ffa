// Package rdtserver is the RDT transport's server: it sends the files
// named by download tokens over UDP to opsassist/rdt clients. It is one
// transport adapter beside the NPLT and HTTP servers and imports none of
// them.
//
// The wire format is opsassist/rdt's (docs/protocol/rdt.md). A REQUEST
// without a valid cookie gets a RETRY no larger than itself (cookie.go);
// a validated one redeems its token (storage/tokens: known, live, the
// very file it was issued for) and starts a transfer (transfer.go) on its
// own goroutine, which drives a sender (sender.go): a state machine with
// every time passed in, selective repeat with SACK, RFC 9002 loss
// detection and a probe timeout, RTT estimation (rtt.go) and BBR-style
// congestion control (bbr.go behind the interface in cc.go), so random
// loss does not collapse the rate while RTT growth together with heavy
// loss backs it off.
//
// The API:
//
//	func NewServer(cfg ServerConfig) (*Server, error)
//	func (s *Server) Serve(pc net.PacketConn) error // returns ErrServerClosed after Shutdown/Close
//	func (s *Server) Shutdown(ctx context.Context) error
//	func (s *Server) Close() error
//	func (s *Server) Stats() ServerStats
//
// ServerConfig.Tokens is usually a *tokens.Store (the one file_download
// issues tokens into). ServerConfig.OnTransfer, if set, receives every
// finished transfer's TransferStats.
package rdtserver
