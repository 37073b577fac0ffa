package embed

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// featureKind distinguishes feature families so that the same string seen
// as, say, a word and a character n-gram hashes to different buckets.
type featureKind uint8

const (
	kindWord   featureKind = iota + 1 // Latin word or identifier piece
	kindBigram                        // two consecutive Latin words
	kindChar3                         // character 3-gram of a word, with '<' '>' boundaries
	kindCJKUni                        // single CJK character
	kindCJKBi                         // two consecutive CJK characters
	kindFile                          // dotted token such as config.yaml or db.internal
)

// kindWeight is the per-kind weight applied before L2 normalisation.
// Words and CJK bigrams carry most of the meaning; word bigrams add phrase
// context; char 3-grams give fuzzy matching (expire/expires) at low weight;
// CJK unigrams are ambiguous on their own; file names are highly specific.
var kindWeight = [...]float64{
	kindWord:   1.0,
	kindBigram: 0.7,
	kindChar3:  0.4,
	kindCJKUni: 0.5,
	kindCJKBi:  1.0,
	kindFile:   1.0,
}

// maxNgramWord bounds the word length (in runes) for which char 3-grams are
// emitted, so hashes and base64 blobs do not flood the vector.
const maxNgramWord = 40

// stopwords are English function words that get no word, bigram or n-gram
// features. Bigrams bridge over them.
var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "is": true, "are": true, "was": true,
	"be": true, "to": true, "of": true, "and": true, "or": true, "in": true,
	"on": true, "for": true, "with": true, "at": true, "by": true, "as": true,
	"it": true, "this": true, "that": true, "from": true, "how": true,
	"what": true, "do": true, "does": true, "i": true, "my": true, "me": true,
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

func fnvByte(h uint64, c byte) uint64 {
	h ^= uint64(c)
	return h * fnvPrime
}

// fmix finalises a hash (murmur3 fmix64) so that low bits, used for the
// bucket, and the top bit, used for the sign, are well mixed.
func fmix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb93fe53e87ad
	h ^= h >> 33
	return h
}

// term is one distinct feature with its occurrence count.
type term struct {
	hash  uint64
	kind  featureKind
	count int
	mult  float64 // largest source multiplier seen (1 for text, less for expansions)
}

// bag accumulates features in first-seen order, which keeps the summation
// order, and therefore every float, deterministic.
type bag struct {
	index map[uint64]int
	terms []term
	buf   []byte // scratch for char n-grams
	offs  []int  // scratch rune offsets
	mult  float64
}

func newBag() *bag {
	return &bag{index: make(map[uint64]int), mult: 1}
}

func (b *bag) add(kind featureKind, h uint64) {
	h = fmix(h)
	if i, ok := b.index[h]; ok {
		t := &b.terms[i]
		t.count++
		t.mult = max(t.mult, b.mult)
		return
	}
	b.index[h] = len(b.terms)
	b.terms = append(b.terms, term{hash: h, kind: kind, count: 1, mult: b.mult})
}

func (b *bag) addString(kind featureKind, s string) {
	b.add(kind, fnvString(fnvByte(fnvOffset, byte(kind)), s))
}

// vector projects the bag onto dim signed buckets and L2-normalises it.
// An empty bag yields the zero vector.
func (b *bag) vector(dim int) []float32 {
	acc := make([]float64, dim)
	for _, t := range b.terms {
		w := kindWeight[t.kind] * t.mult * (1 + math.Log(float64(t.count)))
		if t.hash>>63 == 1 {
			w = -w
		}
		acc[t.hash%uint64(dim)] += w
	}
	var norm float64
	for _, x := range acc {
		norm += x * x
	}
	out := make([]float32, dim)
	if norm == 0 {
		return out
	}
	inv := 1 / math.Sqrt(norm)
	for i, x := range acc {
		out[i] = float32(x * inv)
	}
	return out
}

// extract adds the features of s, which must already be NFKC-normalised
// but not lower-cased (case drives camelCase splitting).
func (b *bag) extract(s string) {
	var prev string // previous Latin word, for bigrams; "" breaks the chain
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case isCJK(r):
			j := i + size
			for j < len(s) {
				r2, n := utf8.DecodeRuneInString(s[j:])
				if !isCJK(r2) {
					break
				}
				j += n
			}
			b.cjk(s[i:j])
			prev = ""
			i = j
		case isWordRune(r):
			j := i + size
			for j < len(s) {
				r2, n := utf8.DecodeRuneInString(s[j:])
				if isWordRune(r2) {
					j += n
					continue
				}
				if isJoiner(r2) && j+n < len(s) {
					if r3, _ := utf8.DecodeRuneInString(s[j+n:]); isWordRune(r3) {
						j += n
						continue
					}
				}
				break
			}
			prev = b.run(s[i:j], prev)
			i = j
		default:
			if r == '\n' || r == ';' || r == '{' || r == '}' {
				prev = ""
			}
			i += size
		}
	}
}

// cjk adds unigrams and bigrams of a run of CJK characters.
func (b *bag) cjk(run string) {
	prevStart := -1
	for i, r := range run {
		n := utf8.RuneLen(r)
		b.addString(kindCJKUni, run[i:i+n])
		if prevStart >= 0 {
			b.addString(kindCJKBi, run[prevStart:i+n])
		}
		prevStart = i
	}
}

// run adds the features of a Latin run such as "maxConn", "config.yaml" or
// "error_log" and returns the last word for bigram chaining.
func (b *bag) run(run, prev string) string {
	lower := strings.ToLower(run)
	if strings.ContainsAny(run, "._-") {
		kind := kindWord
		if dot := strings.LastIndexByte(lower, '.'); dot >= 0 && hasLetter(lower[dot+1:]) {
			kind = kindFile
		}
		b.addString(kind, lower)
	}
	for part := range strings.FieldsFuncSeq(run, isJoiner) {
		pieces := camelSplit(part)
		if len(pieces) > 1 {
			b.addString(kindWord, strings.ToLower(part))
		}
		for _, p := range pieces {
			w := strings.ToLower(p)
			if stopwords[w] {
				continue
			}
			b.addString(kindWord, w)
			if prev != "" {
				b.add(kindBigram, fnvString(fnvByte(fnvString(fnvByte(fnvOffset, byte(kindBigram)), prev), ' '), w))
			}
			b.char3(w)
			prev = w
		}
	}
	return prev
}

// char3 adds the character 3-grams of "<w>".
func (b *bag) char3(w string) {
	b.buf = append(append(append(b.buf[:0], '<'), w...), '>')
	b.offs = b.offs[:0]
	for i := range string(b.buf) {
		b.offs = append(b.offs, i)
	}
	n := len(b.offs)
	if n > maxNgramWord+2 {
		return
	}
	b.offs = append(b.offs, len(b.buf))
	for k := 0; k+3 <= n; k++ {
		h := fnvByte(fnvOffset, byte(kindChar3))
		for _, c := range b.buf[b.offs[k]:b.offs[k+3]] {
			h = fnvByte(h, c)
		}
		b.add(kindChar3, h)
	}
}

// camelSplit splits "maxConnections" into "max", "Connections" and
// "HTTPServer" into "HTTP", "Server". Letter/digit transitions do not split.
func camelSplit(s string) []string {
	if strings.IndexFunc(s, unicode.IsUpper) < 0 {
		return []string{s}
	}
	var out []string
	start := 0
	rs := []rune(s)
	pos := 0 // byte offset of rs[k]
	for k := range rs {
		if k > 0 {
			p, c := rs[k-1], rs[k]
			split := unicode.IsUpper(c) && (unicode.IsLower(p) || unicode.IsDigit(p))
			if !split && unicode.IsUpper(p) && unicode.IsUpper(c) && k+1 < len(rs) && unicode.IsLower(rs[k+1]) {
				split = true
			}
			if split {
				out = append(out, s[start:pos])
				start = pos
			}
		}
		pos += utf8.RuneLen(rs[k])
	}
	return append(out, s[start:])
}

func isCJK(r rune) bool {
	if r < 0x2E80 {
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !isCJK(r)
}

func isJoiner(r rune) bool { return r == '.' || r == '_' || r == '-' }

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}
