package server

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"

	"opsassist/agent"
	"opsassist/agent/builtin"
	"opsassist/nplt"
	"opsassist/server/chat"
	"opsassist/tools/toolset"
)

// withRealAgent serves the builtin planner over the real five tools,
// working in a temporary workspace, with quiet logs (a fuzz target may
// not log through the F it was built with).
func withRealAgent(tb testing.TB) serverOpt {
	ws := tb.TempDir()
	set, err := toolset.New(toolset.Config{Workspace: ws, Roots: []string{ws}, UploadsDir: tb.TempDir(), RDTAddr: "127.0.0.1:1", HTTPBase: "http://127.0.0.1:1"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { set.Close() })
	// The planner reads whole messages, past its default cap, so long
	// arguments reach the tools.
	p := builtin.New(builtin.Config{MaxInput: chat.MaxMessage})
	ag, err := agent.New(agent.Config{Planners: map[string]agent.Planner{"builtin": p}, Tools: set.Registry})
	if err != nil {
		tb.Fatal(err)
	}
	return func(sc *Config, cc *chat.Config) {
		cc.Agent = ag
		sc.Logger, cc.Logger = zap.NewNop(), zap.NewNop()
	}
}

// clientTypes are the frame types a client may send; a fuzzed type byte
// picks one, or past the list, is sent as it is (unknown types).
var clientTypes = []nplt.Type{nplt.ChatText, nplt.FileData, nplt.FileMetadata, nplt.ModelSwitch, nplt.HistoryRequest,
	nplt.ClearRequest, nplt.SessionList, nplt.SessionSwitch, nplt.SessionNew, nplt.SessionDelete, nplt.ClientUDPPort,
	nplt.Hello, nplt.Ping, nplt.Pong, nplt.FileRequest, nplt.PermissionResponse}

// FuzzChatTurn drives whole chat turns through the real session, the
// builtin planner and the real tools: text of any length up to just over
// the 64 KiB limit, straight into a Session (exactly one End, never an
// internal error, which is what a recovered panic becomes), then random
// NPLT frames (any type, payloads up to the frame limit, or raw garbage)
// over a real connection; after each, a greeting must still be answered
// on that connection, or — if it was closed for breaking the protocol —
// on a new one.
func FuzzChatTurn(f *testing.F) {
	frame := func(t nplt.Type, n uint16, p string) []byte {
		return append([]byte{byte(t), byte(n >> 8), byte(n)}, p...)
	}
	f.Add("cat /"+strings.Repeat("a", 17000), frame(nplt.ChatText, 0, ""))
	f.Add("执行 ls -la "+strings.Repeat("c", 17000), frame(nplt.ChatText, 20000, "下载 /b"))
	f.Add("ls"+strings.Repeat(" -la", 5000), frame(nplt.ChatText, 65535, "ls -la "))
	f.Add("你好", append(frame(nplt.FileMetadata, 30, `{"filename":"a.txt","size":5}`), frame(nplt.FileData, 5, "hello")...))
	f.Add("CPU使用率是多少？", frame(nplt.Hello, 0, `{"client":"x","client_type":"cli"}`))
	f.Add("HEARTBEAT", []byte{0xff, 1, 2, 3, 4, 5, 6, 7})
	f.Add("\xff\xfe", frame(0x7f, 3, "abc"))
	f.Add(strings.Repeat("查看磁盘", 6000), frame(nplt.SessionDelete, 8, "00000000"))

	ts := startServer(f, "", withRealAgent(f))
	f.Fuzz(func(t *testing.T, text string, frames []byte) {
		if len(text) > chat.MaxMessage+1024 {
			text = text[:chat.MaxMessage+1024]
		}
		se := ts.svc.NewSession("cli", chat.Local())
		turn(t, se, text)
		turn(t, se, "你好") // the next turn works

		c := dial(t, ts.addr, true)
		if len(frames) > 0 && frames[0] == 0xff {
			// Garbage, perhaps a frame cut short: send it, leave, and
			// check the next client.
			c.nc.Write(frames)
			c.nc.Close()
		} else {
			sendFrames(c, frames)
		}
		if !answersGreeting(t, c) {
			if !answersGreeting(t, dial(t, ts.addr, true)) {
				t.Fatal("a new client is not served")
			}
		}
	})
}

// turn runs one turn in se and checks its events.
func turn(t *testing.T, se *chat.Session, text string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var kinds []chat.Kind
	se.Chat(ctx, text, func(e chat.Event) error {
		kinds = append(kinds, e.Kind)
		if e.Kind == chat.KindError && e.Error.Code == chat.CodeInternal {
			t.Errorf("%.60q: internal error %q", text, e.Error.Message)
		}
		return nil
	})
	ends := 0
	for _, k := range kinds {
		if k == chat.KindEnd {
			ends++
		}
	}
	if ends != 1 || kinds[0] != chat.KindStreamStart || kinds[len(kinds)-1] != chat.KindEnd {
		t.Fatalf("%.60q: events %v", text, kinds)
	}
}

// sendFrames sends up to eight frames described by b: a type byte, a
// big-endian u16 length, then the payload, repeated to that length.
func sendFrames(c *client, b []byte) {
	for i := 0; i < 8 && len(b) >= 3; i++ {
		typ := nplt.Type(b[0])
		if int(b[0]) < len(clientTypes) {
			typ = clientTypes[b[0]]
		}
		n := int(binary.BigEndian.Uint16(b[1:3]))
		b = b[3:]
		seed := b[:min(len(b), 64)]
		b = b[len(seed):]
		p := []byte{}
		for len(seed) > 0 && len(p) < n {
			p = append(p, seed[:min(len(seed), n-len(p))]...)
		}
		if c.w.WriteFrame(typ, p) != nil {
			return
		}
	}
	c.w.Flush()
}

// answersGreeting sends a greeting and reads until its answer, failing on an
// internal error on the way. It returns false if the connection closed
// first.
func answersGreeting(t *testing.T, c *client) bool {
	t.Helper()
	if c.w.WriteFrame(nplt.ChatText, []byte("你好")) != nil || c.w.Flush() != nil {
		return false
	}
	var text strings.Builder
	for {
		f, err := c.tryRead()
		if err != nil {
			return false
		}
		switch {
		case f.Type == nplt.Error && strings.Contains(string(f.Payload), `"internal"`):
			t.Fatalf("internal error: %s", f.Payload)
		case f.Type == nplt.ChatText && len(f.Payload) == 0:
			if strings.Contains(text.String(), "我是 opsassist") {
				return true
			}
			text.Reset()
		case f.Type == nplt.ChatText && utf8.Valid(f.Payload):
			text.Write(f.Payload)
		}
	}
}
