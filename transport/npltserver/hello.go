package npltserver

import (
	"context"

	"go.uber.org/zap"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/nplt"
)

// handleHello records the client's identity and switches the connection
// to extension frames. The token, when one is required, was checked by
// authenticate before this runs.
func (c *conn) handleHello(f nplt.Frame) {
	var h nplt.HelloPayload
	if err := unmarshalStrict(f.Payload, &h); err != nil {
		c.enqueueError(api.CodeBadJSON, "HELLO wants JSON {client, version, client_type}: "+err.Error())
		return
	}
	switch h.ClientType {
	case api.ClientCLI, api.ClientDesktop, api.ClientWeb:
		c.sess.SetClientType(h.ClientType)
	case "":
	default:
		c.enqueueError(api.CodeBadRequest, "client_type must be cli, desktop or web; keeping "+c.sess.ClientType())
	}
	c.ext.Store(true)
	c.sess.SetIndexNotify(c.notifyIndexed)
	c.log.Debug("hello", zap.String("client", h.Client), zap.String("version", h.Version), zap.String("client_type", h.ClientType))
	resume := h.SessionID
	c.enqueue(func(context.Context) {
		if resume != "" {
			if _, err := c.sess.Switch(resume); err != nil {
				c.replyError(chatError(err))
			}
		}
		c.sendJSON(nplt.Hello, nplt.HelloReply{
			Server: "opsassist", Version: c.srv.cfg.Version, SessionID: c.sess.ID(), Model: c.sess.Model(),
			MaxUpload: c.srv.cfg.Chat.MaxUpload(), Features: []string{"ping", "upload_progress", "result", "error", "upload_indexed", nplt.FeatureCancel, nplt.FeatureTools, nplt.FeatureRename, nplt.FeatureSessionSearch, nplt.FeatureExport, nplt.FeatureSessionPaging, nplt.FeaturePermissionReason},
			RDTAddr: c.srv.cfg.RDTAddr,
		})
	})
}

// helloToken returns the principal the token of a HELLO payload
// authenticates (access.Directory.Authenticate: constant time over
// every user). guessed reports whether the payload carried a token at
// all: a HELLO without one (a client that forgot --token) is refused but
// is no guess, as an HTTP request without credentials is none.
func (c *conn) helloToken(p []byte) (who chat.Principal, ok, guessed bool) {
	var h nplt.HelloPayload
	if unmarshalStrict(p, &h) != nil || h.Token == "" {
		return chat.Principal{}, false, false
	}
	who, ok = c.srv.cfg.Users.Authenticate(h.Token)
	return who, ok, true
}

// heartbeat keeps an idle connection alive: PING for HELLO clients, the
// published CHAT_TEXT "HEARTBEAT" for the rest.
func (c *conn) heartbeat() {
	if c.ext.Load() {
		c.trySend(nplt.Ping, []byte("hb"))
		return
	}
	c.trySend(nplt.ChatText, []byte(nplt.HeartbeatText))
}

// maxPing bounds the PING payload the server echoes.
const maxPing = 64

// handlePing answers a PING at once with the same payload.
func (c *conn) handlePing(f nplt.Frame) {
	p := f.Payload
	if len(p) > maxPing {
		p = p[:maxPing]
	}
	c.trySend(nplt.Pong, append([]byte(nil), p...))
}

// handleClientUDPPort records the client's UDP port for RDT downloads.
func (c *conn) handleClientUDPPort(f nplt.Frame) bool {
	port, err := portFromPayload(f.Payload)
	if err != nil {
		return c.enqueueError(api.CodeBadRequest, "CLIENT_UDP_PORT: "+err.Error())
	}
	c.udpPort.Store(int32(port))
	return true
}
