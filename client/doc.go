// Package client is the opsassist client library: a connection to an
// opsassist server speaking NPLT v2 with the opsassist extensions, the
// requests it carries, and downloads of offered files. It is what the
// command line (package cli), a desktop client or a test imports; it
// links no server component, configuration or transport server.
//
// Dial opens a Conn: it connects (over TLS when Options.TLS is set),
// sends HELLO and waits for both the HELLO reply and the greeting reply,
// which it keeps (Conn.Greeting). DialRetry dials with backoff, resuming
// the conversation. Each Conn runs one reader goroutine that answers PING
// with PONG at once and hands every other frame to the request whose
// reply it belongs to. Requests (Chat, Upload, Sessions, DownloadNPLT, …)
// run one at a time; a reply ends with an empty CHAT_TEXT frame. Chat
// passes each step of the reply to an EventHandler as an Event. Frames
// that arrive outside any request go to Options.OnUnsolicited.
//
// Downloader.Fetch fetches an offered file over RDT and falls back to
// DownloadNPLT on a Conn when no RDT packet arrives; progress is reported
// through a callback, and drawing it is left to the caller.
package client
