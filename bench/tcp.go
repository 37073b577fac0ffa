package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"
)

// RunTCP downloads f over one plain TCP connection on loopback, with no
// relay (netimpair only carries UDP): the baseline without a bottleneck.
func RunTCP(ctx context.Context, f File, dir string) (Result, error) {
	res := Result{Transport: "tcp", Bytes: f.Size}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return res, err
	}
	defer ln.Close()
	srvErr := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			srvErr <- err
			return
		}
		defer c.Close()
		file, err := os.Open(f.Path)
		if err != nil {
			srvErr <- err
			return
		}
		defer file.Close()
		_, err = io.Copy(c, file)
		srvErr <- err
	}()

	out, err := createHashing(filepath.Join(dir, "tcp.out"))
	if err != nil {
		return res, err
	}
	defer os.Remove(out.f.Name())
	start := time.Now()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", ln.Addr().String())
	if err != nil {
		out.f.Close()
		return res, err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	n, err := io.Copy(out, c)
	if err != nil {
		out.f.Close()
		return res, fmt.Errorf("tcp read after %d bytes: %w", n, err)
	}
	if err := out.finish(f.SHA256); err != nil {
		return res, err
	}
	res.Elapsed = time.Since(start)
	if err := <-srvErr; err != nil {
		return res, fmt.Errorf("tcp server: %w", err)
	}
	if n != f.Size {
		return res, errors.New("tcp: short file")
	}
	return res, nil
}
