package index

import "math"

// vectors holds the chunk vectors of one file, quantised to 8 bits: chunk
// i's vector is q[i*dim:(i+1)*dim] times scale[i], and has length 1.
//
// A float32 vector of 768 dimensions takes 3 KiB, six times the 500 runes
// of English text it stands for; its 8-bit form takes 772 bytes. Ranking
// by the quantised vectors changes cosine similarities by well under 1%
// (a test bounds it), and the retrieval evals score the same.
type vectors struct {
	dim   int
	q     []int8
	scale []float32
}

// quantize returns the vectors of chunks, each scaled to unit length
// first. Every vector must have dimension dim and a finite, non-zero
// length (validate checks).
func quantize(chunks []Chunk, dim int) vectors {
	v := vectors{dim: dim, q: make([]int8, 0, len(chunks)*dim), scale: make([]float32, 0, len(chunks))}
	for _, c := range chunks {
		v.add(c.Embedding)
	}
	return v
}

// add appends the quantised form of e.
func (v *vectors) add(e []float32) {
	var sq, peak float64
	for _, x := range e {
		sq += float64(x) * float64(x)
		peak = max(peak, math.Abs(float64(x)))
	}
	if peak == 0 || sq == 0 {
		v.q = append(v.q, make([]int8, v.dim)...)
		v.scale = append(v.scale, 0)
		return
	}
	step := peak / 127
	var qsq float64
	for _, x := range e {
		r := math.Round(float64(x) / step)
		v.q = append(v.q, int8(r))
		qsq += r * r
	}
	// Scale so the stored vector (q times scale) has length 1: cosine
	// similarity with a unit query is then its dot product.
	v.scale = append(v.scale, float32(1/math.Sqrt(qsq)))
}

// len returns the number of vectors.
func (v *vectors) len() int { return len(v.scale) }

// chunk returns the quantised components of vector i.
func (v *vectors) chunk(i int) []int8 { return v.q[i*v.dim : (i+1)*v.dim : (i+1)*v.dim] }

// dot returns the cosine similarity of the unit vector a and vector i.
func (v *vectors) dot(i int, a []float32) float32 {
	b := v.chunk(i)
	if len(a) != len(b) {
		return 0
	}
	return dot8(a, b) * v.scale[i]
}

// dot8 is the dot product of a float32 and an int8 vector of the same
// length: eight independent accumulators, so the additions do not wait on
// each other.
func dot8(a []float32, b []int8) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		a8, b8 := a[i:i+8:i+8], b[i:i+8:i+8]
		s0 += a8[0] * float32(b8[0])
		s1 += a8[1] * float32(b8[1])
		s2 += a8[2] * float32(b8[2])
		s3 += a8[3] * float32(b8[3])
		s4 += a8[4] * float32(b8[4])
		s5 += a8[5] * float32(b8[5])
		s6 += a8[6] * float32(b8[6])
		s7 += a8[7] * float32(b8[7])
	}
	for ; i < len(a); i++ {
		s0 += a[i] * float32(b[i])
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}
