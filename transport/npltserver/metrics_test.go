package npltserver

import (
	"sync"
	"testing"

	"opsassist/chat"
	"opsassist/nplt"
)

// counting is an Observer that counts reports.
type counting struct {
	mu                          sync.Mutex
	opened, closed, chats, byts int64
}

func (c *counting) ConnOpened(string)  { c.mu.Lock(); c.opened++; c.mu.Unlock() }
func (c *counting) ConnClosed(string)  { c.mu.Lock(); c.closed++; c.mu.Unlock() }
func (c *counting) ChatStarted(string) { c.mu.Lock(); c.chats++; c.mu.Unlock() }
func (c *counting) UploadReceived(_ string, n int64) {
	c.mu.Lock()
	c.byts += n
	c.mu.Unlock()
}

func (c *counting) get() (opened, closed, chats, byts int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opened, c.closed, c.chats, c.byts
}

func TestMetricsReported(t *testing.T) {
	obs := &counting{}
	ts := startServer(t, "", func(sc *Config, _ *chat.Config) { sc.Metrics = obs })
	c := dial(t, ts.addr, false)
	c.send(nplt.ChatText, []byte("hello"))
	c.reply()
	c.upload("a.txt", []byte("12345"), "")
	c.nc.Close()
	waitFor(t, "connection closed", func() bool { _, closed, _, _ := obs.get(); return closed == 1 })
	if o, cl, ch, b := obs.get(); o != 1 || cl != 1 || ch != 1 || b != 5 {
		t.Fatalf("opened %d closed %d chats %d bytes %d", o, cl, ch, b)
	}
}
