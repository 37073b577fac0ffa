package client

import (
	"time"

	"go.uber.org/zap"
)

// Downloader fetches offered files (Fetch): over RDT, falling back to an
// NPLT connection when UDP does not get through. The zero value is
// usable; each field's comment gives its default.
type Downloader struct {
	// Logger receives the download's logs. Default: zap.NewNop().
	Logger *zap.Logger
	// FirstPacketTimeout is how long Fetch waits for the first RDT packet
	// before falling back to NPLT. Default: rdt's, 3s.
	FirstPacketTimeout time.Duration
}

func (c *Downloader) logger() *zap.Logger {
	if c.Logger == nil {
		return zap.NewNop()
	}
	return c.Logger
}
