// Package testkit holds the fakes and fixtures that tests in more than
// one package share: chat agents (scripted, blocking, panicking,
// switchable), an indexer, tools (panicking, waiting) and a self-signed
// certificate. Only test files import it.
//
// It imports the chat core and the tool registry, so the internal tests
// of chat and tools (package chat, package tools) cannot import it
// without a cycle; those keep their own fakes.
package testkit
