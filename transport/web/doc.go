// Package web is opsassist's HTTP transport: a JSON API with server-sent
// events for chat, multipart uploads, ranged downloads against the tokens
// file_download issues, Prometheus metrics, and the embedded web client
// served at "/". Like the NPLT server it is an adapter over the chat core
// (package chat): it turns requests into Session calls and chat Events
// into SSE events, and implements no chat logic of its own.
//
// Web clients have no connection to hang a session on, so conversations
// are addressed by session_id; the Server keeps a bounded cache of the
// chat.Sessions it has opened, one per conversation, so a model choice or
// a new, still empty conversation survives between requests.
package web
