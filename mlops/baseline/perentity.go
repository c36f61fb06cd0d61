package baseline

import (
	"fmt"
	"slices"

	"github.com/mallard/mallard/mlops/series"
)

// KindAuto names a per-entity choice among fitted forecasters (see
// PerEntity). Like KindMean it is not among Kinds: whoever chooses fits
// its members.
const KindAuto Kind = "auto"

// PerEntity forecasts each entity with the member chosen for it: entity
// i's rows are what Members[Choice[i]] forecasts for it, each member
// forecasting (and, over several steps, feeding back) its own forecasts
// of every entity. It reads the rows its members read.
type PerEntity struct {
	Members []Forecaster
	Choice  []int
}

// Name is KindAuto.
func (p *PerEntity) Name() string { return string(KindAuto) }

// Forecast writes each entity's forecast by its chosen member into dst.
// It panics if Choice does not give every entity of m a member.
func (p *PerEntity) Forecast(m series.Matrix, origin int, dst [][]float64) {
	if len(p.Choice) != m.N {
		panic(fmt.Sprintf("baseline: per-entity choice of %d entities for %d", len(p.Choice), m.N))
	}
	tmp := Rows(len(dst), m.N)
	for j, f := range p.Members {
		if !slices.Contains(p.Choice, j) {
			continue
		}
		f.Forecast(m, origin, tmp)
		for k, row := range dst {
			for i, c := range p.Choice {
				if c == j {
					row[i] = tmp[k][i]
				}
			}
		}
	}
}

// OneStep writes each entity's one-step forecasts of rows from..m.T-1 by
// its chosen member into dst, row-major; a member that is a OneStepper
// filters the history once.
func (p *PerEntity) OneStep(m series.Matrix, from int, dst []float64) {
	tmp := make([]float64, len(dst))
	for j, f := range p.Members {
		if !slices.Contains(p.Choice, j) {
			continue
		}
		if o, ok := f.(OneStepper); ok {
			o.OneStep(m, from, tmp)
		} else {
			for t := from; t < m.T; t++ {
				f.Forecast(m, t, [][]float64{tmp[(t-from)*m.N : (t-from+1)*m.N]})
			}
		}
		for r := 0; r < len(dst); r += m.N {
			for i, c := range p.Choice {
				if c == j {
					dst[r+i] = tmp[r+i]
				}
			}
		}
	}
}
