package series

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"sync"
)

// Near are the settings of NearAllOver's approximate search.
//
// The search is random-hyperplane locality-sensitive hashing (Charikar,
// STOC 2002, "Similarity estimation techniques from rounding
// algorithms"): the sign of a window's product with a random Gaussian
// direction is the same for two windows with probability 1 - angle/pi,
// so windows of a large |correlation| agree on most of 64 such signs.
// Where Charikar looks up a signature's neighbours in lists sorted by
// permuted signatures, each of the Tables tables here draws 64 fresh
// directions, sorts the entities by their signature (and, among equal
// signatures, by the product with one more direction, then by index) and
// pairs each entity with the Span entities after it in that order. Each
// pair is offered to the top-keep of both with its exact correlation.
// Then, Rounds times, each target is offered the sources of its sources
// (the local join of Dong, Moses and Li, WWW 2011, "Efficient k-nearest
// neighbor graph construction for generic similarity measures"): a line
// near a line near a target's tends to be near it too.
type Near struct {
	Tables int    // sorted signature lists; at least 1
	Span   int    // entities after each one in a list it is paired with
	Rounds int    // rounds of sources of sources
	Seed   uint64 // the directions' seed
}

// DefaultNear are the settings train_gat uses past its size rule (see
// the measurements in docs/catalogue.md, "Past N series: approximate
// neighbours").
var DefaultNear = Near{Tables: 8, Span: 16, Rounds: 2, Seed: 43}

// signBits is the length of a table's signature.
const signBits = 64

// NearAllOver appends to buf, target by target in increasing order, keep
// sources of every target in increasing order, as StrongestAllOver does,
// found by the approximate search of o (see Near) in O(N Tables (64
// window + log N + Span window) + N Rounds keep^2 window) time and,
// beside buf, O(N workers keep) memory: never the target itself, and keep distinct
// sources for every target, since one list alone pairs each entity with
// at least Span others and Span is raised to keep when below it. Among
// the candidates the search finds for a target the sources are the keep
// of largest |Corr|, ties to the lower index and NaN below every number,
// as in Strongest, so where the candidates hold the exact top-keep the
// graph is the exact one. The outcome depends on o and the windows only,
// not on workers. With keep >= N-1 or keep <= 0 it is StrongestAllOver's.
func (w *Windows) NearAllOver(buf []int32, keep, workers int, o Near) []int32 {
	n := w.n
	if keep <= 0 || keep >= n-1 {
		return w.StrongestAllOver(buf, keep, workers)
	}
	span := max(o.Span, keep)
	workers = max(1, min(workers, n/256+1))
	tops := make([]*topK, workers)
	for g := range tops {
		tops[g] = newTopK(n, keep)
	}
	order := make([]int32, n)
	key := make([]uint64, n)
	tie := make([]float64, n)
	for table := range max(1, o.Tables) {
		w.sign(table, o.Seed, key, tie, workers)
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int {
			if c := cmp.Compare(key[a], key[b]); c != 0 {
				return c
			}
			if c := cmp.Compare(tie[a], tie[b]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		w.offerSpans(tops, order, span)
	}
	for _, other := range tops[1:] {
		tops[0].mergeOnce(other)
	}
	top := tops[0]
	for range o.Rounds {
		w.joinSources(top, workers)
	}
	for j := range n {
		at := len(buf)
		buf = append(buf, top.idx[j*keep:(j+1)*keep]...)
		slices.Sort(buf[at:])
	}
	return buf
}

// sign writes each entity's signature in table into key, made the same
// for a window and its negative (the smaller of the signature and its
// complement, so that |correlation| is what it keeps near), and into tie
// the product with one more direction, negated where the signature was.
// The entities are split among workers; each one's values depend on its
// window, table and seed only.
func (w *Windows) sign(table int, seed uint64, key []uint64, tie []float64, workers int) {
	r := rand.New(rand.NewPCG(seed, uint64(table)))
	dirs := make([]float64, (signBits+1)*w.window)
	for i := range dirs {
		dirs[i] = r.NormFloat64()
	}
	var wg sync.WaitGroup
	chunk := (w.n + workers - 1) / workers
	proj := make([]float64, workers*(signBits+1))
	for g := range workers {
		wg.Go(func() {
			p := proj[g*(signBits+1) : (g+1)*(signBits+1)]
			for i := g * chunk; i < min(w.n, (g+1)*chunk); i++ {
				dots(dirs, w.row(i), p)
				var h uint64
				for b := range signBits {
					if p[b] >= 0 {
						h |= 1 << (signBits - 1 - b)
					}
				}
				t := p[signBits]
				if h>>(signBits-1) == 1 {
					h, t = ^h, -t
				}
				key[i], tie[i] = h, t
			}
		})
	}
	wg.Wait()
}

// offerSpans offers every pair of entities at most span apart in order
// to the top-keep of both, the positions dealt to the workers in blocks
// (worker g takes blocks g, g+len(tops), ...), each worker offering to its
// own top-keep.
func (w *Windows) offerSpans(tops []*topK, order []int32, span int) {
	const block = 256
	var wg sync.WaitGroup
	for g, top := range tops {
		wg.Go(func() {
			for p0 := g * block; p0 < len(order); p0 += len(tops) * block {
				for p := p0; p < min(p0+block, len(order)); p++ {
					j := order[p]
					zj := w.row(int(j))
					for _, i := range order[p+1 : min(p+1+span, len(order))] {
						s := rank(max(-1, min(1, dot(w.row(int(i)), zj))))
						top.offerOnce(int(j), i, s)
						top.offerOnce(int(i), j, s)
					}
				}
			}
		})
	}
	wg.Wait()
}

// offerOnce offers source i of strength s to target j unless j holds it
// already: a pair found by several tables counts once. Its outcome does
// not depend on the order of the offers either, since a source that
// left a target's top-keep ranks below its root ever after.
func (t *topK) offerOnce(j int, i int32, s float64) {
	base := j * t.keep
	size := int(t.size[j])
	if size == t.keep && !weakerPair(t.s[base], t.idx[base], s, i) {
		return
	}
	if slices.Contains(t.idx[base:base+size], i) {
		return
	}
	t.insert(j, i, s)
}

// mergeOnce offers every candidate other holds to t, once each.
func (t *topK) mergeOnce(other *topK) {
	for j := range t.size {
		base := j * t.keep
		for c := range int(other.size[j]) {
			t.offerOnce(j, other.idx[base+c], other.s[base+c])
		}
	}
}

// joinSources offers each target the sources of its sources in top, as
// top held them before the round, each distinct one once (its own sources
// are not offered again), the targets split among workers in blocks; each
// target's top-keep is written by one worker only. Every target holds keep
// sources already (NearAllOver's span is at least keep), so the outcome
// is the top-keep of a set fixed by the previous round, whatever the
// workers.
func (w *Windows) joinSources(top *topK, workers int) {
	const block = 256
	keep := top.keep
	before := slices.Clone(top.idx)
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			seen := make([]int32, w.n) // j+1 where offered to target j
			for j0 := g * block; j0 < w.n; j0 += workers * block {
				for j := j0; j < min(j0+block, w.n); j++ {
					zj, mark := w.row(j), int32(j+1)
					own := before[j*keep : (j+1)*keep]
					seen[j] = mark
					for _, i := range own {
						seen[i] = mark
					}
					for _, i := range own {
						for _, c := range before[int(i)*keep : (int(i)+1)*keep] {
							if seen[c] != mark {
								seen[c] = mark
								top.offerOnce(j, c, rank(max(-1, min(1, dot(w.row(int(c)), zj)))))
							}
						}
					}
				}
			}
		})
	}
	wg.Wait()
}
