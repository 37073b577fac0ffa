// Package npltserver is the NPLT transport: a TCP server that speaks the NPLT
// v2 protocol (package nplt) and adapts it to the transport-agnostic chat
// core (package chat). Each connection has one reader goroutine (decoding
// and dispatching frames), one worker goroutine (running requests in
// order and producing their replies) and one writer goroutine (the only
// one that writes to the socket), joined by bounded queues.
//
// docs/protocol/nplt.md describes the protocol this package serves.
package npltserver
