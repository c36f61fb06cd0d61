package nn

import (
	"math"

	"github.com/mallard/mallard/mlops/linalg"
	"gonum.org/v1/gonum/mat"
)

// Optimizer updates parameters in place from their accumulated gradients.
// Step neither reads nor changes anything but the given params' W and its
// own state, and it does not clear the gradients: call ZeroGrad before the
// next accumulation. Implementations visit params in slice order, so equal
// inputs give bit-identical results.
type Optimizer interface {
	Step(params []*Param)
}

// SGD is stochastic gradient descent with optional momentum, with
// PyTorch's semantics (no dampening, no Nesterov, no weight decay): for each
// parameter v ← Momentum·v + g, then w ← w − LR·v, where v starts at zero,
// so the first step is w ← w − LR·g. With Momentum 0 no velocity is kept.
// The velocity of each parameter is held by the optimizer, keyed by the
// *Param, so an SGD must be used with the same Params from step to step.
type SGD struct {
	LR, Momentum float64

	velocity map[*Param]*mat.Dense
}

// NewSGD returns an SGD with learning rate lr and the given momentum.
func NewSGD(lr, momentum float64) *SGD {
	return &SGD{LR: lr, Momentum: momentum}
}

// Step applies one update to each of params from its Grad.
func (s *SGD) Step(params []*Param) {
	for _, p := range params {
		if s.Momentum == 0 {
			p.W.Add(p.W, scaled(-s.LR, p.Grad))
			continue
		}
		if s.velocity == nil {
			s.velocity = make(map[*Param]*mat.Dense)
		}
		v, ok := s.velocity[p]
		if !ok {
			r, c := p.W.Dims()
			v = mat.NewDense(r, c, nil)
			s.velocity[p] = v
		}
		v.Scale(s.Momentum, v)
		v.Add(v, p.Grad)
		p.W.Add(p.W, scaled(-s.LR, v))
	}
}

// scaled returns f·m as a new matrix.
func scaled(f float64, m *mat.Dense) *mat.Dense {
	var out mat.Dense
	out.Scale(f, m)
	return &out
}

// Adam is linalg.Adam over Params: each parameter's float64 moments and
// step count are held by the optimizer, keyed by the *Param, and every
// row of the parameter is stepped with linalg.AdamStep.Dense. Build one
// with NewAdam for PyTorch's defaults.
type Adam struct {
	linalg.Adam

	state map[*Param]*adamState
}

// adamState is one parameter's running moments and step count.
type adamState struct {
	m, v *mat.Dense
	t    int
}

// NewAdam returns an Adam with learning rate lr and PyTorch's defaults
// β1 = 0.9, β2 = 0.999 and Eps = 1e-8.
func NewAdam(lr float64) *Adam {
	return &Adam{Adam: linalg.NewAdam(lr)}
}

// Step applies one update to each of params from its Grad.
func (a *Adam) Step(params []*Param) {
	if a.state == nil {
		a.state = make(map[*Param]*adamState)
	}
	for _, p := range params {
		st, ok := a.state[p]
		if !ok {
			r, c := p.W.Dims()
			st = &adamState{m: mat.NewDense(r, c, nil), v: mat.NewDense(r, c, nil)}
			a.state[p] = st
		}
		st.t++
		step := a.At(st.t)
		rows, _ := p.W.Dims()
		for i := range rows {
			step.Dense(p.W.RawRowView(i), st.m.RawRowView(i), st.v.RawRowView(i), p.Grad.RawRowView(i))
		}
	}
}

// ClipGradNorm rescales the gradients of params in place so that their
// global L2 norm (over all gradients together) is at most maxNorm, and
// returns the norm before clipping, as torch.nn.utils.clip_grad_norm_ does:
// every gradient is multiplied by maxNorm/(norm+1e-6) when that factor is
// below 1. A non-finite norm is returned without touching the gradients, so
// the caller can skip the step. maxNorm must be non-negative.
func ClipGradNorm(params []*Param, maxNorm float64) float64 {
	var norm float64
	for _, p := range params {
		norm = math.Hypot(norm, mat.Norm(p.Grad, 2))
	}
	if math.IsInf(norm, 0) || math.IsNaN(norm) {
		return norm
	}
	coef := maxNorm / (norm + 1e-6)
	if coef < 1 {
		for _, p := range params {
			p.Grad.Scale(coef, p.Grad)
		}
	}
	return norm
}
