package client

import (
	"crypto/tls"
	"net"
)

// tlsClient wraps nc in a TLS client for addr. The handshake runs on the
// first read or write.
func tlsClient(nc net.Conn, addr string, conf *tls.Config) net.Conn {
	conf = conf.Clone()
	if conf.ServerName == "" {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr
		}
		conf.ServerName = host
	}
	return tls.Client(nc, conf)
}
