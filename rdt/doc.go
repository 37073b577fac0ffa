// Package rdt is opsassist's reliable download transport over UDP: a
// server that sends files named by download tokens, and a client that
// fetches them into place, resumably.
//
// The wire format and state machines are specified in
// docs/protocol/rdt.md. In short: every packet starts with the magic "RD",
// a version byte, a type byte and a 64-bit connection id, and ends with a
// CRC32C over everything before it. A client sends REQUEST (token, the
// byte ranges it already holds, its receive window); the server answers
// with RETRY carrying a cookie no larger than the request (no
// amplification before the client proves its address), the client
// repeats the REQUEST with the cookie, and the server streams DATA
// packets (32-bit packet numbers, 64-bit file offsets) and a FIN carrying
// the file's size and SHA-256. The client acknowledges with ACK packets
// carrying SACK ranges and its flow-control limit; lost packets are
// detected by packet and time thresholds (RFC 9002) and a probe timeout
// covers tail loss. Congestion control estimates the bottleneck rate from
// delivery rate samples (BBR-style) and paces packets, so random loss does
// not collapse the rate, while RTT growth together with heavy loss backs
// it off.
//
// The API, stable for callers such as the benchmark:
//
//	func NewServer(cfg ServerConfig) (*Server, error)
//	func (s *Server) Serve(pc net.PacketConn) error // returns ErrServerClosed after Shutdown/Close
//	func (s *Server) Shutdown(ctx context.Context) error
//	func (s *Server) Close() error
//	func (s *Server) Stats() ServerStats
//
//	func Download(ctx context.Context, cfg ClientConfig) (Stats, error)
//
// ServerConfig.Tokens is usually a *tokens.Store (the one file_download
// issues tokens into). ServerConfig.OnTransfer, if set, receives every
// finished transfer's TransferStats. ClientConfig names the server
// address, the token and the destination path; Download writes
// PATH.part and PATH.part.rdt (the record of received ranges) while it
// works, and renames PATH.part to PATH only after the SHA-256 matched.
// Running Download again after an interruption resumes from the record.
// If no RDT packet arrives within ClientConfig.FirstPacketTimeout
// (default 3 s), Download returns an error matching ErrNoResponse so the
// caller can fall back to another transport.
package rdt
