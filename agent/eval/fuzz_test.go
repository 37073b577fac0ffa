package eval

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
)

// addSeeds adds the first lines of a testdata file as seeds.
func addSeeds(f *testing.F, file string, n int) {
	b, err := os.ReadFile(file)
	if err != nil {
		f.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	for i := 0; i < n && i < len(lines); i++ {
		f.Add([]byte(lines[i]), uint16(i))
	}
	f.Add(b, uint16(len(b)/2))
}

// loadSplit loads in with load twice, whole and split at cut, and fails
// t unless both agree.
func loadSplit[T any](t *testing.T, load func(io.Reader) ([]T, error), in []byte, cut uint16) ([]T, error) {
	got, err := load(bytes.NewReader(in))
	at := int(cut) % (len(in) + 1)
	got2, err2 := load(io.MultiReader(bytes.NewReader(in[:at]), bytes.NewReader(in[at:])))
	if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) || !reflect.DeepEqual(got, got2) {
		t.Fatalf("split at %d: %v, %v; whole: %v, %v", at, got2, err2, got, err)
	}
	return got, err
}

// reencode writes items back as JSON Lines.
func reencode[T any](t *testing.T, items []T) []byte {
	var b bytes.Buffer
	for _, it := range items {
		j, err := json.Marshal(it)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// FuzzLoadChains: any input loads or fails with an error, never a
// panic; what loads is valid, re-encodes and loads again to the same
// chains; the input split in two loads the same.
func FuzzLoadChains(f *testing.F) {
	addSeeds(f, "../../testdata/evals/chains.jsonl", 6)
	f.Add([]byte(`{"name":"x","steps":[{"upload":"..","content":"a"},{"say":"hi"}],"want_tools":[]}`), uint16(9))
	f.Fuzz(func(t *testing.T, in []byte, cut uint16) {
		chains, err := loadSplit(t, LoadChains, in, cut)
		if err != nil {
			return
		}
		for _, c := range chains {
			if err := c.Validate(); err != nil {
				t.Fatalf("loaded an invalid chain %+v: %v", c, err)
			}
		}
		again, err := LoadChains(bytes.NewReader(reencode(t, chains)))
		if err != nil || !reflect.DeepEqual(again, chains) {
			t.Fatalf("round trip: %+v, %v\nwant %+v", again, err, chains)
		}
	})
}

// FuzzLoad is FuzzLoadChains for the tool-selection cases.
func FuzzLoad(f *testing.F) {
	addSeeds(f, "../../testdata/evals/tool_selection.jsonl", 8)
	f.Add([]byte(`{"input":"rm -rf /","want_tool":"x","want_refuse":true}`), uint16(3))
	f.Fuzz(func(t *testing.T, in []byte, cut uint16) {
		cases, err := loadSplit(t, Load, in, cut)
		if err != nil {
			return
		}
		again, err := Load(bytes.NewReader(reencode(t, cases)))
		if err != nil || !reflect.DeepEqual(again, cases) {
			t.Fatalf("round trip: %+v, %v\nwant %+v", again, err, cases)
		}
	})
}
