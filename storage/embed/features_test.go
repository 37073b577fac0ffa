package embed

import (
	"slices"
	"testing"
)

func TestCamelSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"max", []string{"max"}},
		{"maxConnections", []string{"max", "Connections"}},
		{"HTTPServer", []string{"HTTP", "Server"}},
		{"parseJSON", []string{"parse", "JSON"}},
		{"v4Address", []string{"v4", "Address"}},
		{"ipv6", []string{"ipv6"}},
	}
	for _, tt := range tests {
		if got := camelSplit(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("camelSplit(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// featureSet returns the hashes extract produces for s.
func featureSet(s string) map[uint64]bool {
	b := newBag()
	b.extract(s)
	m := make(map[uint64]bool)
	for _, t := range b.terms {
		m[t.hash] = true
	}
	return m
}

func hashOf(kind featureKind, s string) uint64 {
	b := newBag()
	b.addString(kind, s)
	return b.terms[0].hash
}

func bigramOf(a, c string) uint64 {
	b := newBag()
	b.add(kindBigram, fnvString(fnvByte(fnvString(fnvByte(fnvOffset, byte(kindBigram)), a), ' '), c))
	return b.terms[0].hash
}

func TestExtract(t *testing.T) {
	tests := []struct {
		in      string
		want    []uint64
		notWant []uint64
	}{
		{
			in: "see config.yaml now",
			want: []uint64{hashOf(kindFile, "config.yaml"), hashOf(kindWord, "config"),
				hashOf(kindWord, "yaml"), hashOf(kindChar3, "<co"), hashOf(kindChar3, "ml>"),
				bigramOf("see", "config"), bigramOf("yaml", "now")},
			notWant: []uint64{hashOf(kindWord, "config.yaml")},
		},
		{
			in:   "max_conn maxConnections",
			want: []uint64{hashOf(kindWord, "max_conn"), hashOf(kindWord, "conn"), hashOf(kindWord, "maxconnections"), hashOf(kindWord, "connections")},
		},
		{
			in:      "Port 5432.",
			want:    []uint64{hashOf(kindWord, "port"), hashOf(kindWord, "5432"), bigramOf("port", "5432")},
			notWant: []uint64{hashOf(kindFile, "5432.")},
		},
		{
			in:      "the database port",
			want:    []uint64{bigramOf("database", "port")},
			notWant: []uint64{hashOf(kindWord, "the")},
		},
		{
			in:      "数据库端口 port",
			want:    []uint64{hashOf(kindCJKUni, "数"), hashOf(kindCJKBi, "数据"), hashOf(kindCJKBi, "端口"), hashOf(kindWord, "port")},
			notWant: []uint64{hashOf(kindCJKBi, "口p")},
		},
		{
			in:      "a {b",
			notWant: []uint64{bigramOf("a", "b")},
		},
	}
	for _, tt := range tests {
		got := featureSet(tt.in)
		for i, h := range tt.want {
			if !got[h] {
				t.Errorf("extract(%q): missing wanted feature #%d", tt.in, i)
			}
		}
		for i, h := range tt.notWant {
			if got[h] {
				t.Errorf("extract(%q): unexpected feature #%d", tt.in, i)
			}
		}
	}
}

// hashOf for char3 must match the byte-wise hashing in char3.
func TestChar3HashMatchesString(t *testing.T) {
	b := newBag()
	b.char3("ab")
	want := []uint64{hashOf(kindChar3, "<ab"), hashOf(kindChar3, "ab>")}
	if len(b.terms) != 2 || b.terms[0].hash != want[0] || b.terms[1].hash != want[1] {
		t.Fatalf("char3(ab) = %v, want hashes %v", b.terms, want)
	}
}
