package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"opsassist/storage/history"
)

// DefaultExportBudget is Config.ExportBudget's default: the bytes all
// exports being built or sent may hold at once, over every transport.
const DefaultExportBudget = 96 << 20

// errExportOver is exportBuf's error once a write would pass its limit.
var errExportOver = errors.New("chat: export over its limit")

// exportBuf is one export's bytes, built in a single buffer allocated
// for its expected size, that never grows past limit: a write that would
// pass it is dropped, and so is every later one (over reports it).
type exportBuf struct {
	b     []byte
	limit int
	over  bool
}

func newExportBuf(size, limit int) *exportBuf {
	return &exportBuf{b: make([]byte, 0, min(size, limit)), limit: limit}
}

func (w *exportBuf) Write(p []byte) (int, error) {
	if w.over || len(w.b)+len(p) > w.limit {
		w.over = true
		return 0, errExportOver
	}
	w.b = append(w.b, p...)
	return len(p), nil
}

func (w *exportBuf) WriteString(s string) (int, error) {
	if w.over || len(w.b)+len(s) > w.limit {
		w.over = true
		return 0, errExportOver
	}
	w.b = append(w.b, s...)
	return len(s), nil
}

// Overheads of exportEstimate, generous: each holds the text a
// format adds around one item.
const (
	estDoc     = 1 << 10 // title line, header, JSON summary and brackets
	estMessage = 256     // a heading, or a message's JSON keys and time
	estUpload  = 256
	estToolMD  = 2*(transcriptToolRunes*utf8Max+8) + 64 // a tool line: cut arguments and result
	estToolRec = 64                                     // a tool call's JSON keys
	utf8Max    = 4
)

// exportEstimate sizes an export without building it, from the stored
// strings. floor is a size the export certainly reaches — the text it
// reproduces: for md the user and assistant text, for json every stored
// string as JSON escapes it (jsonStringLen), without quotes and keys —
// so an export whose floor passes MaxExport is refused unbuilt. size is
// what to reserve for it: floor plus generous overheads per document,
// message, tool call and upload; an upper bound but for a title, model
// or file name long and full of escapes, for which the builder asks for
// more (Session.ExportTo).
func exportEstimate(format string, sum history.Summary, msgs []history.Message, ups []history.Upload) (floor, size int) {
	size = estDoc + 6*len(sum.Title) + len(sum.ID) + len(sum.Model)
	for _, u := range ups {
		size += estUpload + 6*len(u.Filename) + len(u.FileID) + len(u.SHA256)
	}
	for _, m := range msgs {
		switch format {
		case ExportMarkdown:
			if m.Role != "user" && m.Role != "assistant" {
				continue
			}
			n := len(strings.TrimRight(m.Content, "\n"))
			floor += n
			size += estMessage + n
			for _, tc := range m.ToolCalls {
				size += estToolMD + len(tc.Name)
			}
		default:
			n := jsonStringLen(m.Content) + jsonStringLen(m.Full) + jsonStringLen(m.ToolCallID) + jsonStringLen(m.Name) + jsonStringLen(m.Role)
			for _, tc := range m.ToolCalls {
				n += jsonStringLen(tc.ID) + jsonStringLen(tc.Name) + jsonStringLen(tc.Arguments)
				size += estToolRec
			}
			floor += n
			size += estMessage + n
		}
	}
	return floor, size
}

// jsonStringLen is the length of s as encoding/json writes it (HTML
// escaping on, as json.Marshal does), without the quotes: " and \ and
// \b \f \n \r \t take two bytes; other control characters, <, > and &
// six (\u00XX); an invalid UTF-8 byte six (\ufffd), U+2028 and U+2029
// six; everything else its own bytes. It reads s once and allocates
// nothing.
func jsonStringLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '"' || b == '\\' || b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
				n += 2
			case b < 0x20 || b == '<' || b == '>' || b == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

// buildExport writes the export in format into one buffer of at most
// limit bytes, allocated for size; errExportOver if it would pass limit.
// The JSON export is written a message at a time: the same bytes as
// json.Marshal of the whole document, without holding them twice.
func buildExport(format string, sum history.Summary, msgs []history.Message, ups []history.Upload, size, limit int) ([]byte, error) {
	w := newExportBuf(size, limit)
	if format == ExportMarkdown {
		writeTranscript(w, sum, msgs, ups)
	} else if err := writeJSONExport(w, sum, msgs, ups); err != nil {
		return nil, err
	}
	if w.over {
		return nil, errExportOver
	}
	return w.b, nil
}

// writeJSONExport writes {"messages":[…],"session":…,"uploads":[…]} and
// a newline, as json.Marshal would write the document.
func writeJSONExport(w *exportBuf, sum history.Summary, msgs []history.Message, ups []history.Upload) error {
	w.WriteString(`{"messages":[`)
	for i, m := range msgs {
		if i > 0 {
			w.WriteString(",")
		}
		j, err := json.Marshal(m)
		if err != nil {
			return fmt.Errorf("encoding the export: %w", err)
		}
		if _, err := w.Write(j); err != nil {
			return nil // over: the caller reports it
		}
	}
	w.WriteString(`],"session":`)
	j, err := json.Marshal(sum)
	if err != nil {
		return fmt.Errorf("encoding the export: %w", err)
	}
	w.Write(j)
	w.WriteString(`,"uploads":`)
	if j, err = json.Marshal(ExportFiles(ups)); err != nil {
		return fmt.Errorf("encoding the export: %w", err)
	}
	w.Write(j)
	w.WriteString("}\n")
	return nil
}

// byteBudget bounds the bytes held by exports at once, over all
// transports: take reserves n bytes or reports that they are not free;
// give returns them. It never waits: an export over it is refused
// (server_busy), the client tries again.
//
// One principal holds at most a third of it, so a client that reads its
// exports slowly cannot keep everyone else's refused.
type byteBudget struct {
	mu        sync.Mutex
	used, max int64
	by        map[string]int64 // principal ID → bytes held
}

func (b *byteBudget) take(principal string, n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.max || b.by[principal]+n > max(b.max/3, MaxExport) {
		return false
	}
	if b.by == nil {
		b.by = make(map[string]int64)
	}
	b.used += n
	b.by[principal] += n
	return true
}

func (b *byteBudget) give(principal string, n int64) {
	b.mu.Lock()
	b.used -= n
	if b.by[principal] -= n; b.by[principal] <= 0 {
		delete(b.by, principal)
	}
	b.mu.Unlock()
}

// The pace a client must keep to receive an export (ExportSendTime).
const (
	// ExportMinRate is the slowest rate, in bytes per second, an
	// export is sent at: 64 KiB/s.
	ExportMinRate = 64 << 10
	// ExportMinSendTime is the least time sending an export may take,
	// however small.
	ExportMinSendTime = 30 * time.Second
)

// ExportSendTime is how long sending an export of size bytes may take in
// total: size at ExportMinRate, at least ExportMinSendTime. A transport
// whose client takes longer gives up the export — and the export budget
// it holds (Session.ExportTo) — and closes the connection, so a reader
// that accepts a byte a second cannot hold the budget for hours.
func ExportSendTime(size int) time.Duration {
	return max(ExportMinSendTime, time.Duration(size)*time.Second/ExportMinRate)
}
