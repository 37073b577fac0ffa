package eval

import (
	"encoding/json"
	"testing"
)

func TestSubset(t *testing.T) {
	got := map[string]any{}
	if err := json.Unmarshal([]byte(`{"command":"ls","args":["-la","/tmp"],"timeout":30,"opts":{"a":1,"b":[true]},"none":null}`), &got); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		want map[string]any
		ok   bool
	}{
		{"nil want", nil, true},
		{"empty want", map[string]any{}, true},
		{"one key", map[string]any{"command": "ls"}, true},
		{"slice equal", map[string]any{"args": []any{"-la", "/tmp"}}, true},
		{"string slice", map[string]any{"args": []string{"-la", "/tmp"}}, true},
		{"int vs float", map[string]any{"timeout": 30}, true},
		{"float", map[string]any{"timeout": 30.0}, true},
		{"json number", map[string]any{"timeout": json.Number("30")}, true},
		{"nested map", map[string]any{"opts": map[string]any{"a": 1, "b": []any{true}}}, true},
		{"null", map[string]any{"none": nil}, true},
		{"wrong value", map[string]any{"command": "ps"}, false},
		{"missing key", map[string]any{"metric": "cpu"}, false},
		{"slice prefix", map[string]any{"args": []any{"-la"}}, false},
		{"slice order", map[string]any{"args": []any{"/tmp", "-la"}}, false},
		{"number vs string", map[string]any{"timeout": "30"}, false},
		{"other number", map[string]any{"timeout": 31}, false},
		{"nested subset is not enough", map[string]any{"opts": map[string]any{"a": 1}}, false},
		{"null vs missing", map[string]any{"absent": nil}, false},
	}
	for _, tt := range tests {
		if ok := Subset(tt.want, got); ok != tt.ok {
			t.Errorf("%s: Subset(%v) = %v, want %v", tt.name, tt.want, ok, tt.ok)
		}
	}
}
