package testkit

import "sync"

// Counting is a transport Observer (the NPLT server's and the HTTP
// API's) that counts what it is told, whatever the transport: connections
// opened and closed, chats started, upload bytes received. It is safe
// for concurrent use.
type Counting struct {
	mu                           sync.Mutex
	opened, closed, chats, bytes int64
}

// ConnOpened counts an opened connection.
func (c *Counting) ConnOpened(string) { c.mu.Lock(); c.opened++; c.mu.Unlock() }

// ConnClosed counts a closed connection.
func (c *Counting) ConnClosed(string) { c.mu.Lock(); c.closed++; c.mu.Unlock() }

// ChatStarted counts a chat turn.
func (c *Counting) ChatStarted(string) { c.mu.Lock(); c.chats++; c.mu.Unlock() }

// UploadReceived adds an upload's bytes.
func (c *Counting) UploadReceived(_ string, n int64) {
	c.mu.Lock()
	c.bytes += n
	c.mu.Unlock()
}

// Counts returns the counts so far.
func (c *Counting) Counts() (opened, closed, chats, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opened, c.closed, c.chats, c.bytes
}
