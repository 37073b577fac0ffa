package embed

import (
	"context"
	"math"
)

// Embedder maps texts to fixed-size vectors. Implementations must be safe
// for concurrent use.
type Embedder interface {
	// Embed returns one vector of length Dim for each text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Dim returns the vector dimension.
	Dim() int
	// Name identifies the embedder, including its dimension, for example
	// "builtin-hash-v1-768".
	Name() string
}

// Cosine returns the cosine similarity of a and b. It returns 0 when the
// lengths differ or either vector is zero.
func Cosine(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return float32(dot / math.Sqrt(na*nb))
}
