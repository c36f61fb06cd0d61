// Package linalg holds the serial matrix products and the Adam optimiser
// that Mallard's models share. It imports the standard library and gonum
// only.
//
// The products run on the calling goroutine alone. gonum's blas64.Gemm
// spreads a product of four or more 64 x 64 blocks of its result over
// goroutines, one per block, up to one per processor. Training is
// data-parallel, with one worker per core: a worker whose products take
// every core leaves the others nothing (one recommender worker kept 1.97
// of two cores busy, and two workers could not be faster than one), and at
// a GAT sample's few hundred nodes the goroutines cost more than the
// arithmetic. Gemm and GemmAsGonum therefore cut a product into tiles
// that gonum computes serially, and keep gonum's order of summation, so
// that their results are gonum's to the bit (see each for which of
// gonum's orders) and do not depend on the number of workers or cores.
//
// On amd64 gonum sums with assembly (SSE2, no fused multiply-add) that
// gives the same bits on every amd64 processor; Dot and Axpy, written in
// Go so that they inline, sum as that assembly does. Elsewhere gonum sums
// in Go, in another order.
package linalg
