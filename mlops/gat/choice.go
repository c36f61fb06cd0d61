package gat

import (
	"math"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
)

// EntityMSE returns each entity's mean squared error of f's forecasts at
// steps 1..h from every origin whose targets lie in rows from..end-1, the
// steps weighing alike (the mean over steps of each step's MSE); NaN for
// an entity no origin reaches.
func EntityMSE(f baseline.Forecaster, m series.Matrix, from, end, h int) []float64 {
	out := make([]float64, m.N)
	steps := make([]int, m.N)
	for _, byEntity := range EntityResiduals(f, m, from, end, h) {
		for i, r := range byEntity {
			if len(r) == 0 {
				continue
			}
			var sum float64
			for _, e := range r {
				sum += e * e
			}
			out[i] += sum / float64(len(r))
			steps[i]++
		}
	}
	for i := range out {
		if steps[i] == 0 {
			out[i] = math.NaN()
			continue
		}
		out[i] /= float64(steps[i])
	}
	return out
}

// ChooseEntities returns, for each entity, the index in fs of the
// forecaster whose EntityMSE over the origins in rows from..end-1 at steps
// 1..h is lowest (the first on a tie, -1 when none could be measured),
// and that MSE. Rolling-origin validation: fs are fitted on the rows
// before from.
func ChooseEntities(fs []baseline.Forecaster, m series.Matrix, from, end, h int) (choice []int, mse []float64) {
	choice, mse = make([]int, m.N), make([]float64, m.N)
	for i := range choice {
		choice[i], mse[i] = -1, math.Inf(1)
	}
	for j, f := range fs {
		for i, v := range EntityMSE(f, m, from, end, h) {
			if v < mse[i] {
				choice[i], mse[i] = j, v
			}
		}
	}
	return choice, mse
}
