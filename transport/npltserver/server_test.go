package npltserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"opsassist/api"
	"opsassist/chat"
	"opsassist/internal/testkit"
	"opsassist/nplt"
	"opsassist/storage/history"
	"opsassist/storage/uploads"
)

func TestChatReplyFraming(t *testing.T) {
	ts := startServer(t, "")
	for _, hello := range []bool{false, true} {
		c := dial(t, ts.addr, hello)
		fs := c.chat("CPU使用率是多少？")
		if fs[0].Type != nplt.AgentThought {
			t.Fatalf("first frame %v", fs[0].Type)
		}
		var st nplt.Status
		if err := json.Unmarshal(fs[0].Payload, &st); err != nil || st.Type != "stream_start" || st.SessionID == "" {
			t.Fatalf("stream_start = %q", fs[0].Payload)
		}
		// statuses, then text chunks, then the empty end
		i := 1
		for ; fs[i].Type == nplt.AgentThought; i++ {
			if err := json.Unmarshal(fs[i].Payload, &st); err != nil || (st.Type != "thinking" && st.Type != "generating") {
				t.Fatalf("status %q", fs[i].Payload)
			}
		}
		if i == 1 {
			t.Fatal("no status frames")
		}
		chunks := 0
		for ; len(fs[i].Payload) > 0; i++ {
			if fs[i].Type != nplt.ChatText {
				t.Fatalf("frame %d is %v", i, fs[i].Type)
			}
			chunks++
		}
		if chunks < 2 || i != len(fs)-1 {
			t.Fatalf("chunks=%d end at %d of %d", chunks, i, len(fs))
		}
		if txt := replyText(fs); !strings.Contains(txt, "CPU使用率是多少？") {
			t.Fatalf("reply %q", txt)
		}
	}
}

func TestHeartbeatTextAndPing(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, false)
	c.send(nplt.ChatText, []byte("HEARTBEAT"))
	if f := c.read(); f.Type != nplt.ChatText || string(f.Payload) != "HEARTBEAT" {
		t.Fatalf("heartbeat answer %v %q", f.Type, f.Payload)
	}
	c.send(nplt.ChatText, nil) // empty chat is ignored
	// The next thing must be the reply to this chat: the heartbeat was not
	// treated as chat and the empty frame produced nothing.
	if fs := c.chat("hi"); !strings.Contains(replyText(fs), "hi") {
		t.Fatalf("reply %q", replyText(fs))
	}
	hc := dial(t, ts.addr, true)
	hc.send(nplt.Ping, []byte("x1"))
	if f := hc.read(); f.Type != nplt.Pong || string(f.Payload) != "x1" {
		t.Fatalf("pong %v %q", f.Type, f.Payload)
	}
}

func TestFiftyConcurrentClients(t *testing.T) {
	ts := startServer(t, "")
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := dial(t, ts.addr, i%2 == 0)
			for j := range 3 {
				msg := fmt.Sprintf("client %d message %d", i, j)
				fs := c.chat(msg)
				if !strings.Contains(replyText(fs), msg) {
					errs <- fmt.Errorf("client %d got %q", i, replyText(fs))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(ts.svc.Models()); n != 2 {
		t.Fatal(n)
	}
}

// upload sends a file in FILE_DATA frames and returns the reply.
func (c *client) upload(name string, data []byte, sum string) []nplt.Frame {
	c.t.Helper()
	c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: name, Size: int64(len(data)), SHA256: sum})
	for off := 0; off < len(data); off += nplt.MaxPayload {
		c.w.WriteFrame(nplt.FileData, data[off:min(off+nplt.MaxPayload, len(data))])
	}
	if err := c.w.Flush(); err != nil {
		c.t.Fatal(err)
	}
	return c.reply()
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestUpload10MiB(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	data := make([]byte, 10<<20)
	rand.Read(data)
	c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "../../etc/big.bin", Size: int64(len(data)), SHA256: sha(data)})
	wrote := make(chan struct{})
	go func() { // the writer runs beside the reader, as a real client's would
		defer close(wrote)
		for off := 0; off < len(data); off += nplt.MaxPayload {
			c.w.WriteFrame(nplt.FileData, data[off:min(off+nplt.MaxPayload, len(data))])
		}
		c.w.Flush()
	}()
	var progress int
	var done nplt.UploadDonePayload
	for {
		f := c.read()
		if f.Type == nplt.UploadProgress {
			progress++
			continue
		}
		if f.Type == nplt.UploadDone {
			json.Unmarshal(f.Payload, &done)
			continue
		}
		if f.Type != nplt.ChatText {
			t.Fatalf("unexpected %v %q", f.Type, f.Payload)
		}
		if len(f.Payload) == 0 {
			break
		}
		if !strings.Contains(string(f.Payload), "big.bin") || !strings.Contains(string(f.Payload), done.FileID) {
			t.Fatalf("confirmation %q does not name the file and its id", f.Payload)
		}
	}
	if progress == 0 || done.FileID == "" || done.Filename != "big.bin" || done.SHA256 != sha(data) {
		t.Fatalf("progress=%d done=%+v", progress, done)
	}
	got, err := os.ReadFile(filepath.Join(ts.dataDir, "uploads", done.FileID, "big.bin"))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("stored file differs (err %v)", err)
	}
	<-wrote
	// Recorded in the conversation.
	var hist struct {
		Uploads []history.Upload `json:"uploads"`
	}
	c.send(nplt.HistoryRequest, nil)
	result(t, c.reply(), &hist)
	if len(hist.Uploads) != 1 || hist.Uploads[0].FileID != done.FileID || hist.Uploads[0].Size != int64(len(data)) {
		t.Fatalf("history uploads %+v", hist.Uploads)
	}
}

func TestZeroByteUpload(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, false)
	fs := c.upload("empty.txt", nil, "")
	if !strings.Contains(replyText(fs), "empty.txt") {
		t.Fatalf("reply %q", replyText(fs))
	}
}

// TestUploadNameLosesInvisibleCharacters: a right-to-left override in a
// name would make "invoice\u202Efdp.exe" read as "invoiceexe.pdf"; the
// stored name, the confirmation and the file on disk have none of it, and
// a name of nothing but zero-width characters gets the default name.
func TestUploadNameLosesInvisibleCharacters(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	for name, want := range map[string]string{"invoice\u202Efdp.exe": "invoicefdp.exe", "\u200B\u2066\uFEFF": uploads.DefaultName} {
		fs := c.upload(name, []byte("MZ"), "")
		var done nplt.UploadDonePayload
		for _, f := range fs {
			if f.Type == nplt.UploadDone {
				json.Unmarshal(f.Payload, &done)
			}
		}
		if done.Filename != want || !strings.Contains(replyText(fs), want+" ") {
			t.Fatalf("%q stored as %+v, reply %q; want %q", name, done, replyText(fs), want)
		}
		if _, err := os.Stat(filepath.Join(ts.dataDir, "uploads", done.FileID, want)); err != nil {
			t.Fatal(err)
		}
	}
}

// uploadEntries lists committed uploads and temp files on disk.
func uploadEntries(t *testing.T, dataDir string) (committed, temp []string) {
	ents, _ := os.ReadDir(filepath.Join(dataDir, "uploads"))
	for _, e := range ents {
		if e.Name() != ".tmp" {
			committed = append(committed, e.Name())
		}
	}
	tmps, _ := os.ReadDir(filepath.Join(dataDir, "uploads", ".tmp"))
	for _, e := range tmps {
		temp = append(temp, e.Name())
	}
	return committed, temp
}

func TestUploadRefusals(t *testing.T) {
	data := []byte("hello world")
	tests := []struct {
		name string
		run  func(c *client) []nplt.Frame
		code string
	}{
		{"too large", func(c *client) []nplt.Frame {
			c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "big", Size: 100<<20 + 1})
			c.send(nplt.FileData, data) // already in flight: dropped quietly
			return c.reply()
		}, api.CodeUploadTooLarge},
		{"data without metadata", func(c *client) []nplt.Frame {
			c.send(nplt.FileData, data)
			return c.reply()
		}, api.CodeUploadNoMetadata},
		{"second metadata mid-upload", func(c *client) []nplt.Frame {
			c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "a.txt", Size: 100})
			c.send(nplt.FileData, data)
			c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "b.txt", Size: 100})
			return c.reply()
		}, api.CodeUploadInProgress},
		{"more bytes than declared", func(c *client) []nplt.Frame {
			c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "a.txt", Size: 5})
			c.send(nplt.FileData, data)
			return c.reply()
		}, api.CodeUploadOverflow},
		{"sha256 mismatch", func(c *client) []nplt.Frame {
			return c.upload("a.txt", data, sha([]byte("other")))
		}, api.CodeUploadChecksum},
		{"malformed sha256", func(c *client) []nplt.Frame {
			return c.upload("a.txt", data, "xyz")
		}, api.CodeBadRequest},
		{"negative size", func(c *client) []nplt.Frame {
			c.send(nplt.FileMetadata, []byte(`{"filename":"a","size":-1}`))
			return c.reply()
		}, api.CodeBadRequest},
		{"size as a string", metaRaw(`{"filename":"a","size":"123"}`), api.CodeBadRequest},
		{"size missing", metaRaw(`{"filename":"a"}`), api.CodeBadRequest},
		{"size null", metaRaw(`{"filename":"a","size":null}`), api.CodeBadRequest},
		{"size fractional", metaRaw(`{"filename":"a","size":1.5}`), api.CodeBadRequest},
		{"size with exponent", metaRaw(`{"filename":"a","size":1e3}`), api.CodeBadRequest},
		{"size beyond int64", metaRaw(`{"filename":"a","size":99999999999999999999}`), api.CodeBadRequest},
		{"size huge negative", metaRaw(`{"filename":"a","size":-99999999999999999999}`), api.CodeBadRequest},
		{"size huge float", metaRaw(`{"filename":"a","size":1e400}`), api.CodeBadRequest},
		{"size boolean", metaRaw(`{"filename":"a","size":true}`), api.CodeBadRequest},
		{"size object", metaRaw(`{"filename":"a","size":{"n":1}}`), api.CodeBadRequest},
		{"size over the limit", metaRaw(`{"filename":"a","size":9223372036854775807}`), api.CodeUploadTooLarge},
		{"not an object", metaRaw(`[1,2]`), api.CodeBadJSON},
		{"unusable name", func(c *client) []nplt.Frame {
			return c.upload("../..", data, "")
		}, api.CodeUploadBadName},
		{"bad json", func(c *client) []nplt.Frame {
			c.send(nplt.FileMetadata, []byte(`{"filename":`))
			return c.reply()
		}, api.CodeBadJSON},
	}
	ts := startServer(t, "")
	other := dial(t, ts.addr, false)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dial(t, ts.addr, true)
			c.t = t
			fs := tt.run(c)
			if code := errorCode(t, fs); code != tt.code {
				t.Fatalf("code %q, want %q (reply %v)", code, tt.code, fs)
			}
			// The refusing connection stays usable.
			if got := replyText(c.chat("still there?")); !strings.Contains(got, "still there?") {
				t.Fatalf("after refusal: %q", got)
			}
			// Another client keeps being served.
			other.t = t
			if got := replyText(other.chat("ping " + tt.name)); !strings.Contains(got, tt.name) {
				t.Fatalf("other client: %q", got)
			}
			committed, temp := uploadEntries(t, ts.dataDir)
			if len(committed) != 0 || len(temp) != 0 {
				t.Fatalf("refused upload left files: %v %v", committed, temp)
			}
		})
	}
}

// metaRaw sends FILE_METADATA with this exact payload and one FILE_DATA
// frame a client would already have on its way, and reads the reply.
func metaRaw(payload string) func(c *client) []nplt.Frame {
	return func(c *client) []nplt.Frame {
		c.send(nplt.FileMetadata, []byte(payload))
		c.send(nplt.FileData, []byte("123")) // dropped quietly
		return c.reply()
	}
}

func TestRefusalForPublishedClient(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, false)
	c.send(nplt.FileData, []byte("x"))
	fs := c.reply()
	if len(fs) != 2 || !strings.Contains(string(fs[0].Payload), "upload_no_metadata") {
		t.Fatalf("published client error reply %v %q", fs, replyText(fs))
	}
}

func TestDisconnectMidUploadLeavesNothing(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "part.bin", Size: 1 << 20})
	c.send(nplt.FileData, make([]byte, 1000))
	waitFor(t, "data in the temp file", func() bool {
		_, tmp := uploadEntries(t, ts.dataDir)
		if len(tmp) != 1 {
			return false
		}
		st, err := os.Stat(filepath.Join(ts.dataDir, "uploads", ".tmp", tmp[0]))
		return err == nil && st.Size() == 1000
	})
	c.nc.Close()
	waitFor(t, "connection cleanup", func() bool { return ts.ConnCount() == 0 })
	committed, temp := uploadEntries(t, ts.dataDir)
	if len(committed)+len(temp) != 0 {
		t.Fatalf("left %v %v", committed, temp)
	}
	if list := ts.svc.NewSession("cli", chat.Local()).List(); len(list) != 1 || list[0].Uploads != 0 {
		t.Fatalf("sessions %+v", list)
	}
}

func TestUnknownTypeAndBadJSONKeepConnection(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	for _, tc := range []struct {
		t    nplt.Type
		p    string
		code string
	}{
		{nplt.Type(0x7F), "", api.CodeUnknownType},
		{nplt.SessionSwitch, "{not json", api.CodeBadJSON},
		{nplt.SessionSwitch, `{"session_id":"nope-nope"}`, api.CodeNotFound},
		{nplt.SessionSwitch, strings.Repeat("\x01", 20000), api.CodeNotFound}, // echoed id: message cut to 1 KiB
		{nplt.ModelSwitch, `{"model":"gpt-99"}`, api.CodeUnknownModel},
		{nplt.ModelSwitch, `{"model":`, api.CodeBadJSON},
		{nplt.Hello, `[1,2]`, api.CodeBadJSON},
		{nplt.ClientUDPPort, `{"port":70000}`, api.CodeBadRequest},
		{nplt.ChatText, "\xff\xfe", api.CodeBadRequest},
	} {
		c.send(tc.t, []byte(tc.p))
		if code := errorCode(t, c.reply()); code != tc.code {
			t.Errorf("%v %q: code %q, want %q", tc.t, tc.p, code, tc.code)
		}
	}
	if got := replyText(c.chat("ok?")); !strings.Contains(got, "ok?") {
		t.Fatalf("connection unusable: %q", got)
	}
	// The message is a sentence for people: the id as it is, no package
	// prefix.
	c.send(nplt.SessionSwitch, []byte(`{"session_id":"nope-nope"}`))
	var e nplt.ErrorPayload
	for _, f := range c.reply() {
		if f.Type == nplt.Error {
			json.Unmarshal(f.Payload, &e)
		}
	}
	if e.Message != "conversation not found: nope-nope" {
		t.Fatalf("ERROR message %q", e.Message)
	}
}

func TestClientUDPPortForms(t *testing.T) {
	for _, p := range [][]byte{[]byte(`{"port":5000}`), []byte("5000"), {0x13, 0x88}} {
		n, err := portFromPayload(p)
		if err != nil || n != 5000 {
			t.Errorf("%q: %d %v", p, n, err)
		}
	}
	for _, p := range []string{"", "0", "abc", `{"port":0}`, "99999"} {
		if _, err := portFromPayload([]byte(p)); err == nil {
			t.Errorf("%q accepted", p)
		}
	}
}

func TestSessionCommands(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	c.chat("first conversation")
	var first history.Summary
	c.send(nplt.SessionNew, nil)
	if k := result(t, c.reply(), &first); k != "session" || first.ID == "" {
		t.Fatal(k, first)
	}
	c.chat("second conversation")

	var list struct {
		Current  string            `json:"current"`
		Sessions []history.Summary `json:"sessions"`
	}
	c.send(nplt.SessionList, nil)
	fs := c.reply()
	result(t, fs, &list)
	if len(list.Sessions) != 2 || list.Current != first.ID || list.Sessions[0].ID != first.ID || list.Sessions[0].Title != "second conversation" {
		t.Fatalf("list %+v", list)
	}
	if !strings.Contains(replyText(fs), "second conversation") {
		t.Fatalf("list text %q", replyText(fs))
	}
	older := list.Sessions[1]

	// Switch by 8-character prefix, as listings show it.
	c.sendJSON(nplt.SessionSwitch, nplt.SessionRef{SessionID: older.ID[:8]})
	var sw history.Summary
	result(t, c.reply(), &sw)
	if sw.ID != older.ID {
		t.Fatal(sw)
	}
	var hist struct {
		Messages []history.Message `json:"messages"`
	}
	c.send(nplt.HistoryRequest, nil)
	fs = c.reply()
	result(t, fs, &hist)
	if len(hist.Messages) != 2 || hist.Messages[0].Content != "first conversation" || hist.Messages[1].Role != "assistant" {
		t.Fatalf("history %+v", hist.Messages)
	}
	if !strings.Contains(replyText(fs), "first conversation") {
		t.Fatalf("history text %q", replyText(fs))
	}

	c.send(nplt.ClearRequest, nil)
	if k := result(t, c.reply(), nil); k != "cleared" {
		t.Fatal(k)
	}
	c.send(nplt.HistoryRequest, nil)
	result(t, c.reply(), &hist)
	if len(hist.Messages) != 0 {
		t.Fatalf("after clear %+v", hist.Messages)
	}

	// Delete the current conversation: the connection moves to a new one.
	c.send(nplt.SessionDelete, []byte(older.ID))
	var cur history.Summary
	result(t, c.reply(), &cur)
	if cur.ID == older.ID {
		t.Fatal("still in deleted conversation")
	}
	c.send(nplt.SessionList, nil)
	result(t, c.reply(), &list)
	for _, s := range list.Sessions {
		if s.ID == older.ID {
			t.Fatal("deleted conversation still listed")
		}
	}

	var models struct {
		Current string   `json:"current"`
		Models  []string `json:"models"`
	}
	c.send(nplt.ModelSwitch, []byte("deepseek"))
	result(t, c.reply(), &models)
	if models.Current != "deepseek" || len(models.Models) != 2 {
		t.Fatal(models)
	}
	c.send(nplt.ModelSwitch, nil)
	fs = c.reply()
	result(t, fs, &models)
	if models.Current != "deepseek" || !strings.Contains(replyText(fs), "builtin") {
		t.Fatal(models, replyText(fs))
	}
}

func TestRestartKeepsConversations(t *testing.T) {
	dir := t.TempDir()
	ts := startServer(t, dir)
	c := dial(t, ts.addr, true)
	c.chat("记住这句话")
	fs := c.upload("notes.txt", []byte("数据库端口 5432"), "")
	var done nplt.UploadDonePayload
	for _, f := range fs {
		if f.Type == nplt.UploadDone {
			json.Unmarshal(f.Payload, &done)
		}
	}
	id := done.SessionID
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	ts2 := startServer(t, dir)
	c2 := dial(t, ts2.addr, true)
	var list struct {
		Sessions []history.Summary `json:"sessions"`
	}
	c2.send(nplt.SessionList, nil)
	result(t, c2.reply(), &list)
	found := false
	for _, s := range list.Sessions {
		found = found || (s.ID == id && s.Messages == 2 && s.Uploads == 1)
	}
	if !found {
		t.Fatalf("conversation %s not listed after restart: %+v", id, list.Sessions)
	}
	c2.sendJSON(nplt.SessionSwitch, nplt.SessionRef{SessionID: id})
	c2.reply()
	var hist struct {
		Messages []history.Message `json:"messages"`
		Uploads  []history.Upload  `json:"uploads"`
	}
	c2.send(nplt.HistoryRequest, nil)
	result(t, c2.reply(), &hist)
	if len(hist.Messages) != 2 || hist.Messages[0].Content != "记住这句话" || len(hist.Uploads) != 1 || hist.Uploads[0].Filename != "notes.txt" {
		t.Fatalf("after restart %+v", hist)
	}
	if b, err := os.ReadFile(hist.Uploads[0].FilePath); err != nil || string(b) != "数据库端口 5432" {
		t.Fatalf("upload after restart: %q %v", b, err)
	}
}

func TestMaxClients(t *testing.T) {
	ts := startServer(t, "", func(c *Config, _ *chat.Config) { c.MaxClients = 2 })
	dial(t, ts.addr, false)
	dial(t, ts.addr, false)
	c := &client{t: t}
	var err error
	c.nc, err = netDial(ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	c.r = nplt.NewReader(c.nc)
	fs := c.expectClosed()
	c.nc.Close()
	checkRefusal(t, fs, api.CodeServerBusy)
}

// TestIdleTimeoutSendsHeartbeatThenCloses runs on synctest's clock over
// net.Pipe: the heartbeat at half the idle timeout, the answer that keeps
// a connection alive and the close at the timeout happen at their
// virtual times, whatever the machine's load.
func TestIdleTimeoutSendsHeartbeatThenCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const idle = time.Second
		pl := newPipeListener()
		startServerOn(t, "", pl, func(c *Config, _ *chat.Config) { c.IdleTimeout = idle })
		start := time.Now()
		legacy := greeted(t, pl.dial(), false)
		if f := legacy.read(); f.Type != nplt.ChatText || string(f.Payload) != "HEARTBEAT" {
			t.Fatalf("want heartbeat, got %v %q", f.Type, f.Payload)
		}
		if at := time.Since(start); at != idle/2 {
			t.Errorf("heartbeat at %v, want %v", at, idle/2)
		}
		fs := legacy.expectClosed()
		if len(fs) != 2 || !strings.Contains(string(fs[0].Payload), "idle_timeout") || len(fs[1].Payload) != 0 {
			t.Fatalf("published client before close: %v (want the error as a complete text reply)", fs)
		}
		if at := time.Since(start); at != idle {
			t.Errorf("closed at %v, want %v", at, idle)
		}
		start = time.Now()
		ext := greeted(t, pl.dial(), true)
		if f := ext.read(); f.Type != nplt.Ping {
			t.Fatalf("want PING, got %v", f.Type)
		}
		ext.send(nplt.Pong, []byte("hb")) // answering keeps it alive
		if f := ext.read(); f.Type != nplt.Ping {
			t.Fatalf("want second PING, got %v", f.Type)
		}
		if at := time.Since(start); at != idle {
			t.Errorf("second PING at %v, want %v (half the timeout after the answer)", at, idle)
		}
		if fs := ext.expectClosed(); len(fs) != 2 || errorCode(t, fs) != api.CodeIdleTimeout || len(fs[1].Payload) != 0 {
			t.Fatalf("before close: %v", fs)
		}
	})
}

func TestStalledMidFrameIsDropped(t *testing.T) {
	ts := startServer(t, "", func(c *Config, _ *chat.Config) { c.StallTimeout = 200 * time.Millisecond })
	c := dial(t, ts.addr, false)
	c.nc.Write([]byte{0x01, 0x00, 0x00, 0x00, 0x10, 'a'}) // promises 16 bytes, sends 1
	c.expectClosed()
	// Another client is unaffected.
	if got := replyText(dial(t, ts.addr, false).chat("hi")); !strings.Contains(got, "hi") {
		t.Fatal(got)
	}
}

func TestAuthRequiresHello(t *testing.T) {
	// The HELLO deadline is long, so a loaded machine never cuts off the
	// clients below; the silent client gets its own server with a short
	// one.
	ts := startServer(t, "", func(c *Config, _ *chat.Config) {
		c.AuthToken = "s3cret"
		c.HelloTimeout = time.Minute
	})
	quick := startServer(t, "", func(c *Config, _ *chat.Config) {
		c.AuthToken = "s3cret"
		c.HelloTimeout = 300 * time.Millisecond
	})
	for _, tc := range []struct {
		name  string
		addr  string
		first func(c *client)
	}{
		{"chat first", ts.addr, func(c *client) { c.send(nplt.ChatText, []byte("hi")) }},
		{"wrong token", ts.addr, func(c *client) {
			c.sendJSON(nplt.Hello, nplt.HelloPayload{Client: "x", ClientType: "cli", Token: "guess"})
		}},
		{"silent", quick.addr, func(c *client) {}},
	} {
		nc, err := netDial(tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		c := &client{t: t, nc: nc, r: nplt.NewReader(nc), w: nplt.NewWriter(nc)}
		tc.first(c)
		checkRefusal(t, c.expectClosed(), api.CodeUnauthorized)
	}
	nc, err := netDial(ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, nc: nc, r: nplt.NewReader(nc), w: nplt.NewWriter(nc)}
	c.sendJSON(nplt.Hello, nplt.HelloPayload{Client: "x", ClientType: "cli", Token: "s3cret"})
	if f := c.read(); f.Type != nplt.Hello {
		t.Fatalf("got %v", f.Type)
	}
	if fs := c.reply(); !strings.Contains(replyText(fs), "opsassist") {
		t.Fatalf("greeting %q", replyText(fs))
	}
	if got := replyText(c.chat("hi")); !strings.Contains(got, "hi") {
		t.Fatal(got)
	}
}

func TestShutdownLetsReplyFinish(t *testing.T) {
	ag := testkit.NewBlocking()
	ag.Before, ag.After = "partial ", "done"
	dir := t.TempDir()
	ts := startServer(t, dir, func(_ *Config, cc *chat.Config) { cc.Agent = ag })
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("long question"))
	<-ag.Started
	shut := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		shut <- ts.Shutdown(ctx)
	}()
	waitFor(t, "shutdown to begin", ts.isClosing)
	if _, err := netDial(ts.addr); err == nil {
		t.Error("new connection accepted during shutdown")
	}
	close(ag.Release)
	fs := c.reply()
	if got := replyText(fs); got != "partial done" {
		t.Fatalf("reply %q", got)
	}
	if fs := c.expectClosed(); len(fs) != 2 || errorCode(t, fs) != api.CodeShuttingDown || len(fs[1].Payload) != 0 {
		t.Fatalf("after reply: %v", fs)
	}
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	// The finished turn was persisted.
	hist, err := history.Open(filepath.Join(dir, "history"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if l := hist.List(); len(l) != 1 || l[0].Messages != 2 {
		t.Fatalf("persisted %+v", l)
	}
}

func TestShutdownTimeoutCancelsReply(t *testing.T) {
	ag := testkit.NewBlocking()
	ag.Before, ag.After = "partial ", "done"
	ts := startServer(t, "", func(_ *Config, cc *chat.Config) { cc.Agent = ag })
	c := dial(t, ts.addr, true)
	c.send(nplt.ChatText, []byte("never finishes"))
	<-ag.Started
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := ts.Shutdown(ctx); err == nil {
		t.Fatal("want deadline error")
	}
	c.expectClosed()
}

// checkRefusal checks the frames a refused client gets before the close:
// a complete text reply a published client can show, then the ERROR.
func checkRefusal(t *testing.T, fs []nplt.Frame, code string) {
	t.Helper()
	if len(fs) != 3 || fs[0].Type != nplt.ChatText || !strings.Contains(string(fs[0].Payload), code) ||
		fs[1].Type != nplt.ChatText || len(fs[1].Payload) != 0 || errorCode(t, fs) != code {
		t.Fatalf("refusal frames %v, want text, end, ERROR %s", fs, code)
	}
}

// TestLargeReplyAfterIdleWriteTimeout: a reply whose frames are written
// straight to the socket must not be cut by a stale write deadline.
func TestLargeReplyAfterIdleWriteTimeout(t *testing.T) {
	ts := startServer(t, "", func(c *Config, _ *chat.Config) { c.WriteTimeout = 100 * time.Millisecond })
	c := dial(t, ts.addr, true)
	time.Sleep(300 * time.Millisecond) // let the last write deadline pass: the condition under test
	msg := strings.Repeat("长", 3000)   // 9000 bytes, echoed back in one large reply
	if got := replyText(c.chat(msg)); !strings.Contains(got, msg) {
		t.Fatalf("reply lost data: %d bytes", len(got))
	}
	c.send(nplt.HistoryRequest, nil)
	var hist struct {
		Messages []history.Message `json:"messages"`
	}
	result(t, c.reply(), &hist)
	if len(hist.Messages) != 2 {
		t.Fatalf("history %d messages", len(hist.Messages))
	}
}

// TestPipelinedRequestsKeepOrder: an upload sent after SESSION_NEW is
// recorded in the new session even if the client does not wait.
func TestPipelinedRequestsKeepOrder(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	for i := range 3 {
		c.send(nplt.ChatText, []byte(fmt.Sprintf("chat %d", i)))
	}
	c.send(nplt.SessionNew, nil)
	c.sendJSON(nplt.FileMetadata, nplt.FileMeta{Filename: "late.txt", Size: 4})
	c.send(nplt.FileData, []byte("data"))
	c.send(nplt.HistoryRequest, nil)
	for range 3 {
		c.reply()
	}
	var s history.Summary
	result(t, c.reply(), &s)
	var done nplt.UploadDonePayload
	for _, f := range c.reply() {
		if f.Type == nplt.UploadDone {
			json.Unmarshal(f.Payload, &done)
		}
	}
	if done.SessionID != s.ID {
		t.Fatalf("upload recorded in %s, want the new session %s", done.SessionID, s.ID)
	}
	var hist struct {
		Uploads []history.Upload `json:"uploads"`
	}
	result(t, c.reply(), &hist)
	if len(hist.Uploads) != 1 || hist.Uploads[0].Filename != "late.txt" {
		t.Fatalf("new session uploads %+v", hist.Uploads)
	}
}

// TestHistoryResultFitsOneFrame: a long conversation still gets a RESULT,
// holding the newest messages, and the full text.
func TestHistoryResultFitsOneFrame(t *testing.T) {
	ts := startServer(t, "")
	c := dial(t, ts.addr, true)
	for i := range 12 {
		c.chat(fmt.Sprintf("%02d ", i) + strings.Repeat("x", 6000))
	}
	c.send(nplt.HistoryRequest, nil)
	fs := c.reply()
	var hist struct {
		Messages  []history.Message `json:"messages"`
		Total     int               `json:"total"`
		Truncated bool              `json:"truncated"`
	}
	result(t, fs, &hist)
	if hist.Total != 24 || !hist.Truncated || len(hist.Messages) == 0 || len(hist.Messages) >= 24 {
		t.Fatalf("total %d truncated %v kept %d", hist.Total, hist.Truncated, len(hist.Messages))
	}
	if last := hist.Messages[len(hist.Messages)-1]; last.Role != "assistant" || !strings.Contains(last.Content, "11 ") {
		t.Fatalf("newest message missing: %.40q", last.Content)
	}
	if txt := replyText(fs); !strings.Contains(txt, "00 xxx") || !strings.Contains(txt, "11 xxx") {
		t.Fatal("text reply lost messages")
	}
}

// pipeListener hands out in-memory connections: net.Pipe has no buffer,
// so each server write waits for the client to read it.
type pipeListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error   { l.once.Do(func() { close(l.closed) }); return nil }
func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

func (l *pipeListener) dial() net.Conn {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
	case <-l.closed:
	}
	return client
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// TestSlowSteadyReaderIsNotCut: a client that reads slowly but keeps
// reading gets the whole reply, however long it takes in total. It runs
// in a synctest bubble over net.Pipe: the reader's pauses and the write
// deadlines are on the bubble's clock, so a loaded machine changes
// nothing.
func TestSlowSteadyReaderIsNotCut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const writeTimeout = 200 * time.Millisecond
		pl := newPipeListener()
		startServerOn(t, "", pl, func(c *Config, _ *chat.Config) { c.WriteTimeout = writeTimeout })
		nc := pl.dial()
		t.Cleanup(func() { nc.Close() })
		c := &client{t: t, nc: nc, r: nplt.NewReader(nc), w: nplt.NewWriter(nc)}
		c.reply()                         // greeting
		msg := strings.Repeat("😀", 15000) // 60000 bytes, echoed in 16-rune chunks
		wrote := make(chan struct{})
		go func() { // a pipe write waits for the server to read it
			defer close(wrote)
			c.w.WriteFrame(nplt.ChatText, []byte(msg))
			c.w.Flush()
		}()
		// Read 1 KiB per 10 ms, about 100 KB/s: the reply takes several
		// times WriteTimeout in total, but no single write waits that
		// long. The pauses are the condition under test.
		r := nplt.NewReader(&slowReader{r: nc, chunk: 1024, pause: 10 * time.Millisecond})
		var got strings.Builder
		start := time.Now()
		for {
			nc.SetReadDeadline(time.Now().Add(time.Minute))
			f, err := r.ReadFrame()
			if err != nil {
				t.Fatalf("after %d bytes: %v", got.Len(), err)
			}
			if f.Type == nplt.ChatText {
				if len(f.Payload) == 0 {
					break
				}
				got.Write(f.Payload)
			}
		}
		<-wrote
		if !strings.Contains(got.String(), msg) {
			t.Fatalf("reply cut: %d bytes", got.Len())
		}
		if elapsed := time.Since(start); elapsed < 3*writeTimeout {
			t.Fatalf("reply took %v: too fast to exercise the write deadline", elapsed)
		}
	})
}

type slowReader struct {
	r     io.Reader
	chunk int
	pause time.Duration
}

func (s *slowReader) Read(p []byte) (int, error) {
	time.Sleep(s.pause)
	return s.r.Read(p[:min(len(p), s.chunk)])
}
