// Package rdt is opsassist's reliable download transport over UDP: the
// wire codec both sides speak, and the client that fetches a file into
// place, resumably. The server that sends files is
// opsassist/transport/rdtserver.
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
// carrying SACK ranges and its flow-control limit.
//
// The API, stable for callers such as the benchmark:
//
//	func (p *Packet) Append(b []byte) ([]byte, error)
//	func Parse(b []byte) (Packet, error)
//	func Download(ctx context.Context, cfg ClientConfig) (Stats, error)
//
// ClientConfig names the server address, the token and the destination
// path; Download writes PATH.part and PATH.part.rdt (the record of
// received ranges) while it works, and renames PATH.part to PATH only
// after the SHA-256 matched (opsassist/internal/partfile). Running
// Download again after an interruption resumes from the record. If no
// RDT packet arrives within ClientConfig.FirstPacketTimeout (default
// 3 s), Download returns an error matching ErrNoResponse so the caller
// can fall back to another transport.
//
// The client's files follow its jobs: client.go (configuration and the
// entry point), socket.go (the socket and its reader goroutine),
// fetch.go (the protocol state machine, driven with explicit times like
// the server's sender, so tests run it on a fake clock), loop.go (the
// owner loop: timer, datagrams, cancellation; tested in a synctest
// bubble), receiver.go (which bytes and packet numbers arrived, when to
// acknowledge) and progress.go (progress reports and the rate meter).
// The partial file, its resume record and the hash are
// opsassist/internal/partfile's.
package rdt
