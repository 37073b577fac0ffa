package nplt

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// TestDocHexExamples checks that the hex examples in docs/protocol/nplt.md
// are what the codec produces.
func TestDocHexExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/protocol/nplt.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := []Frame{
		{Type: ChatText, Seq: 0, Payload: []byte("hi")},
		{Type: ChatText, Seq: 9},
		{Type: AgentThought, Seq: 1, Payload: []byte(`{"type":"stream_start"}`)},
		{Type: FileMetadata, Seq: 2, Payload: []byte(`{"filename":"a.txt","size":3}`)},
		{Type: FileData, Seq: 3, Payload: []byte("abc")},
		{Type: ToolList, Seq: 4},
		{Type: ToolCall, Seq: 5, Payload: []byte(`{"name":"sys_monitor"}`)},
		{Type: SessionExport, Seq: 6, Payload: []byte(`{"session_id":"3f2a","format":"md"}`)},
	}
	for _, f := range examples {
		b, err := f.Append(nil)
		if err != nil {
			t.Fatal(err)
		}
		h := hex.EncodeToString(b)
		var spaced []string
		for i := 0; i < len(h); i += 2 {
			spaced = append(spaced, h[i:i+2])
		}
		want := strings.Join(spaced, " ")
		if !strings.Contains(string(doc), want) {
			t.Errorf("docs/protocol/nplt.md lacks the hex of %v seq %d: %s", f.Type, f.Seq, want)
		}
	}
}
