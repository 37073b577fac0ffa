package npltserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"opsassist/api"
	"opsassist/nplt"
)

// fileMetaWire is FILE_METADATA as it arrives. The size is kept raw so a
// missing, quoted, fractional or out-of-range size can be told apart from
// a payload that is not JSON at all.
type fileMetaWire struct {
	Filename string          `json:"filename"`
	Size     json.RawMessage `json:"size"`
	SHA256   string          `json:"sha256"`
}

// metaError is a refused FILE_METADATA: the protocol code and the message
// the client reads.
type metaError struct {
	code string
	msg  string
}

func (e *metaError) Error() string { return e.code + ": " + e.msg }

// maxQuoted caps how much of a bad value an error message repeats.
const maxQuoted = 40

// parseFileMeta decodes a FILE_METADATA payload. A payload that is not a
// JSON object of the right shape is bad_json; a size that is missing,
// null, a string, fractional, written with an exponent, negative or
// beyond a signed 64-bit integer is bad_request. Published clients send
// {"filename","size"} with size a JSON integer, which is all that is
// accepted.
func parseFileMeta(b []byte) (nplt.FileMeta, *metaError) {
	var w fileMetaWire
	if err := unmarshalStrict(b, &w); err != nil {
		return nplt.FileMeta{}, &metaError{api.CodeBadJSON, `FILE_METADATA wants JSON {"filename","size","sha256"?}: ` + err.Error()}
	}
	size, err := parseSize(w.Size)
	if err != nil {
		return nplt.FileMeta{}, err
	}
	return nplt.FileMeta{Filename: w.Filename, Size: size, SHA256: w.SHA256}, nil
}

// parseSize reads FILE_METADATA's size: a JSON integer from 0 to the
// largest int64, in plain decimal, without a minus sign (-0 included).
func parseSize(raw json.RawMessage) (int64, *metaError) {
	raw = bytes.TrimSpace(raw)
	bad := func(why string) *metaError {
		return &metaError{api.CodeBadRequest, fmt.Sprintf(`FILE_METADATA "size" must be the file's length in bytes, a whole number from 0 up (文件大小 size 必须是非负整数): %s`, why)}
	}
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return 0, bad("size is missing")
	case raw[0] == '"':
		return 0, bad("got a string, " + cutBytes(string(raw), maxQuoted))
	case raw[0] != '-' && (raw[0] < '0' || raw[0] > '9'):
		return 0, bad("got " + cutBytes(string(raw), maxQuoted))
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err == nil && n >= 0 && raw[0] != '-' { // -0 is negative as written
		return n, nil
	}
	why := "got " + cutBytes(string(raw), maxQuoted)
	if errors.Is(err, strconv.ErrRange) && raw[0] != '-' {
		why += ", beyond any file size"
	}
	return 0, bad(why)
}
