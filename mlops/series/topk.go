package series

import (
	"slices"
	"sync"
)

// topBlock is the side of the blocks of windows StrongestAll multiplies:
// 64 rows of a short window stay in the first-level cache.
const topBlock = 64

// StrongestAll appends to buf, target by target in increasing order, the
// keep sources of every target j that Strongest(buf, j, keep) lists: the
// same sources in the same order, chosen from the same correlations (see
// dot), so the graph equals the one Edges keeps of Correlation's matrix
// for windows of up to 64 rows. It multiplies the windows in blocks, each
// pair once, and keeps a running top-keep per target, so that beside buf
// it takes O(N keep) memory and O(N^2 window) time. With keep >= N-1
// every target lists every other entity; with keep <= 0 none.
func (w *Windows) StrongestAll(buf []int32, keep int) []int32 {
	return w.StrongestAllOver(buf, keep, 1)
}

// StrongestAllOver is StrongestAll with the blocks of pairs dealt to
// workers goroutines, each keeping its own running top-keep per target,
// merged at the end: the same sources in the same order, since the top
// keep under strength, then index, does not depend on the order of the
// offers.
func (w *Windows) StrongestAllOver(buf []int32, keep, workers int) []int32 {
	n := w.n
	if keep <= 0 {
		return buf
	}
	if keep >= n-1 {
		for j := range n {
			for i := range n {
				if i != j {
					buf = append(buf, int32(i))
				}
			}
		}
		return buf
	}
	top := w.offerBlocks(n, keep, workers)
	for j := range n {
		at := len(buf)
		buf = append(buf, top.idx[j*keep:(j+1)*keep]...)
		slices.Sort(buf[at:])
	}
	return buf
}

// offerBlocks offers every pair of entities to the top-keep of both,
// over workers goroutines when there are blocks enough, and returns the
// merged top-keep.
func (w *Windows) offerBlocks(n, keep, workers int) *topK {
	type block struct{ i0, j0 int }
	var blocks []block
	for j0 := 0; j0 < n; j0 += topBlock {
		for i0 := 0; i0 <= j0; i0 += topBlock {
			blocks = append(blocks, block{i0, j0})
		}
	}
	workers = max(1, min(workers, len(blocks)))
	tops := make([]*topK, workers)
	var wg sync.WaitGroup
	for g := range workers {
		tops[g] = newTopK(n, keep)
		wg.Go(func() {
			for k := g; k < len(blocks); k += workers { // dealt in turn: the later blocks are the longer rows
				b := blocks[k]
				w.offerBlock(tops[g], b.i0, min(b.i0+topBlock, n), b.j0, min(b.j0+topBlock, n))
			}
		})
	}
	wg.Wait()
	for _, other := range tops[1:] {
		tops[0].merge(other)
	}
	return tops[0]
}

// offerBlock offers every pair of a source in i0..i1-1 and a target in
// j0..j1-1 with source < target to both entities' top-k, each pair's
// correlation computed once (it is symmetric bit for bit). A candidate
// that loses to the root of a full heap costs one comparison.
func (w *Windows) offerBlock(top *topK, i0, i1, j0, j1 int) {
	keep := int32(top.keep)
	var tile [topBlock]float64
	for j := j0; j < j1; j++ {
		end := i1
		if i0 == j0 {
			end = j
		}
		d := tile[:end-i0]
		dots(w.z[i0*w.window:end*w.window], w.row(j), d)
		rj := j * top.keep
		for k, c := range d {
			i := i0 + k
			s := rank(max(-1, min(1, c)))
			if top.size[j] < keep || weakerPair(top.s[rj], top.idx[rj], s, int32(i)) {
				top.insert(j, int32(i), s)
			}
			if ri := i * top.keep; top.size[i] < keep || weakerPair(top.s[ri], top.idx[ri], s, int32(j)) {
				top.insert(i, int32(j), s)
			}
		}
	}
}

// topK keeps, for each of n targets, the keep candidates of largest
// strength seen so far, ties going to the lower index, as a binary heap
// per target whose root is the weakest (of equal strengths, the highest
// index). The outcome does not depend on the order of the offers.
type topK struct {
	keep int
	s    []float64 // n x keep strengths
	idx  []int32   // n x keep indices
	size []int32   // candidates held per target
}

func newTopK(n, keep int) *topK {
	return &topK{keep: keep, s: make([]float64, n*keep), idx: make([]int32, n*keep), size: make([]int32, n)}
}

// merge offers every candidate other holds to t.
func (t *topK) merge(other *topK) {
	keep := int32(t.keep)
	for j := range t.size {
		base := j * t.keep
		for c := range int(other.size[j]) {
			s, i := other.s[base+c], other.idx[base+c]
			if t.size[j] < keep || weakerPair(t.s[base], t.idx[base], s, i) {
				t.insert(j, i, s)
			}
		}
	}
}

// insert adds source i of strength s to target j's heap, displacing its
// root when the heap is full; s must outrank the root then.
func (t *topK) insert(j int, i int32, s float64) {
	base := j * t.keep
	hs, hi := t.s[base:base+t.keep], t.idx[base:base+t.keep]
	if c := int(t.size[j]); c < t.keep {
		t.size[j]++
		hs[c], hi[c] = s, i
		for c > 0 {
			p := (c - 1) / 2
			if !weakerPair(hs[c], hi[c], hs[p], hi[p]) {
				break
			}
			hs[c], hs[p], hi[c], hi[p] = hs[p], hs[c], hi[p], hi[c]
			c = p
		}
		return
	}
	hs[0], hi[0] = s, i
	for p := 0; ; {
		c := 2*p + 1
		if c >= t.keep {
			return
		}
		if r := c + 1; r < t.keep && weakerPair(hs[r], hi[r], hs[c], hi[c]) {
			c = r
		}
		if !weakerPair(hs[c], hi[c], hs[p], hi[p]) {
			return
		}
		hs[c], hs[p], hi[c], hi[p] = hs[p], hs[c], hi[p], hi[c]
		p = c
	}
}

// weakerPair reports whether strength sa of index a ranks below strength
// sb of index b.
func weakerPair(sa float64, a int32, sb float64, b int32) bool {
	return sa < sb || sa == sb && a > b
}
