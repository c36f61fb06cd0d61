package series

import "fmt"

// Edges returns the directed graph between n entities whose n x n row-major
// correlation matrix is corr, as parallel lists: edge e runs from entity
// src[e] to entity dst[e] and carries attr[e] = corr[src[e]*n+dst[e]].
//
// With neighbors <= 0 there is an edge i->j for every ordered pair i != j.
// With neighbors > 0 each target j keeps only the neighbors sources with the
// largest |corr[i*n+j]|, ties going to the lower index and NaN ranking below
// every number, so the graph depends only on corr. Every node keeps all
// n-1 sources when neighbors >= n-1.
//
// Edges are ordered by target and then by source. There are no self loops:
// the attention layer adds its own. Edges panics if len(corr) != n*n.
func Edges(corr []float64, n int, neighbors int) (src, dst []int, attr []float64) {
	if n < 0 || len(corr) != n*n {
		panic(fmt.Sprintf("series: %d correlations for %d entities", len(corr), n))
	}
	keep := max(n-1, 0)
	if neighbors > 0 {
		keep = min(keep, neighbors)
	}
	src = make([]int, 0, n*keep)
	dst = make([]int, 0, n*keep)
	attr = make([]float64, 0, n*keep)
	sources := make([]int, 0, max(n-1, 0))
	var strength []float64
	var idx []int32
	for j := range n {
		sources = strongest(sources[:0], corr, n, j, keep, &strength, &idx)
		for _, i := range sources {
			src = append(src, i)
			dst = append(dst, j)
			attr = append(attr, corr[i*n+j])
		}
	}
	return src, dst, attr
}

// strongest appends to buf, in increasing order, the keep sources i != j
// with the largest |corr[i*n+j]|, ties going to the lower index.
func strongest(buf []int, corr []float64, n, j, keep int, scratch *[]float64, idx *[]int32) []int {
	s := resizedFloats(*scratch, n)
	for i := range n {
		s[i] = rank(corr[i*n+j])
	}
	*scratch = s
	*idx = strongestOf((*idx)[:0], s, j, keep)
	for _, i := range *idx {
		buf = append(buf, int(i))
	}
	return buf
}
