package embed

import (
	"slices"
	"testing"
)

func TestGlossarySize(t *testing.T) {
	if n := len(builtinGlossary); n < 25 {
		t.Fatalf("glossary has %d entries, want >= 25", n)
	}
	for _, e := range builtinGlossary {
		if len(e.zh) == 0 || len(e.en) == 0 {
			t.Errorf("entry %v is not bilingual", e)
		}
	}
}

func TestExpand(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		notWant []string
	}{
		{"数据库端口", []string{"database", "db", "port"}, []string{"数据库", "端口"}},
		{"database port", []string{"数据库", "db", "端口"}, []string{"database", "port"}},
		{"证书过期怎么办", []string{"certificate", "tls", "expired"}, nil},
		{"找一下错误日志", []string{"error", "log", "logs"}, nil},
		{"behind the load balancer", []string{"负载均衡", "lb"}, []string{"load balancer"}},
		{"load-balancer", []string{"负载均衡"}, nil},
		{"portal login", nil, []string{"端口", "日志"}},
		{"hello", nil, nil},
	}
	for _, tt := range tests {
		got := expand(tt.in)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("expand(%q) = %q, missing %q", tt.in, got, w)
			}
		}
		for _, w := range tt.notWant {
			if slices.Contains(got, w) {
				t.Errorf("expand(%q) = %q, must not contain %q", tt.in, got, w)
			}
		}
		if tt.want == nil && tt.notWant == nil && len(got) != 0 {
			t.Errorf("expand(%q) = %q, want none", tt.in, got)
		}
	}
}
