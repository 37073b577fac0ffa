package mcpstdio

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// TestBadLinesCostOnlyThemselves: a line that is not JSON, one that is
// JSON but not a message, one over the limit and blank lines are dropped
// and logged; the requests around them are answered; the end of the
// input ends the session.
func TestBadLinesCostOnlyThemselves(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo " + string(req.Params.Arguments)}}}, nil
		})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	core, logs := observer.New(zap.WarnLevel)
	served := make(chan error, 1)
	go func() {
		served <- s.Run(context.Background(), &Transport{In: inR, Out: outW, MaxLine: 256, Logger: zap.New(core)})
	}()
	go func() {
		for _, l := range []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`this is not json`,
			`"a json string"`,
			``,
			`   `,
			`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"x":"` + strings.Repeat("y", 300) + `"}}}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"x":1}}}`,
		} {
			io.WriteString(inW, l+"\n")
		}
		io.WriteString(inW, `{"jsonrpc":"2.0","id":3,"method":"ping"}`+"\n")
	}()
	var got []string
	sc := bufio.NewScanner(outR)
	for len(got) < 3 && sc.Scan() { // calls run concurrently: 2 and 3 in either order
		got = append(got, sc.Text())
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-served; err != nil {
		t.Errorf("Run: %v, want nil at the end of the input", err)
	}
	all := strings.Join(got, "\n")
	if len(got) != 3 || !strings.Contains(got[0], `"id":1`) || !strings.Contains(all, `"id":2`) || !strings.Contains(all, `echo {\"x\":1}`) || !strings.Contains(all, `"id":3`) {
		t.Fatalf("answers:\n%s", all)
	}
	if strings.Contains(all, `"id":9`) {
		t.Errorf("the oversized request was answered:\n%s", all)
	}
	if n := logs.FilterMessage("dropped an input line that is not a JSON-RPC message").Len(); n != 2 {
		t.Errorf("%d non-message warnings, want 2", n)
	}
	if n := logs.FilterMessage("dropped an input line longer than the limit").Len(); n != 1 {
		t.Errorf("%d oversized warnings, want 1", n)
	}
}

// TestFilterLastLineWithoutNewline: the input's last line counts without
// its newline; a JSON array (a batch) passes.
func TestFilterLastLineWithoutNewline(t *testing.T) {
	var out strings.Builder
	in := "[{\"jsonrpc\":\"2.0\",\"method\":\"a\"}]\n{\"jsonrpc\":\"2.0\",\"method\":\"b\"}"
	if err := filter(strings.NewReader(in), &out, 100, zap.NewNop()); err != nil {
		t.Fatal(err)
	}
	if want := in + "\n"; out.String() != want {
		t.Fatalf("%q, want %q", out.String(), want)
	}
}

// TestFilterLongLines: lines longer than the read buffer pass whole
// under the limit and are dropped whole over it.
func TestFilterLongLines(t *testing.T) {
	ok := `{"x":"` + strings.Repeat("a", 150<<10) + `"}`
	long := `{"x":"` + strings.Repeat("b", 300<<10) + `"}`
	next := `{"jsonrpc":"2.0","method":"next"}`
	var out strings.Builder
	if err := filter(strings.NewReader(ok+"\n"+long+"\n"+next+"\n"), &out, 200<<10, zap.NewNop()); err != nil {
		t.Fatal(err)
	}
	if want := ok + "\n" + next + "\n"; out.String() != want {
		t.Fatalf("got %d bytes, want %d (the long line dropped, the others whole)", out.Len(), len(want))
	}
}
