package client

import (
	"context"
	"crypto/tls"
	"net"
	"time"

	"opsassist/api"

	"go.uber.org/zap"
)

// Version is the client version sent in HELLO when Options.Version is empty.
const Version = "0.1.0"

// clientName is the "client" field of HELLO.
const clientName = "opsassist"

// Defaults for Options fields left at their zero value.
const (
	defaultHandshakeTimeout = 10 * time.Second
	defaultHelloTimeout     = 2 * time.Second
	defaultWriteTimeout     = 30 * time.Second
	defaultClientType       = api.ClientCLI
)

// Options configures Dial and DialRetry. The zero value is usable.
type Options struct {
	// Token is sent in HELLO to servers that require one. Default: none.
	Token string
	// SessionID, when set, asks the server to resume that conversation.
	// Default: the server starts a new conversation.
	SessionID string
	// ClientType is the HELLO client_type: api.ClientCLI, ClientDesktop or
	// ClientWeb. Default: api.ClientCLI.
	ClientType string
	// Version is the HELLO version. Default: Version.
	Version string
	// HandshakeTimeout bounds the wait for the HELLO reply and the
	// greeting. Default: 10s. A deadline on Dial's context also applies.
	HandshakeTimeout time.Duration
	// HelloTimeout bounds the wait for the first bytes of the server's
	// reply to HELLO; a peer silent that long is reported as ErrNotNPLT,
	// so a CLI pointed at the wrong port fails fast. Default: 2s. The
	// rest of the handshake is bounded by HandshakeTimeout.
	HelloTimeout time.Duration
	// WriteTimeout bounds each frame write. Default: 30s.
	WriteTimeout time.Duration
	// Backoff is DialRetry's delay schedule. Default: 200ms doubling to 5s.
	Backoff Backoff
	// OnRetry, when set, is called by DialRetry after a failed attempt,
	// before it waits delay. Default: none.
	OnRetry func(attempt int, err error, delay time.Duration)
	// OnUnsolicited, when set, receives events that arrive outside any
	// request, such as a DOWNLOAD_OFFER or an ERROR sent before the server
	// closes the connection. It is called from the Conn's reader goroutine
	// and must not block or call the Conn's methods. Default: such events
	// are logged and dropped.
	OnUnsolicited func(Event)
	// Logger receives debug logs. Default: zap.NewNop().
	Logger *zap.Logger
	// Dial opens the transport. Default: a net.Dialer's DialContext.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLS, when set, runs the connection over TLS with this
	// configuration; an empty ServerName is taken from the address.
	// Default: plain TCP.
	TLS *tls.Config
}

// populate returns o with defaults filled in.
func (o Options) populate() Options {
	if o.ClientType == "" {
		o.ClientType = defaultClientType
	}
	if o.Version == "" {
		o.Version = Version
	}
	if o.HandshakeTimeout <= 0 {
		o.HandshakeTimeout = defaultHandshakeTimeout
	}
	if o.HelloTimeout <= 0 {
		o.HelloTimeout = defaultHelloTimeout
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = defaultWriteTimeout
	}
	o.Backoff = o.Backoff.populate()
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	if o.Dial == nil {
		var d net.Dialer
		o.Dial = d.DialContext
	}
	return o
}
