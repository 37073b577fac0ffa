// Package nplt implements the NPLT v2 wire format: a 5-byte header
// (Type u8 | Seq u16 BE | Len u16 BE) followed by at most 65535 bytes of
// payload.
//
// The package is a pure codec. Frame.Append and Parse work on byte slices;
// Reader and Writer stream frames over an io.Reader and io.Writer. There are
// no goroutines, network connections or logging here (Writer uses
// net.Buffers only for vectored writes); the NPLT server
// (transport/npltserver) and the client (package client) own those.
//
// Type codes 0x01–0x18 are the published NPLT v2 codes and keep their
// published meanings. Codes from 0x20 up are opsassist extensions; a server
// sends them only to a client that announced itself with a HELLO frame, so
// published clients never see a type they do not know. The full protocol,
// with payload formats, state machines and hex examples, is described in
// docs/protocol/nplt.md.
package nplt
