package bench

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"
)

const quicALPN = "opsassist-bench"

// selfSignedTLS returns a server TLS config with a fresh self-signed
// ECDSA certificate for 127.0.0.1.
func selfSignedTLS() (*tls.Config, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "bench"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	return &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}},
		NextProtos:   []string{quicALPN},
	}, nil
}

// RunQUIC downloads f with quic-go: the server sends the file on the
// one stream the client opens, the client writes it to dir and checks
// its SHA-256. link, if not nil, puts a relay in between. quic-go logs
// a warning when the kernel grants smaller socket buffers than it asks
// for; set QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING=true to silence it.
func RunQUIC(ctx context.Context, f File, dir string, link *Link) (Result, error) {
	ln, err := listenQUIC()
	if err != nil {
		return Result{}, err
	}
	defer ln.Close()
	addr, relay, err := startRelay(link, ln.Addr().String())
	if err != nil {
		return Result{}, err
	}
	if relay != nil {
		defer relay.Close()
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srvErr := make(chan error, 1)
	go func() { srvErr <- serveQUIC(ctx, ln, f.Path, 1) }()

	res, err := fetchQUIC(ctx, addr, f, filepath.Join(dir, "quic.out"), nil)
	// The client has the whole file or failed: stop the server, which
	// may still wait for a connection close lost on the link.
	cancel()
	if serr := <-srvErr; err == nil && serr != nil && !errors.Is(serr, context.Canceled) {
		err = fmt.Errorf("quic server: %w", serr)
	}
	if err != nil {
		return res, err
	}
	if relay != nil {
		res.Relay = relay.Stats()
	}
	return res, nil
}

// listenQUIC listens on a loopback port with a fresh certificate.
func listenQUIC() (*quic.Listener, error) {
	tlsConf, err := selfSignedTLS()
	if err != nil {
		return nil, err
	}
	return quic.ListenAddr("127.0.0.1:0", tlsConf, &quic.Config{MaxIdleTimeout: 30 * time.Second})
}

// serveQUIC serves n connections, each on its own goroutine, and returns
// the first error once all are over.
func serveQUIC(ctx context.Context, ln *quic.Listener, path string, n int) error {
	errs := make(chan error, n)
	for range n {
		conn, err := ln.Accept(ctx)
		if err != nil {
			return err
		}
		go func() { errs <- serveQUICConn(ctx, conn, path) }()
	}
	var first error
	for range n {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// serveQUICConn waits for the client's stream and its one-byte request,
// sends the file and closes the stream, then waits for the client to
// close the connection or ctx to end.
func serveQUICConn(ctx context.Context, conn *quic.Conn, path string) error {
	str, err := conn.AcceptStream(ctx)
	if err != nil {
		return err
	}
	var req [1]byte
	if _, err := io.ReadFull(str, req[:]); err != nil {
		return err
	}
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	if _, err := io.Copy(str, file); err != nil {
		return err
	}
	if err := str.Close(); err != nil {
		return err
	}
	select {
	case <-conn.Context().Done():
	case <-ctx.Done():
	}
	return nil
}

// countingWriter counts what passes through it.
type countingWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n.Add(int64(n))
	return n, err
}

// fetchQUIC downloads f from addr into dst, checks and removes it;
// received, if not nil, counts the bytes as they arrive.
func fetchQUIC(ctx context.Context, addr string, f File, dst string, received *atomic.Int64) (Result, error) {
	res := Result{Transport: "quic-go", Bytes: f.Size}
	out, err := createHashing(dst)
	if err != nil {
		return res, err
	}
	defer os.Remove(out.f.Name())
	start := time.Now()
	conn, err := quic.DialAddr(ctx, addr, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{quicALPN}},
		&quic.Config{MaxIdleTimeout: 30 * time.Second})
	if err != nil {
		out.f.Close()
		return res, fmt.Errorf("quic dial: %w", err)
	}
	defer conn.CloseWithError(0, "")
	str, err := conn.OpenStreamSync(ctx)
	if err != nil {
		out.f.Close()
		return res, err
	}
	if _, err := str.Write([]byte{1}); err != nil {
		out.f.Close()
		return res, err
	}
	var w io.Writer = out
	if received != nil {
		w = countingWriter{w: out, n: received}
	}
	n, err := io.Copy(w, str)
	if err != nil {
		out.f.Close()
		return res, fmt.Errorf("quic read after %d bytes: %w", n, err)
	}
	if err := out.finish(f.SHA256); err != nil {
		return res, err
	}
	res.Elapsed = time.Since(start)
	if n != f.Size {
		return res, errors.New("quic: short file")
	}
	_ = conn.CloseWithError(0, "done")
	return res, nil
}
