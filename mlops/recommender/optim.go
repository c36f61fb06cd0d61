package recommender

import "math"

// optimizer applies one step of Adam or plain SGD to slices of weights.
// Adam is PyTorch's (without weight decay or AMSGrad, as nn.Adam): with
// the step count t shared by all weights,
//
//	m ← β1·m + (1−β1)·g
//	v ← β2·v + (1−β2)·g²
//	w ← w − (LR/(1−β1ᵗ)) · m / (√v/√(1−β2ᵗ) + ε)
//
// Applied only to the table rows a batch uses, this is lazy Adam (PyTorch's
// SparseAdam, TensorFlow's LazyAdam): a row no batch touches keeps its
// weights and its moments. SGD is w ← w − LR·g.
//
// The moments are stored in float32, m and v of each weight side by side
// (the arithmetic is float64): a step over a batch's table rows is bound by
// memory traffic, which this cuts from 56 to 40 bytes a weight, and the
// tables' moments take half the memory.
type optimizer struct {
	adam                  bool
	lr, beta1, beta2, eps float64
	t                     int
	stepSize, invBC2      float64 // Adam's bias corrections at step t
}

func newOptimizer(cfg Config) optimizer {
	return optimizer{adam: cfg.Optimizer == "adam", lr: cfg.LR, beta1: 0.9, beta2: 0.999, eps: 1e-8}
}

// next starts a step.
func (o *optimizer) next() {
	o.t++
	o.stepSize = o.lr / (1 - math.Pow(o.beta1, float64(o.t)))
	o.invBC2 = 1 / math.Sqrt(1-math.Pow(o.beta2, float64(o.t)))
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
	w, mv = w[:len(g)], mv[:2*len(g)]
	for i, gi := range g {
		m := o.beta1*float64(mv[2*i]) + (1-o.beta1)*gi
		v := o.beta2*float64(mv[2*i+1]) + (1-o.beta2)*gi*gi
		mv[2*i], mv[2*i+1] = float32(m), float32(v)
		w[i] -= o.stepSize * m / (math.Sqrt(v)*o.invBC2 + o.eps)
	}
}

// moments returns zero Adam moments of n weights, or nil for SGD.
func (o *optimizer) moments(n int) []float32 {
	if !o.adam {
		return nil
	}
	return make([]float32, 2*n)
}
