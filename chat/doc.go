// Package chat is the transport-agnostic chat core. A Session is one
// client's view of the service: its current conversation and model. It
// takes user input and emits typed Events (stream start, status, text
// delta, download offer, error, end). Transports — NPLT today, HTTP/SSE
// later — translate Events into their own wire format; none of them
// implements chat logic.
package chat
