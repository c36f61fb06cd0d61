package recommender

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// EASEMethod is EASE's method name in Evaluate's results and serving.
const EASEMethod = "ease"

// EASE is Steck's embarrassingly shallow autoencoder ("Embarrassingly
// Shallow Autoencoders for Sparse Data", WWW 2019): an item-item weight
// matrix B with a zero diagonal that minimises ‖X − XB‖² + λ‖B‖², X the
// users' binary interactions. Its closed form is B = I − P·diag(1/diag(P)),
// P = (XᵀX + λI)⁻¹, one Cholesky factorisation and inverse of the
// regularised Gram matrix. A user with interactions x scores item j as
// (xB)_j.
//
// An interaction is a training rating of at least Config.Relevant, as
// the relevant test items are. On the validation split FitEASE carves
// from the accuracy test's training ratings of MovieLens small, at the λ
// it chose (200) that ranked with Recall@10 0.227 and NDCG@10 0.199,
// against 0.223 and 0.190 taking every rating as an interaction (whose
// NDCG@100 was 0.294 against 0.291), and on 1,952 columns rather than
// 3,291, a fifth of the cubic cost.
//
// The items with an interaction get a row and a column, or, when more
// than easeEveryItem have one, those with at least EASEMinCount; the
// others are never scored or recommended. B is dense, columns² values,
// so a fit refuses more than MaxEASEItems columns with a
// *TooManyItemsError.
type EASE struct {
	// Lambda is the λ the validation split chose.
	Lambda float64
	// Items is the number of items of the ratings it was fitted on.
	Items    int
	relevant float64
	cols     []int32   // the items it scores, increasing
	pos      []int32   // by item: its index in cols, or -1
	least    int       // the fewest interactions of an item in cols
	b        []float64 // len(cols)² weights, row-major, zero diagonal
}

const (
	// EASEMinCount is the fewest training interactions an item needs to
	// enter EASE when more than easeEveryItem items have one. Items with
	// fewer are rarely relevant to a test user and cost as much of the
	// cubic fit as any other; on MovieLens small it keeps 1,952 of the
	// 5,937 items with an interaction in the accuracy test's training
	// ratings.
	EASEMinCount = 5
	// MaxEASEItems is the most items EASE fits: its Gram matrix and B
	// take 8·items² bytes each (128 MB at this limit), and the fit, a
	// Cholesky factorisation and inverse per λ tried, grows as items³.
	MaxEASEItems = 4000
	// easeEveryItem is the most items with an interaction for which EASE
	// takes every one of them: a fit of this size takes seconds.
	easeEveryItem = 1000
)

// easeLambdas are the λ FitEASE chooses among.
func easeLambdas() []float64 { return []float64{50, 100, 200, 500, 1000, 2000} }

// TooManyItemsError is FitEASE's refusal of data that would give it more
// than MaxEASEItems columns: Items items with at least MinCount
// interactions.
type TooManyItemsError struct {
	Items, Limit, MinCount int
}

func (e *TooManyItemsError) Error() string {
	return fmt.Sprintf("ease: %d items have at least %d training interactions, more than its limit of %d", e.Items, e.MinCount, e.Limit)
}

// FitEASE fits EASE to the training ratings: λ is chosen among
// easeLambdas by the NDCG@100 of a fit to nine tenths of the training
// ratings ranking the other tenth (a split chosen by seed; the test
// ratings are never read), then B is fitted to all of them with that λ.
// The λ are tried in increasing order and the search stops at the first
// that validates worse than the one before: on MovieLens small the
// validation NDCG@100 rises to a single peak (at λ = 200) and falls, and
// each λ costs a factorisation.
func FitEASE(ctx context.Context, train Ratings, relevant float64, seed uint64) (*EASE, error) {
	e := &EASE{Items: train.Items, relevant: relevant}
	e.columns(train)
	if len(e.cols) > MaxEASEItems {
		return nil, &TooManyItemsError{Items: len(e.cols), Limit: MaxEASEItems, MinCount: e.least}
	}
	part, val := Split(train, easeValidation, seed^0xEA5E)
	h := heldOut{input: part, scored: val, ranked: rankedUsers(val, relevant, easeValidationUsers, seed), relevant: relevant}
	top := math.Inf(-1)
	e.Lambda = easeLambdas()[0] // kept if nothing validates
	g := e.gram(part)
	for _, lambda := range easeLambdas() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e.b = e.solve(g, lambda, e.b)
		m := e.metrics(h)
		if !(m.NDCGAt100 > top) {
			break
		}
		top, e.Lambda = m.NDCGAt100, lambda
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g = e.gram(train)
	e.b = e.solve(g, e.Lambda, e.b)
	return e, nil
}

const (
	// easeValidation is the share of the training ratings λ is chosen on.
	easeValidation = 0.1
	// easeValidationUsers caps the users whose rankings choose λ.
	easeValidationUsers = 2000
)

// interacts reports whether a rating is an interaction.
func (e *EASE) interacts(v float32) bool { return float64(v) >= e.relevant }

// columns sets e.cols and e.pos to the items with an interaction in r,
// or with EASEMinCount of them if more than easeEveryItem have one.
func (e *EASE) columns(r Ratings) {
	counts := make([]int, r.Items)
	for i, j := range r.Item {
		if e.interacts(r.Value[i]) {
			counts[j]++
		}
	}
	e.least = 1
	if r.Items-countOf(counts, 0) > easeEveryItem {
		e.least = EASEMinCount
	}
	e.pos = make([]int32, r.Items)
	for j, c := range counts {
		e.pos[j] = -1
		if c >= e.least {
			e.pos[j] = int32(len(e.cols))
			e.cols = append(e.cols, int32(j))
		}
	}
}

// countOf is the number of xs equal to x.
func countOf(xs []int, x int) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}

// gram returns XᵀX over e's columns, X the interactions of r: the upper
// triangle of a row-major n×n matrix, n = len(e.cols).
func (e *EASE) gram(r Ratings) []float64 {
	n := len(e.cols)
	g := make([]float64, n*n)
	var row []int32
	for u := range r.Users {
		row = e.interactions(r, u, row[:0])
		for a, p := range row {
			for _, q := range row[a:] {
				g[int(p)*n+int(q)]++
			}
		}
	}
	return g
}

// interactions appends to buf the column indices, increasing, of user
// u's interactions in r.
func (e *EASE) interactions(r Ratings, u int, buf []int32) []int32 {
	items, vals := r.Row(u)
	for i, j := range items {
		if p := e.pos[j]; p >= 0 && e.interacts(vals[i]) {
			buf = append(buf, p)
		}
	}
	return buf
}

// solve returns in buf (reallocated if short) B for the Gram matrix g and
// λ: P = (g + λI)⁻¹ by Cholesky, then B_ij = −P_ij/P_jj off the diagonal
// and 0 on it. g + λI is positive definite for λ > 0, so the
// factorisation cannot fail.
func (e *EASE) solve(g []float64, lambda float64, buf []float64) []float64 {
	n := len(e.cols)
	if cap(buf) < n*n {
		buf = make([]float64, n*n)
	}
	p := buf[:n*n]
	copy(p, g)
	for i := range n {
		p[i*n+i] += lambda
	}
	t, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: n, Data: p})
	if ok {
		_, ok = lapack64.Potri(t)
	}
	if !ok {
		panic(fmt.Sprintf("recommender: EASE Gram matrix plus λ = %v is not positive definite", lambda))
	}
	diag := make([]float64, n)
	for i := range n {
		diag[i] = p[i*n+i]
	}
	for i := range n {
		p[i*n+i] = 0
		for j := i + 1; j < n; j++ {
			v := p[i*n+j]
			p[i*n+j], p[j*n+i] = -v/diag[j], -v/diag[i]
		}
	}
	return p
}

// Scores sets dst, one value per item, to EASE's scores for a user whose
// ratings are vals of items (in any order, each at most once); an item
// EASE has no column for scores −Inf.
func (e *EASE) Scores(items []int32, vals []float32, dst []float64) {
	n := len(e.cols)
	for j := range dst {
		dst[j] = math.Inf(-1)
	}
	for _, j := range e.cols {
		dst[j] = 0
	}
	for i, j := range items {
		p := e.pos[j]
		if p < 0 || !e.interacts(vals[i]) {
			continue
		}
		for q, w := range e.b[int(p)*n : int(p+1)*n] {
			dst[e.cols[q]] += w
		}
	}
}

// Recommend returns the k items of the highest scores for a user whose
// ratings are vals of items, best first, ties to the lower index; with
// excludeSeen the user's own items are left out, and items EASE has no
// column for always are.
func (e *EASE) Recommend(items []int32, vals []float32, k int, excludeSeen bool) []Scored {
	scores := make([]float64, e.Items)
	e.Scores(items, vals, scores)
	for j, s := range scores {
		if math.IsInf(s, -1) {
			scores[j] = math.NaN()
		}
	}
	if excludeSeen {
		for _, j := range items {
			scores[j] = math.NaN()
		}
	}
	return best(scores, k)
}

// Columns is the number of items EASE scores.
func (e *EASE) Columns() int { return len(e.cols) }

// metrics measures EASE's rankings on h; it predicts no ratings, so its
// RMSE is NaN.
func (e *EASE) metrics(h heldOut) Metrics {
	ranks := make([]rankScore, len(h.ranked))
	scores := make([]float64, e.Items)
	var top []int32
	for i, u := range h.ranked {
		seen, vals := h.input.Row(u)
		e.Scores(seen, vals, scores)
		top = topN(scores, seen, longest, top)
		testItems, testVals := h.scored.Row(u)
		ranks[i], _ = userRank(top, testItems, testVals, h.relevant)
	}
	return Metrics{Method: EASEMethod, RMSE: math.NaN()}.withRanking(ranks)
}
