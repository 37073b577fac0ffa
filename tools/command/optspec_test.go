package command

import (
	"errors"
	"reflect"
	"testing"
)

func TestClassify(t *testing.T) {
	F, M, P := argFile, argMaybeFile, argPattern
	tests := []struct {
		cmd  string
		args []string
		want []classified
	}{
		{"cat", []string{"-n", "a", "-", "--", "-b"}, []classified{{"a", F}, {"-", F}, {"-b", F}}},
		{"head", []string{"-n", "5", "a"}, []classified{{"a", F}}},
		{"head", []string{"-n5", "a", "--lines", "3"}, []classified{{"a", F}}},
		{"head", []string{"--li", "3", "a"}, []classified{{"3", F}, {"a", F}}},
		{"grep", []string{"-n", "pat", "a", "b"}, []classified{{"pat", P}, {"a", F}, {"b", F}}},
		{"grep", []string{"-m", "2", "pat", "a"}, []classified{{"pat", P}, {"a", F}}},
		{"grep", []string{"pat", "a", "-e", "x"}, []classified{{"pat", F}, {"a", F}}},
		{"grep", []string{"-nepat", "a"}, []classified{{"a", F}}},
		{"grep", []string{"-f", "pats", "a"}, []classified{{"pats", F}, {"a", F}}},
		{"grep", []string{"-fpats", "a"}, []classified{{"pats", F}, {"a", F}}},
		{"grep", []string{"--file", "pats", "a"}, []classified{{"pats", F}, {"a", F}}},
		{"grep", []string{"--include=*.go", "--exclude-dir", ".ssh", "pat", "a"}, []classified{{"pat", P}, {"a", F}}},
		{"grep", []string{"--exclude-f=x", "pat"}, []classified{{"x", F}, {"pat", P}}},
		{"grep", []string{"--bogus=/x", "pat"}, []classified{{"/x", M}, {"pat", P}}},
		{"ls", []string{"-I", "*.txt", "-w80", "d"}, []classified{{"d", F}}},
		{"ps", []string{"-o", "pid,user", "aux", "-p", "1"}, []classified{{"aux", M}}},
		{"ps", []string{"axo", "pid,user"}, []classified{{"axo", M}, {"pid,user", M}}},
		{"free", []string{"-s", "1", "-h"}, nil},
		{"pwd", []string{"x", "-P"}, []classified{{"x", M}}},
		{"mytool", []string{"-f/x", "y"}, []classified{{"f/x", M}, {"/x", M}, {"x", M}, {"y", M}}},
	}
	for _, tt := range tests {
		got, err := optSpecFor(tt.cmd).classify(tt.args)
		if err != nil {
			t.Errorf("%s %q: %v", tt.cmd, tt.args, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %q = %v, want %v", tt.cmd, tt.args, got, tt.want)
		}
	}
}

func TestClassifyDenied(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		args []string
	}{
		{"tail", []string{"-f"}},
		{"tail", []string{"--f"}},
		{"grep", []string{"-inr", "x"}},
		{"grep", []string{"--directories", "recurse"}},
		{"ls", []string{"--deref"}},
		{"ps", []string{"ae"}},
	} {
		if _, err := optSpecFor(tt.cmd).classify(tt.args); !errors.Is(err, ErrOptionDenied) {
			t.Errorf("%s %q: %v, want ErrOptionDenied", tt.cmd, tt.args, err)
		}
	}
}
