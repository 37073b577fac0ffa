// Package mcpstdio is the MCP stdio transport of `opsassistd mcp-stdio`:
// newline-delimited JSON-RPC on stdin and stdout, like the SDK's
// mcp.StdioTransport, except that a bad input line costs that line, not
// the session. The SDK's reader ends the session on the first line it
// cannot decode or that is too long; here such a line is dropped with a
// warning on the log (stderr) and the next one is read.
package mcpstdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// DefaultMaxLine is Transport.MaxLine's default, the SDK's own bound.
const DefaultMaxLine = mcp.DefaultMaxLineLength

// Transport connects an MCP peer over In and Out. Connect is called once.
type Transport struct {
	// In is read line by line (os.Stdin). Required.
	In io.Reader
	// Out receives the messages, one per line (os.Stdout); it is not
	// closed. Required.
	Out io.Writer
	// MaxLine bounds one input line; a longer one is dropped. Default
	// DefaultMaxLine.
	MaxLine int
	// Logger receives a warning per dropped line (never its content).
	// Default zap.NewNop().
	Logger *zap.Logger
}

var _ mcp.Transport = (*Transport)(nil)

// Connect starts the goroutine that filters In and returns the
// connection. The goroutine ends when In ends or fails, or at the first
// line after the connection was closed.
func (t *Transport) Connect(ctx context.Context) (mcp.Connection, error) {
	if t.In == nil || t.Out == nil {
		return nil, errors.New("mcpstdio: no input or output")
	}
	max := t.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	log := t.Logger
	if log == nil {
		log = zap.NewNop()
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(filter(t.In, pw, max, log)) }()
	return (&mcp.IOTransport{Reader: pr, Writer: nopCloser{t.Out}, MaxLineLength: max + 1}).Connect(ctx)
}

// filter copies the lines of in that are JSON objects or arrays of at
// most max bytes to out, and drops the others. It returns nil at the end
// of in.
func filter(in io.Reader, out io.Writer, max int, log *zap.Logger) error {
	r := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	tooLong := false
	for {
		frag, err := r.ReadSlice('\n')
		if len(frag) > 0 && !tooLong {
			if len(line)+len(frag) > max+1 { // +1: the newline
				tooLong, line = true, line[:0]
			} else {
				line = append(line, frag...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		end := err != nil
		switch {
		case tooLong:
			log.Warn("dropped an input line longer than the limit", zap.Int("max_bytes", max))
		case len(bytes.TrimSpace(line)) == 0:
		case !isMessage(line):
			log.Warn("dropped an input line that is not a JSON-RPC message", zap.Int("bytes", len(line)))
		default:
			if line[len(line)-1] != '\n' {
				line = append(line, '\n')
			}
			if _, werr := out.Write(line); werr != nil {
				return werr
			}
		}
		line, tooLong = line[:0], false
		if end {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// isMessage reports whether line is a JSON object or array, as a
// JSON-RPC message or batch is.
func isMessage(line []byte) bool {
	b := bytes.TrimSpace(line)
	return len(b) > 0 && (b[0] == '{' || b[0] == '[') && json.Valid(b)
}

// nopCloser keeps the connection's Close from closing Out.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
