package recommender_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/mallard/mallard/mlops/recommender"
)

// binary returns ratings of rows of 0/1 interactions: 5 for 1, none for 0.
func binary(rows [][]int) recommender.Ratings {
	r := recommender.Ratings{Users: len(rows), Items: len(rows[0]), Ptr: []int{0}}
	for _, row := range rows {
		for j, x := range row {
			if x == 1 {
				r.Item, r.Value = append(r.Item, int32(j)), append(r.Value, 5)
			}
		}
		r.Ptr = append(r.Ptr, len(r.Item))
	}
	return r
}

// easeRows are nine users of four items, each item with at least
// EASEMinCount interactions.
var easeRows = [][]int{
	{1, 1, 0, 1}, {1, 0, 1, 1}, {0, 1, 1, 1}, {1, 1, 1, 0}, {1, 0, 1, 0},
	{0, 1, 1, 1}, {1, 1, 0, 0}, {0, 0, 1, 1}, {1, 1, 1, 1},
}

// TestEASEClosedForm checks B against its definition: column j of B is
// the ridge regression of item j's column of X on the other items'
// columns, (X₋ⱼᵀX₋ⱼ + λI)⁻¹X₋ⱼᵀXⱼ, with B_jj = 0; each solved directly.
func TestEASEClosedForm(t *testing.T) {
	const lambda = 1.5
	cols, b := recommender.EASEWeights(binary(easeRows), 4, lambda)
	n := len(easeRows[0])
	if len(cols) != n {
		t.Fatalf("%d columns, want %d", len(cols), n)
	}
	x := mat.NewDense(len(easeRows), n, nil)
	for u, row := range easeRows {
		for j, v := range row {
			x.Set(u, j, float64(v))
		}
	}
	for j := range n {
		others := make([]int, 0, n-1)
		for k := range n {
			if k != j {
				others = append(others, k)
			}
		}
		xo := mat.NewDense(len(easeRows), n-1, nil)
		for c, k := range others {
			xo.SetCol(c, mat.Col(nil, k, x))
		}
		var a mat.Dense
		a.Mul(xo.T(), xo)
		for i := range n - 1 {
			a.Set(i, i, a.At(i, i)+lambda)
		}
		var rhs, w mat.VecDense
		rhs.MulVec(xo.T(), x.ColView(j))
		if err := w.SolveVec(&a, &rhs); err != nil {
			t.Fatal(err)
		}
		if b[j*n+j] != 0 {
			t.Errorf("B[%d][%d] = %v, want 0", j, j, b[j*n+j])
		}
		for c, k := range others {
			if got := b[k*n+j]; math.Abs(got-w.AtVec(c)) > 1e-12 {
				t.Errorf("B[%d][%d] = %v, ridge regression gives %v", k, j, got, w.AtVec(c))
			}
		}
	}
}

// TestEASEInvariants: duplicating every user and doubling λ scales XᵀX + λI
// by two and leaves B as it is; permuting the items permutes B.
func TestEASEInvariants(t *testing.T) {
	_, b := recommender.EASEWeights(binary(easeRows), 4, 2)
	_, twice := recommender.EASEWeights(binary(append(append([][]int{}, easeRows...), easeRows...)), 4, 4)
	for i := range b {
		if math.Abs(b[i]-twice[i]) > 1e-12 {
			t.Fatalf("B of the doubled users at doubled λ differs at %d: %v, %v", i, b[i], twice[i])
		}
	}
	perm := []int{2, 0, 3, 1} // new item k is old item perm[k]
	permuted := make([][]int, len(easeRows))
	for u, row := range easeRows {
		for k := range row {
			permuted[u] = append(permuted[u], row[perm[k]])
		}
	}
	_, pb := recommender.EASEWeights(binary(permuted), 4, 2)
	n := len(perm)
	for i := range n {
		for j := range n {
			if math.Abs(pb[i*n+j]-b[perm[i]*n+perm[j]]) > 1e-12 {
				t.Errorf("permuted B[%d][%d] = %v, want B[%d][%d] = %v", i, j, pb[i*n+j], perm[i], perm[j], b[perm[i]*n+perm[j]])
			}
		}
	}
}

// TestEASEScores: an item without an interaction (a rating of at least
// relevant) gets no column and scores −Inf; a user's score of an item is
// the sum of B's rows of the user's interactions.
func TestEASEScores(t *testing.T) {
	r := binary(easeRows)
	r.Items = 5
	r.Item, r.Value = append(r.Item[:r.Ptr[1]:r.Ptr[1]], append([]int32{4}, r.Item[r.Ptr[1]:]...)...),
		append(r.Value[:r.Ptr[1]:r.Ptr[1]], append([]float32{3}, r.Value[r.Ptr[1]:]...)...) // user 0 rates item 4 3
	for u := 1; u < len(r.Ptr); u++ {
		r.Ptr[u]++
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	cols, _ := recommender.EASEWeights(r, 4, 3)
	if len(cols) != 4 || cols[3] != 3 {
		t.Fatalf("columns %v, want items 0 to 3", cols)
	}
	e, err := recommender.FitEASE(context.Background(), r, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	if e.Columns() != 4 || e.Lambda < 50 {
		t.Errorf("%d columns, λ %v", e.Columns(), e.Lambda)
	}
	_, b := recommender.EASEWeights(r, 4, e.Lambda)
	got := make([]float64, 5)
	e.Scores([]int32{0, 2, 4}, []float32{5, 3, 5}, got) // item 2 below relevant, item 4 without a column
	for j := range 4 {
		if math.Abs(got[j]-b[0*4+j]) > 1e-12 {
			t.Errorf("score of item %d: %v, want B[0][%d] = %v", j, got[j], j, b[j])
		}
	}
	if !math.IsInf(got[4], -1) {
		t.Errorf("item 4 scores %v, want −Inf", got[4])
	}
	if recs := e.Recommend([]int32{0}, []float32{5}, 10, true); len(recs) != 3 || recs[0].Item == 0 {
		t.Errorf("recommendations %v, want items 1 to 3", recs)
	}
}

// TestEASEColumns: with more than a thousand items interacted with, only
// those with EASEMinCount interactions get a column.
func TestEASEColumns(t *testing.T) {
	const rare = 1000
	rows := make([][]int, recommender.EASEMinCount)
	for u := range rows {
		rows[u] = make([]int, rare+2)
		rows[u][rare], rows[u][rare+1] = 1, 1 // items 1000 and 1001: five each
	}
	for j := range rare - 2 {
		rows[j%len(rows)][j] = 1 // items 0 to 997: one each
	}
	if cols, _ := recommender.EASEWeights(binary(rows), 4, 10); len(cols) != rare {
		t.Errorf("%d columns of %d items interacted with, want every one", len(cols), rare)
	}
	rows[0][rare-2] = 1 // a thousand and one
	if cols, _ := recommender.EASEWeights(binary(rows), 4, 10); !slices.Equal(cols, []int32{rare, rare + 1}) {
		t.Errorf("columns %v, want the two items of five interactions", cols)
	}
}

func TestEASETooManyItems(t *testing.T) {
	n := recommender.MaxEASEItems + 1
	r := recommender.Ratings{Users: recommender.EASEMinCount, Items: n, Ptr: []int{0}}
	for range recommender.EASEMinCount {
		for j := range n {
			r.Item, r.Value = append(r.Item, int32(j)), append(r.Value, 4)
		}
		r.Ptr = append(r.Ptr, len(r.Item))
	}
	_, err := recommender.FitEASE(context.Background(), r, 4, 1)
	var tooMany *recommender.TooManyItemsError
	if !errors.As(err, &tooMany) || tooMany.Items != n || tooMany.Limit != recommender.MaxEASEItems {
		t.Errorf("error %v, want a TooManyItemsError of %d items", err, n)
	}
}
