// Package api owns the names the opsassist protocols share, so that each
// is written once: the error codes every transport sends (NPLT ERROR
// frames, HTTP error bodies and SSE error events, the names of RDT ERROR
// packets' codes), the status and event type names of a chat reply, the
// transport modes of a download offer, the client types of HELLO, the
// download offer itself, and Text, a message for the user in Chinese and
// English that each client shows in its user's language.
//
// The chat core, the transports, the tools and the client all read these
// names from here. The package imports nothing of the module, so every
// package can import it. docs/protocol/{nplt,http,rdt}.md list each code
// with when it is sent; a test keeps those tables and this package equal.
package api
