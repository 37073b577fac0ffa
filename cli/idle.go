package cli

import (
	"context"
	"fmt"

	"opsassist/api"
	"opsassist/client"
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
				if isShutdown(ev) {
					// Said with the connection's end: not an error.
					r.shuttingDown = true
					continue
				}
				r.idlePrint(func() {
					tr := r.renderer()
					tr.handle(ev)
					tr.endLine()
				})
			case <-connDone:
				connDone = nil
				r.idlePrint(func() {
					r.dropConn() // prints the goodbye notices, but a shutdown
					if r.shuttingDown {
						r.info(fmt.Sprintf(r.cli.say("服务器 %s 正在关闭；下一条命令会自动重新连接",
							"the server at %s is shutting down; your next command reconnects"), r.cfg.server))
					} else {
						r.info(fmt.Sprintf(r.cli.say("服务器 %s 关闭了连接；下一条命令会自动重新连接",
							"the server at %s closed the connection; your next command reconnects"), r.cfg.server))
					}
					r.shuttingDown = false
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

// isShutdown reports whether ev is the server's goodbye as it shuts
// down (an ERROR shutting_down): no error of the user's, said as
// information when the connection ends.
func isShutdown(ev client.Event) bool {
	return ev.Type == client.EventError && ev.Error != nil && ev.Error.Code == api.CodeShuttingDown
}

// redrawer is a line reader that can draw its prompt and the line typed
// so far again after output printed over them (linerReader on a Unix
// terminal).
type redrawer interface {
	redraw()
	redraws() bool
}

// idlePrint runs print while the prompt is shown: on a terminal it
// clears the prompt's line first, so the output is printed above the
// prompt, then has the line editor draw the prompt and the typed text
// again — or prints the prompt itself when the editor cannot, as on a
// terminal that reports no size (liner then ignores the redraw, and
// the walk-through's notice was left where the prompt had been, with
// no prompt after it).
func (r *repl) idlePrint(print func()) {
	if r.outTTY {
		r.printf("\r\x1b[2K")
	}
	print()
	if !r.outTTY {
		return
	}
	if rd, ok := r.lines.(redrawer); ok && rd.redraws() && r.termWidth() > 0 {
		rd.redraw()
		return
	}
	r.printf("%s", replPrompt)
}
