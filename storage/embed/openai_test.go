package embed

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"opsassist/internal/oaretry"
)

// fakeEmbeddings serves /v1/embeddings: vector i is [len(input i), i, 1…].
func fakeEmbeddings(t *testing.T, dim int, fail func(n int) int) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(calls.Add(1))
		if r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer sk-test" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if code := fail(n); code != 0 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(code)
			w.Write([]byte(`{"error":{"message":"try later"}}`))
			return
		}
		var req struct {
			Input []string `json:"input"`
			Model string   `json:"model"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		// Answer in reverse order: the client must sort by index.
		for i := len(req.Input) - 1; i >= 0; i-- {
			v := make([]float32, dim)
			v[0], v[1] = float32(len(req.Input[i])), float32(i)
			data = append(data, item{"embedding", i, v})
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func newTestOpenAI(t *testing.T, url string, dim int) *OpenAI {
	e, err := NewOpenAI(OpenAIConfig{BaseURL: url + "/v1", APIKey: "sk-test", Model: "m", Dim: dim, BatchSize: 2,
		Backoff: oaretry.Backoff{Base: time.Millisecond, Max: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestOpenAIBatchesAndOrders(t *testing.T) {
	srv, calls := fakeEmbeddings(t, 4, func(int) int { return 0 })
	e := newTestOpenAI(t, srv.URL, 4)
	vecs, err := e.Embed(context.Background(), []string{"a", "bb", "ccc", "", "eeeee"})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 3 {
		t.Fatalf("%d requests for 5 texts in batches of 2", calls.Load())
	}
	for i, want := range []float32{1, 2, 3, 1, 5} {
		if vecs[i][0] != want || vecs[i][1] != float32(i%2) {
			t.Fatalf("vector %d = %v", i, vecs[i])
		}
	}
	if e.Name() != "openai-m-4" || e.Dim() != 4 {
		t.Fatal(e.Name())
	}
}

func TestOpenAIRetriesThenSucceeds(t *testing.T) {
	srv, calls := fakeEmbeddings(t, 4, func(n int) int {
		if n <= 2 {
			return http.StatusTooManyRequests
		}
		return 0
	})
	if _, err := newTestOpenAI(t, srv.URL, 4).Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 3 {
		t.Fatalf("calls = %d", calls.Load())
	}
}

func TestOpenAIDoesNotRetryClientErrors(t *testing.T) {
	srv, calls := fakeEmbeddings(t, 4, func(int) int { return http.StatusUnauthorized })
	if _, err := newTestOpenAI(t, srv.URL, 4).Embed(context.Background(), []string{"x"}); err == nil {
		t.Fatal("no error")
	}
	if calls.Load() != 1 {
		t.Fatalf("calls = %d", calls.Load())
	}
}

func TestOpenAIWrongDimension(t *testing.T) {
	srv, _ := fakeEmbeddings(t, 3, func(int) int { return 0 })
	_, err := newTestOpenAI(t, srv.URL, 4).Embed(context.Background(), []string{"x"})
	if !errors.Is(err, ErrBadResponse) {
		t.Fatalf("err = %v", err)
	}
}
