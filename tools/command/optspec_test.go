package command

import (
	"errors"
	"reflect"
	"testing"
)

// ak is a classified argument without its position.
type ak struct {
	arg  string
	kind argKind
}

func TestClassify(t *testing.T) {
	F, M, P := argFile, argMaybeFile, argPattern
	tests := []struct {
		cmd  string
		args []string
		want []ak
	}{
		{"cat", []string{"-n", "a", "-", "--", "-b"}, []ak{{"a", F}, {"-", F}, {"-b", F}}},
		{"head", []string{"-n", "5", "a"}, []ak{{"a", F}}},
		{"head", []string{"-n5", "a", "--lines", "3"}, []ak{{"a", F}}},
		{"head", []string{"--li", "3", "a"}, []ak{{"3", F}, {"a", F}}},
		{"grep", []string{"-n", "pat", "a", "b"}, []ak{{"pat", P}, {"a", F}, {"b", F}}},
		{"grep", []string{"-m", "2", "pat", "a"}, []ak{{"pat", P}, {"a", F}}},
		{"grep", []string{"pat", "a", "-e", "x"}, []ak{{"pat", F}, {"a", F}}},
		{"grep", []string{"-nepat", "a"}, []ak{{"a", F}}},
		{"grep", []string{"-f", "pats", "a"}, []ak{{"pats", F}, {"a", F}}},
		{"grep", []string{"-fpats", "a"}, []ak{{"pats", F}, {"a", F}}},
		{"grep", []string{"--file", "pats", "a"}, []ak{{"pats", F}, {"a", F}}},
		{"grep", []string{"--include=*.go", "--exclude-dir", ".ssh", "pat", "a"}, []ak{{"pat", P}, {"a", F}}},
		{"grep", []string{"--exclude-f=x", "pat"}, []ak{{"x", F}, {"pat", P}}},
		{"grep", []string{"--bogus=/x", "pat"}, []ak{{"/x", M}, {"pat", P}}},
		{"ls", []string{"-I", "*.txt", "-w80", "d"}, []ak{{"d", F}}},
		{"ps", []string{"-o", "pid,user", "aux", "-p", "1"}, nil},
		{"ps", []string{"axo", "pid,user"}, nil},
		{"free", []string{"-h", "--si", "-w"}, nil},
		{"pwd", []string{"x", "-P"}, []ak{{"x", M}}},
		{"mytool", []string{"-f/x", "y"}, []ak{{"f/x", M}, {"/x", M}, {"x", M}, {"y", M}}},
	}
	for _, tt := range tests {
		got, err := optSpecFor(tt.cmd).classify(tt.args)
		if err != nil {
			t.Errorf("%s %q: %v", tt.cmd, tt.args, err)
			continue
		}
		var gotAK []ak
		for _, c := range got {
			gotAK = append(gotAK, ak{c.arg, c.kind})
			if tt.args[c.idx] != c.prefix+c.arg {
				t.Errorf("%s %q: %+v does not point at its argument", tt.cmd, tt.args, c)
			}
		}
		if !reflect.DeepEqual(gotAK, tt.want) {
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

// TestFollowAndLoopSpellings lists every way of making tail follow or
// free repeat that GNU getopt, tail's obsolete syntax or procps accept,
// and the harmless spellings next to them that must still run.
func TestFollowAndLoopSpellings(t *testing.T) {
	denied := map[string][][]string{
		"tail": {
			{"-f"}, {"-F"}, {"-f", "x"}, {"x", "-f"}, {"-qf", "x"}, {"-fq", "x"}, {"-Fq", "x"}, {"-vF", "x"},
			{"-nf", "x"}, {"-fn10", "x"}, {"-n10f", "x"}, {"-cf", "x"}, {"-c5f", "x"}, {"-5f", "x"}, {"-10lf", "x"},
			{"+f", "x"}, {"+5f", "x"}, {"+10cf", "x"}, {"+bf", "x"}, {"+lf"}, {"x", "+f"},
			{"--follow", "x"}, {"--follow=name", "x"}, {"--follow=descriptor", "x"}, {"--fol", "x"}, {"--fo=name", "x"}, {"--f", "x"},
			{"-s", "1", "x"}, {"-s1", "x"}, {"-qs1", "x"}, {"--sleep-interval=1", "x"}, {"--sleep", "1", "x"}, {"--s", "1", "x"},
			{"--pid", "1", "x"}, {"--pid=1", "x"}, {"--p=1", "x"},
			{"--retry", "x"}, {"--ret", "x"}, {"--r", "x"},
			{"--max-unchanged-stats=5", "x"}, {"--max", "5", "x"},
		},
		"free": {
			{"-s", "1"}, {"-s1"}, {"-hs", "1"}, {"-c", "3"}, {"-c3"}, {"-hc3"}, {"--seconds", "1"}, {"--seconds=1"},
			{"--sec=1"}, {"--se", "1"}, {"--count=3"}, {"--cou", "3"}, {"--co=3"},
		},
		"ps":   {{"e"}, {"auxe"}, {"aux", "eww"}, {"axe"}},
		"grep": {{"-r", "x"}, {"-R", "x"}, {"-inr", "x"}, {"--recursive", "x"}, {"--rec", "x"}, {"-d", "recurse", "x"}, {"-drecurse", "x"}, {"--directories=recurse", "x"}, {"--dereference-recursive", "x"}},
		"ls":   {{"-L"}, {"-lRL"}, {"--dereference"}, {"--deref"}, {"--dereference-command-line-symlink-to-dir"}},
	}
	for cmd, cases := range denied {
		for _, args := range cases {
			if _, err := optSpecFor(cmd).classify(args); !errors.Is(err, ErrOptionDenied) {
				t.Errorf("%s %q: %v, want ErrOptionDenied", cmd, args, err)
			}
		}
	}
	allowed := map[string][][]string{
		"tail": {{"-n", "5", "x"}, {"-n5", "x"}, {"-5", "x"}, {"+5", "x"}, {"-c", "10", "x"}, {"-c10K", "x"}, {"-q", "x"}, {"-v", "x"},
			{"--lines=5", "x"}, {"--bytes", "10", "x"}, {"-n", "+2", "x"}, {"-z", "x"}, {"--", "+f"}},
		"free": {{}, {"-h"}, {"-m"}, {"--si"}, {"-w"}, {"--wide"}, {"-t"}, {"--committed"}, {"-L"}},
		"ps":   {{"aux"}, {"-ef"}, {"-e", "-o", "pid,comm"}, {"axo", "pid,user"}},
	}
	for cmd, cases := range allowed {
		for _, args := range cases {
			if _, err := optSpecFor(cmd).classify(args); err != nil {
				t.Errorf("%s %q: %v, want accepted", cmd, args, err)
			}
		}
	}
}

func TestIsObsoleteFollow(t *testing.T) {
	for a, want := range map[string]bool{
		"+f": true, "-f": true, "+5f": true, "-10lf": true, "+cf": true, "-bf": true, "+12bf": true,
		"+5": false, "-5": false, "+": false, "f": false, "+ff": false, "+5x": false, "+lcf": false, "--f": false,
	} {
		if got := isObsoleteFollow(a); got != want {
			t.Errorf("isObsoleteFollow(%q) = %v, want %v", a, got, want)
		}
	}
}

// TestDenialText: a refused option is explained to the user without the
// package prefix of the sentinel.
func TestDenialText(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"tail", []string{"+f", "x"}, "option +f of tail is not allowed: it would keep tail running until it is killed (following the file)"},
		{"tail", []string{"--fol", "x"}, "option --fol of tail is not allowed: it would keep tail running until it is killed (following the file)"},
		{"free", []string{"-s", "1"}, "option -s of free is not allowed: it repeats the report instead of printing it once"},
		{"ps", []string{"auxe"}, "option e of ps is not allowed: it prints the environment of other processes, which holds secrets"},
	} {
		_, err := optSpecFor(tt.cmd).classify(tt.args)
		if !errors.Is(err, ErrOptionDenied) || err.Error() != tt.want {
			t.Errorf("%s %q: %q, want %q", tt.cmd, tt.args, err, tt.want)
		}
	}
}

func TestObsoleteTail(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{
		{[]string{"+5", "x"}, true}, {[]string{"+5"}, true}, {[]string{"+"}, true}, {[]string{"-5", "x"}, true},
		{[]string{"+5c", "x"}, true}, {[]string{"+5", "--", "x"}, true}, {[]string{"+5", "--"}, true},
		{[]string{"+5", "x", "y"}, false}, {[]string{"+5", "-n1"}, false}, {[]string{"+5", "-"}, true},
		{[]string{"+x", "y"}, false}, {[]string{"x", "+5"}, false}, {[]string{"-"}, false}, {[]string{"-c", "5"}, false},
		{[]string{"+5x"}, false},
	} {
		if got := obsoleteTail(tt.args); got != tt.want {
			t.Errorf("obsoleteTail(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
	// "+5" before one file is an option: only the file is checked.
	got, err := optSpecFor("tail").classify([]string{"+5", "x"})
	if err != nil || len(got) != 1 || got[0].arg != "x" || got[0].kind != argFile {
		t.Errorf("tail +5 x: %+v, %v", got, err)
	}
	// Before two files it is a file name.
	got, err = optSpecFor("tail").classify([]string{"+5", "x", "y"})
	if err != nil || len(got) != 3 || got[0].arg != "+5" || got[0].kind != argFile {
		t.Errorf("tail +5 x y: %+v, %v", got, err)
	}
}
