// Package testkit holds the fakes and fixtures that tests in more than
// one package share: chat agents (Scripted, Blocking, Panicking,
// Switchable), a chat.Responder that records (Recorder), indexers
// (InstantIndexer, FailingIndexer, IndexFunc), tools (PanicTool,
// WaitTool), a transport Observer (Counting) and a self-signed
// certificate. Only test files import it.
//
// It imports the chat core, the tool registry and history, and nothing
// above them: package agent's own tests use it, so it must not import
// agent (planner fakes stay with their tests). Tests inside package chat
// or package tools cannot import it without a cycle; chat's tests are an
// external package (chat_test) for that reason, and tools' keep their
// own fakes.
package testkit
