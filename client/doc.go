// Package client is the opsassist client: a connection to an opsassist
// server speaking NPLT v2 with the opsassist extensions, and the command
// line built on it.
//
// Dial opens a Conn: it connects, sends HELLO and waits for both the HELLO
// reply and the greeting reply, which it keeps (Conn.Greeting). Each Conn
// runs one reader goroutine that answers PING with PONG at once and hands
// every other frame to the request whose reply it belongs to. Requests
// (Chat, Upload, Sessions, …) run one at a time; a reply ends with an empty
// CHAT_TEXT frame. Frames that arrive outside any request go to
// Options.OnUnsolicited.
//
// CLI runs the opsassist command: an interactive REPL, the one-shot "ask"
// and "upload" subcommands, and their rendering. It writes only to the
// io.Writers it is given, so tests can drive it in-process.
package client
