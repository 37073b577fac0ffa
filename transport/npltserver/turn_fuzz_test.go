package npltserver

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"opsassist/agent"
	"opsassist/agent/builtin"
	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/nplt"
	"opsassist/storage/history"
	"opsassist/tools/toolset"
)

// fuzzServer is a server running the builtin planner over the real five
// tools in a temporary workspace. Its server, chat and tool logs go to an
// observer at error level, where every recovered panic is logged: a tool
// panic becomes an ordinary tool error and a background panic no error at
// all, so the logs are the only place the oracle can see them.
type fuzzServer struct {
	ts   *testServer
	logs *observer.ObservedLogs
}

// newFuzzServer starts a fuzzServer. With panicTool, the registry also
// holds panic_tool, which panics, and the planner calls it for any input
// containing "panic_tool" (the oracle's own test).
func newFuzzServer(tb testing.TB, panicTool bool) *fuzzServer {
	core, logs := observer.New(zapcore.ErrorLevel)
	log := zap.New(core)
	ws := tb.TempDir()
	set, err := toolset.New(toolset.Config{Workspace: ws, Roots: []string{ws}, UploadsDir: tb.TempDir(),
		RDTAddr: "127.0.0.1:1", HTTPBase: "http://127.0.0.1:1", Logger: log})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { set.Close() })
	// The planner reads whole messages, past its default cap, so long
	// arguments reach the tools.
	var p agent.Planner = builtin.New(builtin.Config{MaxInput: chat.MaxMessage})
	if panicTool {
		if err := set.Registry.Register(testkit.PanicTool{Name: "panic_tool"}); err != nil {
			tb.Fatal(err)
		}
		p = panicPlanner{p}
	}
	ag, err := agent.New(agent.Config{Planners: map[string]agent.Planner{"builtin": p}, Tools: set.Registry})
	if err != nil {
		tb.Fatal(err)
	}
	ts := startServer(tb, "", func(sc *Config, cc *chat.Config) {
		cc.Agent = ag
		sc.Logger, cc.Logger = log, log
	})
	return &fuzzServer{ts: ts, logs: logs}
}

// panicPlanner calls panic_tool once for input containing "panic_tool",
// and otherwise asks its inner planner.
type panicPlanner struct{ agent.Planner }

func (p panicPlanner) Plan(ctx context.Context, req *agent.PlanRequest, delta func(string) error) (*agent.Step, error) {
	if strings.Contains(req.Turn.Input, "panic_tool") && req.Messages[len(req.Messages)-1].Role == "user" {
		return &agent.Step{ToolCalls: []history.ToolCall{{ID: "p1", Name: "panic_tool", Arguments: "{}"}}}, nil
	}
	return p.Planner.Plan(ctx, req, delta)
}

// panics returns an error naming every logged panic since the last call.
func (fs *fuzzServer) panics() error {
	var errs []error
	for _, e := range fs.logs.TakeAll() {
		panicked := strings.Contains(e.Message, "panic")
		for _, f := range e.Context {
			panicked = panicked || f.Key == "panic"
		}
		if panicked {
			m := e.ContextMap()
			delete(m, "stack")
			errs = append(errs, fmt.Errorf("logged %q: %v", e.Message, m))
		}
	}
	return errors.Join(errs...)
}

// clientTypes are the frame types a client may send; a fuzzed type byte
// picks one, or past the list, is sent as it is (unknown types).
var clientTypes = []nplt.Type{nplt.ChatText, nplt.FileData, nplt.FileMetadata, nplt.ModelSwitch, nplt.HistoryRequest,
	nplt.ClearRequest, nplt.SessionList, nplt.SessionSwitch, nplt.SessionNew, nplt.SessionDelete, nplt.ClientUDPPort,
	nplt.Hello, nplt.Ping, nplt.Pong, nplt.FileRequest, nplt.PermissionResponse, nplt.SessionExport}

// FuzzChatTurn drives whole chat turns through the real session, the
// builtin planner and the real tools (see fuzzServer.check).
func FuzzChatTurn(f *testing.F) {
	// frame describes a frame of type t as parseFrames reads it: a known
	// client type by its index in clientTypes.
	frame := func(t nplt.Type, n uint16, p string) []byte {
		b := byte(t)
		if i := slices.Index(clientTypes, t); i >= 0 {
			b = byte(i)
		}
		return append([]byte{b, byte(n >> 8), byte(n)}, p...)
	}
	f.Add("cat /"+strings.Repeat("a", 17000), frame(nplt.ChatText, 0, ""))
	f.Add("执行 ls -la "+strings.Repeat("c", 17000), frame(nplt.ChatText, 20000, "下载 /b"))
	f.Add("ls"+strings.Repeat(" -la", 5000), frame(nplt.ChatText, 65535, "ls -la "))
	f.Add("你好", append(frame(nplt.FileMetadata, 30, `{"filename":"a.txt","size":5}`), frame(nplt.FileData, 5, "hello")...))
	f.Add("CPU使用率是多少？", frame(nplt.Hello, 0, `{"client":"x","client_type":"cli"}`))
	f.Add("HEARTBEAT", []byte{0xff, 1, 2, 3, 4, 5, 6, 7})
	f.Add("\xff\xfe", frame(0x7f, 3, "abc"))
	f.Add(strings.Repeat("查看磁盘", 6000), frame(nplt.SessionDelete, 8, "00000000"))
	f.Add("执行 ls boom", append(frame(nplt.ChatText, 9, "HEARTBEAT"), frame(nplt.ChatText, 2, "\xff\xfe")...))
	f.Add("磁盘", append(frame(nplt.ChatText, 14, "执行 ls boom"), frame(nplt.SessionNew, 0, "")...))
	f.Add("你好", append(frame(nplt.Hello, 34, `{"client":"x","client_type":"cli"}`), frame(nplt.SessionExport, 36, `{"session_id":"0000","format":"json"}`)...))

	fs := newFuzzServer(f, false)
	f.Cleanup(func() {
		if err := fs.panics(); err != nil {
			f.Error(err)
		}
	})
	f.Fuzz(func(t *testing.T, text string, frames []byte) {
		if err := fs.check(t, text, frames); err != nil {
			t.Fatal(err)
		}
	})
}

// TestChatTurnOracleSeesPanics checks FuzzChatTurn's oracle: a tool that
// panics, which the registry turns into an ordinary tool error, fails it,
// whether the turn comes straight into a session or over NPLT.
func TestChatTurnOracleSeesPanics(t *testing.T) {
	fs := newFuzzServer(t, true)
	if err := fs.check(t, "你好", nil); err != nil {
		t.Fatalf("a clean turn fails the oracle: %v", err)
	}
	if err := fs.check(t, "run panic_tool", nil); err == nil || !strings.Contains(err.Error(), "tool panicked") {
		t.Errorf("a tool panic in a session turn: oracle says %v", err)
	}
	if err := fs.check(t, "你好", append([]byte{0, 0, 10}, "panic_tool"...)); err == nil || !strings.Contains(err.Error(), "tool panicked") {
		t.Errorf("a tool panic in an NPLT turn: oracle says %v", err)
	}
}

// check runs one fuzz case: text of any length up to just over the
// 64 KiB limit, straight into a Session (exactly one End, never an
// internal error), then the frames described by frames (sendFrames) over
// NPLT. The CHAT_TEXT frames go on one connection, each non-empty one but
// HEARTBEAT answered by exactly one reply (one end); the others on another
// connection, or raw garbage, after which a greeting must still be
// answered there or, if it was closed for breaking the protocol, on a new
// connection. No panic may be logged anywhere.
func (fs *fuzzServer) check(t *testing.T, text string, frames []byte) error {
	if len(text) > chat.MaxMessage+1024 {
		text = text[:chat.MaxMessage+1024]
	}
	se := fs.ts.svc.NewSession("cli", chat.Local())
	err := errors.Join(turn(se, text), turn(se, "你好")) // the next turn works

	var chats, others []sentFrame
	garbage := len(frames) > 0 && frames[0] == 0xff
	if !garbage {
		for _, f := range parseFrames(frames) {
			if f.typ == nplt.ChatText {
				chats = append(chats, f)
			} else {
				others = append(others, f)
			}
		}
	}
	if len(chats) > 0 {
		err = errors.Join(err, chatReplies(dial(t, fs.ts.addr, true), chats))
	}
	c := dial(t, fs.ts.addr, true)
	if garbage {
		// Garbage, perhaps a frame cut short: send it, leave, and check
		// the next client.
		c.nc.Write(frames)
		c.nc.Close()
	} else {
		sendThenGreet(c, others)
	}
	if ok, gerr := answersGreeting(c, garbage); !ok {
		err = errors.Join(err, gerr)
		c := dial(t, fs.ts.addr, true)
		sendThenGreet(c, nil)
		if ok, gerr := answersGreeting(c, false); !ok {
			err = errors.Join(err, gerr, errors.New("a new client is not served"))
		}
	}
	return errors.Join(err, fs.panics())
}

// turn runs one turn in se and checks its events.
func turn(se *chat.Session, text string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var kinds []chat.Kind
	var errs []error
	se.Chat(ctx, text, func(e chat.Event) error {
		kinds = append(kinds, e.Kind)
		if e.Kind == chat.KindPermissionRequest || e.Kind == chat.KindQuestion {
			return chat.ErrCannotAsk // nobody here to ask: the call is refused
		}
		if e.Kind == chat.KindError && e.Error.Code == api.CodeInternal {
			errs = append(errs, fmt.Errorf("%.60q: internal error %q", text, e.Error.Message))
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
		errs = append(errs, fmt.Errorf("%.60q: events %v", text, kinds))
	}
	return errors.Join(errs...)
}

// sentFrame is one frame a fuzz case sends.
type sentFrame struct {
	typ     nplt.Type
	payload []byte
}

// parseFrames reads up to eight frames from b: a type byte, a big-endian
// u16 length, then up to 64 bytes of payload, repeated to that length.
func parseFrames(b []byte) []sentFrame {
	var out []sentFrame
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
		out = append(out, sentFrame{typ, p})
	}
	return out
}

// chatReplies sends the CHAT_TEXT frames then a greeting on c and checks
// the replies: one per frame but the empty ones (which mean nothing) and
// HEARTBEAT (answered by HEARTBEAT, not a reply), one for the greeting,
// none with an internal error, and the last the greeting's answer. A
// message with two ends makes the count run out before the greeting's
// answer; one with none leaves the reads waiting for an end that never
// comes.
func chatReplies(c *client, chats []sentFrame) error {
	want := 1
	for _, f := range chats {
		if len(f.payload) > 0 && string(f.payload) != nplt.HeartbeatText {
			want++
		}
	}
	sendThenGreet(c, chats)
	var errs []error
	var text strings.Builder
	for ends := 0; ends < want; {
		f, err := c.tryRead()
		if err != nil {
			return errors.Join(append(errs, fmt.Errorf("after %d of %d replies: %w", ends, want, err))...)
		}
		switch {
		case f.Type == nplt.Error && strings.Contains(string(f.Payload), `"internal"`):
			errs = append(errs, fmt.Errorf("internal error: %s", f.Payload))
		case f.Type == nplt.PermissionRequest: // a call the policy asks about: deny it
			var p api.PermissionRequest
			if err := json.Unmarshal(f.Payload, &p); err != nil {
				errs = append(errs, fmt.Errorf("bad PERMISSION_REQUEST %q: %w", f.Payload, err))
				continue
			}
			c.sendJSON(nplt.PermissionResponse, api.PermissionResponse{RequestID: p.RequestID, Decision: api.DecisionDeny})
		case f.Type == nplt.Question: // an ask_user question: take the first option, or yes
			var q api.Question
			if err := json.Unmarshal(f.Payload, &q); err != nil {
				errs = append(errs, fmt.Errorf("bad QUESTION %q: %w", f.Payload, err))
				continue
			}
			answer := "yes"
			if len(q.Options) > 0 {
				answer = q.Options[0].ID
			}
			c.sendJSON(nplt.Answer, api.Answer{RequestID: q.RequestID, Answer: answer})
		case f.Type == nplt.ChatText && len(f.Payload) == 0:
			ends++
			if ends < want {
				text.Reset()
			}
		case f.Type == nplt.ChatText && string(f.Payload) != nplt.HeartbeatText:
			text.Write(f.Payload)
		}
	}
	if !strings.Contains(text.String(), "我是 opsassist") {
		errs = append(errs, fmt.Errorf("%d replies, the last not the greeting's answer but %.200q", want, text.String()))
	}
	return errors.Join(errs...)
}

// sendThenGreet sends frames then a greeting on c, in the background: the
// server answers while it reads, and a client that did not read its
// replies until it had sent everything would fill both sides' buffers and
// wait forever. A write that cannot finish in 30 s gives up; the reads
// then fail.
func sendThenGreet(c *client, frames []sentFrame) {
	c.nc.SetWriteDeadline(time.Now().Add(30 * time.Second))
	go func() {
		for _, f := range frames {
			if c.w.WriteFrame(f.typ, f.payload) != nil {
				return
			}
		}
		if c.w.WriteFrame(nplt.ChatText, []byte("你好")) == nil {
			c.w.Flush()
		}
	}()
}

// answersGreeting reads until the answer to the greeting sendThenGreet
// sent, noting any internal error on the way. It returns false if the
// connection closed first, or was closed by the client (garbage).
func answersGreeting(c *client, closed bool) (bool, error) {
	if closed {
		return false, nil
	}
	var errs []error
	var text strings.Builder
	for {
		f, err := c.tryRead()
		if err != nil {
			return false, errors.Join(errs...)
		}
		switch {
		case f.Type == nplt.Error && strings.Contains(string(f.Payload), `"internal"`):
			errs = append(errs, fmt.Errorf("internal error: %s", f.Payload))
		case f.Type == nplt.ChatText && len(f.Payload) == 0:
			if strings.Contains(text.String(), "我是 opsassist") {
				return true, errors.Join(errs...)
			}
			text.Reset()
		case f.Type == nplt.ChatText && utf8.Valid(f.Payload):
			text.Write(f.Payload)
		}
	}
}
