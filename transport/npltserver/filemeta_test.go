package npltserver

import (
	"errors"
	"strings"
	"testing"

	"opsassist/nplt"
)

func TestParseFileMeta(t *testing.T) {
	tests := []struct {
		payload string
		size    int64
		code    string // "" = accepted
		says    string // in the message of a refusal
	}{
		{`{"filename":"a.txt","size":123}`, 123, "", ""},
		{`{"filename":"a.txt","size":0,"sha256":""}`, 0, "", ""},
		{`{"filename":"a.txt","size":-0}`, 0, nplt.CodeBadRequest, "got -0"},
		{` {"size": 9223372036854775807, "filename":"a"} `, 1<<63 - 1, "", ""},
		{`{"filename":"a.txt","size":"123"}`, 0, nplt.CodeBadRequest, `got a string, "123"`},
		{`{"filename":"a.txt"}`, 0, nplt.CodeBadRequest, "size is missing"},
		{`{"filename":"a.txt","size":null}`, 0, nplt.CodeBadRequest, "size is missing"},
		{`{"filename":"a.txt","size":-1}`, 0, nplt.CodeBadRequest, "got -1"},
		{`{"filename":"a.txt","size":1.5}`, 0, nplt.CodeBadRequest, "got 1.5"},
		{`{"filename":"a.txt","size":2.0}`, 0, nplt.CodeBadRequest, "got 2.0"},
		{`{"filename":"a.txt","size":1e3}`, 0, nplt.CodeBadRequest, "got 1e3"},
		{`{"filename":"a.txt","size":9223372036854775808}`, 0, nplt.CodeBadRequest, "beyond any file size"},
		{`{"filename":"a.txt","size":-9223372036854775809}`, 0, nplt.CodeBadRequest, "got -9223372036854775809"},
		{`{"filename":"a.txt","size":` + strings.Repeat("9", 500) + `}`, 0, nplt.CodeBadRequest, "…[truncated]"},
		{`{"filename":"a.txt","size":[1]}`, 0, nplt.CodeBadRequest, "got [1]"},
		{`{"filename":"a.txt","size":false}`, 0, nplt.CodeBadRequest, "got false"},
		{`{"filename":1,"size":1}`, 0, nplt.CodeBadJSON, "FILE_METADATA wants JSON"},
		{`{"filename":"a","size":1}{}`, 0, nplt.CodeBadJSON, "trailing data"},
		{`"a.txt"`, 0, nplt.CodeBadJSON, ""},
		{``, 0, nplt.CodeBadJSON, ""},
	}
	for _, tt := range tests {
		m, err := parseFileMeta([]byte(tt.payload))
		if tt.code == "" {
			if err != nil || m.Size != tt.size {
				t.Errorf("%s: %+v, %v; want size %d", tt.payload, m, err, tt.size)
			}
			continue
		}
		var me *metaError
		if !errors.As(err, &me) || me.code != tt.code {
			t.Errorf("%s: error %v, want code %s", tt.payload, err, tt.code)
			continue
		}
		if !strings.Contains(me.msg, tt.says) || strings.Contains(me.msg, "uploads:") || len(me.msg) > 300 {
			t.Errorf("%s: message %q, want it to say %q", tt.payload, me.msg, tt.says)
		}
		if tt.code == nplt.CodeBadRequest && !strings.Contains(me.msg, `"size"`) {
			t.Errorf("%s: message %q does not name the size", tt.payload, me.msg)
		}
	}
}
