// Package chat is the transport-agnostic chat core. A Session is one
// client's view of the service: its current conversation and model. It
// takes user input and emits typed Events (stream start, status, text
// delta, download offer, error, end). Transports — the NPLT server
// (transport/npltserver) and the HTTP API with SSE (transport/web) —
// translate Events into their own wire format; none of them implements
// chat logic, and this package imports no transport.
package chat
