package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"opsassist/internal/runecut"
	"opsassist/tools"
)

// Size bounds of one record, so that one line stays small and Verify can
// refuse longer lines without reading them whole.
const (
	// MaxArgs is the longest arguments object kept as it is, in bytes of
	// compact JSON; longer ones are replaced by {"truncated": true,
	// "sha256": "<hex of the compact JSON>"}.
	MaxArgs = 8 << 10
	// MaxError is the longest error text kept, in bytes, cut on a rune
	// boundary.
	MaxError = 512
	// MaxField is the longest user, role, session, client, tool call id,
	// tool, decision, decider, rule, loop decider, status or error class kept, in
	// bytes, cut on a rune boundary.
	MaxField = 256
	// MaxLine is the longest line a record may take, newline excluded.
	// Record never writes a longer one (the bounds above keep a record
	// far below it); Verify reports a longer line as a broken record.
	MaxLine = 64 << 10
)

// zeroHash is the "prev" of the first record ever.
var zeroHash = strings.Repeat("0", 64)

// EventRecovered is the "event" of the record Open appends after it cut
// away a line torn by a crash.
const EventRecovered = "recovered"

// callLine is a call record as written: field order and names are the
// audit format (docs/configuration.md, "Audit log format").
type callLine struct {
	Seq          int64           `json:"seq"`
	Time         string          `json:"time"`
	User         string          `json:"user"`
	Role         string          `json:"role"`
	Session      string          `json:"session"`
	Client       string          `json:"client"`
	Direct       bool            `json:"direct,omitempty"`
	ToolCallID   string          `json:"tool_call_id"`
	Tool         string          `json:"tool"`
	Args         json.RawMessage `json:"args,omitempty"`
	ArgsInvalid  bool            `json:"args_invalid,omitempty"`
	Decision     string          `json:"decision"`
	DecidedBy    string          `json:"decided_by"`
	Rule         string          `json:"rule,omitempty"`
	LoopDecided  string          `json:"loop_decided_by,omitempty"`
	Status       string          `json:"status"`
	ErrorClass   string          `json:"error_class,omitempty"`
	Error        string          `json:"error,omitempty"`
	Attempts     int             `json:"attempts"`
	DurationMS   int64           `json:"duration_ms"`
	OutputBytes  int             `json:"output_bytes"`
	OutputSHA256 string          `json:"output_sha256,omitempty"`
	Prev         string          `json:"prev"`
}

// recoveredLine is the record of a repair made by Open.
type recoveredLine struct {
	Seq            int64  `json:"seq"`
	Time           string `json:"time"`
	Event          string `json:"event"`
	TruncatedBytes int64  `json:"truncated_bytes"`
	Prev           string `json:"prev"`
}

// chainFields are the fields Verify and Open read from every line.
type chainFields struct {
	Seq  *int64  `json:"seq"`
	Prev *string `json:"prev"`
}

// lineHash is the hex SHA-256 of a line without its newline.
func lineHash(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// hashField ends every sealed line: `,"hash":"` 64 hex digits `"}`.
const (
	hashPrefix = `,"hash":"`
	hashSuffix = `"}`
	sealLen    = len(hashPrefix) + 64 + len(hashSuffix)
)

// seal adds a record's own hash as its last field: the line
// {…,"prev":"P"} (newline included) becomes {…,"prev":"P","hash":"H"},
// H the hex SHA-256 of the unsealed line without its newline. The next
// record's prev is H, so an edit anywhere in a record, prev included, is
// found at that very record (its hash no longer matches), and a deleted
// record at the seq gap after it.
func seal(body []byte) (line []byte, hash string) {
	unsealed := bytes.TrimSuffix(body, []byte("\n"))
	hash = lineHash(unsealed)
	line = make([]byte, 0, len(unsealed)+sealLen+1)
	line = append(line, unsealed[:len(unsealed)-1]...) // without the closing brace
	line = append(line, hashPrefix...)
	line = append(line, hash...)
	line = append(line, hashSuffix...)
	return append(line, '\n'), hash
}

// sealedHash is the hash field of a line seal made (newline included or
// not), unchecked.
func sealedHash(line []byte) string {
	line = bytes.TrimSuffix(line, []byte("\n"))
	return string(line[len(line)-len(hashSuffix)-64 : len(line)-len(hashSuffix)])
}

// unseal checks a sealed line (without its newline) and returns its
// hash; ok is false when the line has no hash field at its end or the
// hash does not match the rest.
func unseal(line []byte) (hash string, ok bool) {
	n := len(line)
	if n < sealLen+2 || !bytes.HasSuffix(line, []byte(hashSuffix)) || !bytes.Equal(line[n-sealLen:n-sealLen+len(hashPrefix)], []byte(hashPrefix)) {
		return "", false
	}
	hash = string(line[n-len(hashSuffix)-64 : n-len(hashSuffix)])
	body := make([]byte, 0, n-sealLen+1)
	body = append(body, line[:n-sealLen]...)
	body = append(body, '}')
	return hash, lineHash(body) == hash
}

// formatTime is a record's time: RFC 3339 with nanoseconds, UTC.
func formatTime(t time.Time) string {
	return t.UTC().Format(time.RFC3339Nano)
}

// encodeCall returns r's line, newline included, with seq and prev.
func encodeCall(r tools.CallRecord, seq int64, prev string, t time.Time) ([]byte, error) {
	l := callLine{
		Seq:          seq,
		Time:         formatTime(t),
		User:         clip(r.User),
		Role:         clip(r.Role),
		Session:      clip(r.Session),
		Client:       clip(r.Client),
		Direct:       r.Direct,
		ToolCallID:   clip(r.ToolCallID),
		Tool:         clip(r.Tool),
		Decision:     clip(r.Decision),
		DecidedBy:    clip(r.DecidedBy),
		Rule:         clip(r.Rule),
		LoopDecided:  clip(r.LoopDecidedBy),
		Status:       clip(r.Status),
		ErrorClass:   clip(string(r.ErrorClass)),
		Error:        runecut.Head(r.Error, MaxError),
		Attempts:     r.Attempts,
		DurationMS:   r.Duration.Milliseconds(),
		OutputBytes:  r.OutputBytes,
		OutputSHA256: clip(r.OutputSHA256),
		Prev:         prev,
	}
	l.Args, l.ArgsInvalid = boundArgs(r.Args, r.ArgsInvalid)
	return encodeLine(l)
}

// encodeRecovered returns the line of a repair record, newline included.
func encodeRecovered(seq int64, prev string, t time.Time, truncated int64) ([]byte, error) {
	return encodeLine(recoveredLine{Seq: seq, Time: formatTime(t), Event: EventRecovered, TruncatedBytes: truncated, Prev: prev})
}

// encodeLine encodes v as one JSON line without HTML escaping.
func encodeLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("audit: encoding record: %w", err)
	}
	if b.Len()-1+sealLen > MaxLine {
		return nil, fmt.Errorf("%w: %d bytes", ErrRecordTooLarge, b.Len()-1+sealLen)
	}
	line, _ := seal(b.Bytes())
	return line, nil
}

// boundArgs returns the arguments as written: compact JSON, "{}" when
// there are none, the truncation marker when longer than MaxArgs, or
// nothing and true when they are not valid JSON.
func boundArgs(args json.RawMessage, invalid bool) (json.RawMessage, bool) {
	if invalid {
		return nil, true
	}
	if len(bytes.TrimSpace(args)) == 0 {
		return json.RawMessage("{}"), false
	}
	var b bytes.Buffer
	if err := json.Compact(&b, args); err != nil {
		return nil, true
	}
	if b.Len() > MaxArgs {
		sum := sha256.Sum256(b.Bytes())
		return json.RawMessage(`{"truncated":true,"sha256":"` + hex.EncodeToString(sum[:]) + `"}`), false
	}
	return b.Bytes(), false
}

// clip cuts a short field to MaxField bytes.
func clip(s string) string { return runecut.Head(s, MaxField) }
