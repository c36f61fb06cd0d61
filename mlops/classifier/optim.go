package classifier

import "github.com/mallard/mallard/mlops/linalg"

// Optimisers of a Config.
const (
	OptimizerAdam = "adam"
	OptimizerSGD  = "sgd"
)

// optimizer holds one worker's optimiser state. Every worker steps the
// same weights with the same averaged gradient, so every worker's weights
// stay equal to the bit.
type optimizer struct {
	cfg  Config
	m, v []float64 // momentum (SGD) or Adam's moments
	t    int
}

func newOptimizer(cfg Config, n int) *optimizer {
	return &optimizer{cfg: cfg, m: make([]float64, n), v: make([]float64, n)}
}

// step applies one update to w with gradient g, after adding the weight
// decay term WeightDecay·w to g (L2 regularisation, as PyTorch's SGD and
// Adam apply weight_decay).
func (o *optimizer) step(w, g []float64) {
	if wd := o.cfg.WeightDecay; wd != 0 {
		linalg.Axpy(g, wd, w)
	}
	o.t++
	if o.cfg.Optimizer == OptimizerSGD {
		// PyTorch's SGD with momentum μ: v ← μ·v + g; w ← w − lr·v.
		mu, lr := o.cfg.Momentum, o.cfg.LR
		for i, gi := range g {
			o.m[i] = mu*o.m[i] + gi
			w[i] -= lr * o.m[i]
		}
		return
	}
	s := linalg.NewAdam(o.cfg.LR).At(o.t)
	s.Dense(w, o.m, o.v, g)
}
