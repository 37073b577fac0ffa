package npltserver

import (
	"errors"
	"strings"
	"testing"

	"opsassist/api"
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
		{`{"filename":"a.txt","size":-0}`, 0, api.CodeBadRequest, "got -0"},
		{` {"size": 9223372036854775807, "filename":"a"} `, 1<<63 - 1, "", ""},
		{`{"filename":"a.txt","size":"123"}`, 0, api.CodeBadRequest, `got a string, "123"`},
		{`{"filename":"a.txt"}`, 0, api.CodeBadRequest, "size is missing"},
		{`{"filename":"a.txt","size":null}`, 0, api.CodeBadRequest, "size is missing"},
		{`{"filename":"a.txt","size":-1}`, 0, api.CodeBadRequest, "got -1"},
		{`{"filename":"a.txt","size":1.5}`, 0, api.CodeBadRequest, "got 1.5"},
		{`{"filename":"a.txt","size":2.0}`, 0, api.CodeBadRequest, "got 2.0"},
		{`{"filename":"a.txt","size":1e3}`, 0, api.CodeBadRequest, "got 1e3"},
		{`{"filename":"a.txt","size":9223372036854775808}`, 0, api.CodeBadRequest, "beyond any file size"},
		{`{"filename":"a.txt","size":-9223372036854775809}`, 0, api.CodeBadRequest, "got -9223372036854775809"},
		{`{"filename":"a.txt","size":` + strings.Repeat("9", 500) + `}`, 0, api.CodeBadRequest, "…[truncated]"},
		{`{"filename":"a.txt","size":[1]}`, 0, api.CodeBadRequest, "got [1]"},
		{`{"filename":"a.txt","size":false}`, 0, api.CodeBadRequest, "got false"},
		{`{"filename":1,"size":1}`, 0, api.CodeBadJSON, "FILE_METADATA wants JSON"},
		{`{"filename":"a","size":1}{}`, 0, api.CodeBadJSON, "trailing data"},
		{`{"filename":"a","size":1} ]`, 0, api.CodeBadJSON, "trailing data"},
		{"{\"filename\":\"a\",\"size\":1}\t]", 0, api.CodeBadJSON, "trailing data"},
		{"{\"filename\":\"a.txt\",\"size\":3} \r\n\t", 3, "", ""},
		{`"a.txt"`, 0, api.CodeBadJSON, ""},
		{``, 0, api.CodeBadJSON, ""},
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
		if tt.code == api.CodeBadRequest && !strings.Contains(me.msg, `"size"`) {
			t.Errorf("%s: message %q does not name the size", tt.payload, me.msg)
		}
	}
}
