package cli

import (
	"context"
	"fmt"
)

// watchIdle shows, while the REPL waits for input, what arrives outside
// any request: notices at once, and the end of the connection (the
// server's goodbye, such as "server is shutting down") when it happens
// rather than at the next command. The next command then reconnects
// quietly. The returned stop ends the watch and waits for it; the REPL
// calls it before it touches its connection again, so the watcher is
// the only goroutine using it meanwhile.
func (r *repl) watchIdle(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var connDone <-chan struct{}
	if r.conn != nil {
		connDone = r.conn.Done()
	}
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case ev := <-r.notices:
				r.idlePrint(func() {
					tr := r.renderer()
					tr.handle(ev)
					tr.endLine()
				})
			case <-connDone:
				connDone = nil
				r.idlePrint(func() {
					r.dropConn() // prints the goodbye notices
					r.info(fmt.Sprintf(r.cli.say("服务器 %s 关闭了连接；下一条命令会自动重新连接",
						"the server at %s closed the connection; your next command reconnects"), r.cfg.server))
					r.quietReconnect = true
				})
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// idlePrint runs print while the prompt is shown: on a terminal it
// clears the prompt's line first and shows the prompt again after.
func (r *repl) idlePrint(print func()) {
	if r.outTTY {
		r.printf("\r\x1b[2K")
	}
	print()
	if r.outTTY {
		r.printf("%s", replPrompt)
	}
}
