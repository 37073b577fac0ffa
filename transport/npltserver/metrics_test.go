package npltserver

import (
	"testing"

	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/nplt"
)

func TestMetricsReported(t *testing.T) {
	obs := &testkit.Counting{}
	ts := startServer(t, "", func(sc *Config, _ *chat.Config) { sc.Metrics = obs })
	c := dial(t, ts.addr, false)
	c.send(nplt.ChatText, []byte("hello"))
	c.reply()
	c.upload("a.txt", []byte("12345"), "")
	c.nc.Close()
	waitFor(t, "connection closed", func() bool { _, closed, _, _ := obs.Counts(); return closed == 1 })
	if o, cl, ch, b := obs.Counts(); o != 1 || cl != 1 || ch != 1 || b != 5 {
		t.Fatalf("opened %d closed %d chats %d bytes %d", o, cl, ch, b)
	}
}
