package recommender

import "github.com/mallard/mallard/mlops/linalg"

// optimizer applies one step of Adam or plain SGD to slices of weights.
// Adam is linalg.Adam's sparse form with the step count t shared by all
// weights: applied only to the table rows a batch uses, it is lazy Adam,
// and the moments are float32, m and v of each weight side by side (see
// linalg.AdamStep.Sparse). SGD is w ← w − LR·g.
type optimizer struct {
	adam bool
	lr   float64
	opt  linalg.Adam
	t    int
	step linalg.AdamStep // opt at step t
}

func newOptimizer(cfg Config) optimizer {
	return optimizer{adam: cfg.Optimizer == "adam", lr: cfg.LR, opt: linalg.NewAdam(cfg.LR)}
}

// next starts a step.
func (o *optimizer) next() {
	o.t++
	o.step = o.opt.At(o.t)
}

// update steps the weights w with gradient g; mv holds Adam's moments of
// w (m and v of w[i] at mv[2i] and mv[2i+1]), nil for SGD.
func (o *optimizer) update(w []float64, mv []float32, g []float64) {
	if !o.adam {
		for i, gi := range g {
			w[i] -= o.lr * gi
		}
		return
	}
	o.step.Sparse(w, mv, g)
}

// moments returns zero Adam moments of n weights, or nil for SGD.
func (o *optimizer) moments(n int) []float32 {
	if !o.adam {
		return nil
	}
	return linalg.SparseMoments(n)
}
