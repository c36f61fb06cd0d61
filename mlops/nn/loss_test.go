package nn_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/mallard/mallard/mlops/nn"
)

func TestMSEByHand(t *testing.T) {
	pred := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	target := mat.NewDense(2, 2, []float64{0, 2, 3, 2}) // differences 1, 0, 0, 2
	tests := []struct {
		name     string
		mask     []bool
		want     float64
		wantGrad []float64
	}{
		{"no mask", nil, 5.0 / 4, []float64{0.5, 0, 0, 1}},
		{"all rows", []bool{true, true}, 5.0 / 4, []float64{0.5, 0, 0, 1}},
		{"first row", []bool{true, false}, 1.0 / 2, []float64{1, 0, 0, 0}},
		{"second row", []bool{false, true}, 4.0 / 2, []float64{0, 0, 0, 2}},
		{"no rows", []bool{false, false}, 0, []float64{0, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loss, grad := nn.MSE(pred, target, tt.mask...)
			if loss != tt.want {
				t.Errorf("loss = %g, want %g", loss, tt.want)
			}
			if !floats.Equal(flat(grad), tt.wantGrad) {
				t.Errorf("grad = %v, want %v", flat(grad), tt.wantGrad)
			}
		})
	}
}

func TestMSEGradient(t *testing.T) {
	tests := []struct {
		name string
		mask []bool
	}{
		{"no mask", nil},
		{"mask", []bool{true, false, true, true, false}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 21))
			const r, c = 5, 3
			pred, target := randMatrix(rng, r, c), randMatrix(rng, r, c)
			_, grad := nn.MSE(pred, target, tt.mask...)
			loss := func(v []float64) float64 {
				l, _ := nn.MSE(mat.NewDense(r, c, v), target, tt.mask...)
				return l
			}
			if e := gradRelErr(flat(grad), numericGrad(loss, flat(pred))); e > gradTol {
				t.Errorf("dL/dpred relative error %g > %g", e, gradTol)
			}
		})
	}
}
