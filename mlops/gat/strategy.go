package gat

import (
	"fmt"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// A strategy is how the network forecasts past one step (Config.Strategy):
//
//   - "recursive": the network predicts the next row, and a forecast
//     feeds each step's prediction back as the next step's input;
//   - "direct": the network forecasts step s from the origin when told s:
//     its input has, beside each node's window, a one-hot step embedding
//     of Horizon columns (the first layer's weights on them are the
//     embedding), and its highway a row per step; each step's output is
//     added to the anchor's forecast of that step. One network serves
//     every step, trained on every step from each origin, so an epoch
//     costs Horizon times a recursive one's forward and backward passes;
//   - "multi_output": the network's last layer and highway have one
//     output per step 1..Horizon, each added to the anchor's forecast of
//     that step from the origin; one pass forecasts every step.
//
// Direct and multi-output networks train on the squared error over every
// step 1..Horizon from each origin whose steps are all fitting rows. A
// forecast of at most Horizon steps is the network's own; a longer one
// recurses in blocks of Horizon rows, each block's forecasts fed back as
// the next block's history. At Horizon 1 the three are one network:
// direct and multi_output are recursive.
const (
	StrategyRecursive   = "recursive"
	StrategyDirect      = "direct"
	StrategyMultiOutput = "multi_output"
)

// Strategies are the values Config.Strategy accepts ("" is recursive).
func Strategies() []string { return []string{StrategyRecursive, StrategyDirect, StrategyMultiOutput} }

// steps is how many steps the network forecasts from an origin without
// recursion: the horizon for direct and multi_output, else 1.
func (c Config) steps() int {
	if c.Strategy == StrategyMultiOutput || c.Strategy == StrategyDirect {
		return c.horizon()
	}
	return 1
}

// outputs is how many values per node the network outputs: the steps of
// a multi-output network, else 1.
func (c Config) outputs() int {
	if c.Strategy == StrategyMultiOutput {
		return c.horizon()
	}
	return 1
}

// stepInputs is the width of a direct network's step embedding: its
// steps above 1, else 0.
func (c Config) stepInputs() int {
	if c.Strategy == StrategyDirect && c.steps() > 1 {
		return c.steps()
	}
	return 0
}

// steps runs net forward on the sample whose origin is row t and returns
// its forecasts of rows t..t+h-1 (N x h, h the network's steps), each
// step's anchor forecast added to the network's output when anchored
// (see stepBases). The matrix is valid until the next forward.
func (s *sampler) steps(net *Net, t int) *mat.Dense {
	var out *mat.Dense
	if h := s.stepCols; h > 0 {
		if s.multi == nil || s.multi.RawMatrix().Rows != s.m.N {
			s.multi = mat.NewDense(s.m.N, h, nil)
		}
		out = s.multi
		for k := range h {
			s.step = k
			out.Slice(0, s.m.N, k, k+1).(*mat.Dense).Copy(s.forward(net, t))
		}
		s.step = 0
	} else {
		out = s.forward(net, t)
	}
	if !s.anchored {
		return out
	}
	_, h := out.Dims()
	base := s.stepBases(t, h)
	for k := range h {
		for i := range s.m.N {
			out.Set(i, k, out.At(i, k)+base[k*s.m.N+i])
		}
	}
	return out
}

// stepBases is the anchor's forecast of steps 1..h from origin t, step
// by step (k*N+i is entity i's at step k+1): the last value at every
// step, the forecasts computed ahead, or the anchor's forecast from the
// rows before t.
func (s *sampler) stepBases(t, h int) []float64 {
	n := s.m.N
	if s.preSteps != nil && t >= s.preFrom && (t-s.preFrom+1)*h*n <= len(s.preSteps) {
		return s.preSteps[(t-s.preFrom)*h*n : (t-s.preFrom+1)*h*n]
	}
	if len(s.stepBuf) < h*n {
		s.stepBuf = make([]float64, h*n)
	}
	base := s.stepBuf[:h*n]
	if s.anchor == nil {
		for k := range h {
			copy(base[k*n:(k+1)*n], s.m.Row(t-1))
		}
		return base
	}
	rows := make([][]float64, h)
	for k := range rows {
		rows[k] = base[k*n : (k+1)*n]
	}
	s.anchor.Forecast(s.m, t, rows)
	return base
}

// anchorSteps are the anchor's forecasts of steps 1..h from every origin
// from..m.T-1 of m, origin-major (see stepBases): computed once for the
// training matrix, since a fitted anchor refilters the history before
// each origin.
func anchorSteps(f baseline.Forecaster, m series.Matrix, from, h int) []float64 {
	n := m.N
	out := make([]float64, (m.T-from)*h*n)
	rows := make([][]float64, h)
	for t := from; t < m.T; t++ {
		at := out[(t-from)*h*n:]
		for k := range rows {
			rows[k] = at[k*n : (k+1)*n]
		}
		f.Forecast(m, t, rows)
	}
	return out
}

// multiFitting are the fitting samples a multi-output network trains on:
// those whose steps 1..h all lie in the fitting rows, so that no
// validation row is a target.
func multiFitting(fit []int, h int) []int {
	if len(fit) == 0 {
		return fit
	}
	last := fit[len(fit)-1]
	out := make([]int, 0, len(fit))
	for _, t := range fit {
		if t+h-1 <= last {
			out = append(out, t)
		}
	}
	return out
}

// backwardSteps adds to net's gradients those of the squared error of
// its forecasts of steps 1..h from origin t (see steps) against rows
// t..t+h-1: one pass of a multi-output network, one per step of a direct
// one. dy is the loss gradient's buffer, N x outputs.
func (s *sampler) backwardSteps(net *Net, t int, dy *mat.Dense) {
	h := s.stepCols
	if h == 0 {
		pred := s.steps(net, t)
		_, h = pred.Dims()
		for k := range h {
			for i := range s.m.N {
				dy.Set(i, k, 2*(pred.At(i, k)-s.m.At(t+k, i)))
			}
		}
		net.backward(dy)
		return
	}
	base := s.stepBases(t, h)
	for k := range h {
		s.step = k
		pred := s.forward(net, t)
		for i := range s.m.N {
			q := pred.At(i, 0)
			if s.anchored {
				q += base[k*s.m.N+i]
			}
			dy.Set(i, 0, 2*(q-s.m.At(t+k, i)))
		}
		net.backward(dy)
	}
	s.step = 0
}

// stepsSSE is the summed squared error over every entity and steps
// 1..h of a multi-output network's forecasts from origins.
func (s *sampler) stepsSSE(net *Net, origins []int) float64 {
	var sum float64
	for _, o := range origins {
		pred := s.steps(net, o)
		_, h := pred.Dims()
		for k := range h {
			for i := range s.m.N {
				d := pred.At(i, k) - s.m.At(o+k, i)
				sum += d * d
			}
		}
	}
	return sum
}

// blocks forecasts with a multi-output network of h outputs: from the
// origin it predicts h rows at once, then, past h steps, again from the
// end of each block over a copy of the history with the block's forecasts
// appended.
type blocks struct {
	net    *Net
	cfg    Config
	anchor baseline.Forecaster
	s      *sampler
}

func (b *blocks) Name() string { return ModelMethod }

func (b *blocks) Forecast(m series.Matrix, origin int, dst [][]float64) {
	span := b.cfg.Span()
	if origin < span || origin > m.T {
		panic(fmt.Sprintf("gat: forecast origin %d needs %d rows before it, out of range for %d rows", origin, span, m.T))
	}
	n, h := m.N, b.cfg.steps()
	buf := make([]float64, (origin+len(dst))*n)
	copy(buf, m.Values[:origin*n])
	for k := 0; k < len(dst); k += h {
		t := origin + k
		x := series.Matrix{T: t, N: n, Values: buf[:t*n]}
		if b.s == nil || b.s.m.N != n {
			s := newSampler(x, b.cfg, b.anchor, nil, 0)
			b.s = &s
		}
		b.s.m = x
		pred := b.s.steps(b.net, t)
		for j := 0; j < h && k+j < len(dst); j++ {
			for i := range n {
				dst[k+j][i] = pred.At(i, j)
			}
			copy(buf[(t+j)*n:(t+j+1)*n], dst[k+j])
		}
	}
}

// prepareOutputs sets the run's fitting samples and, for a multi-output
// network with a fitted anchor, the anchor's forecasts of its steps.
func (r *training) prepareOutputs() error {
	r.fitting = r.train
	h := r.cfg.steps()
	if h == 1 {
		return nil
	}
	if r.fitting = multiFitting(r.train, h); len(r.fitting) == 0 {
		return fmt.Errorf("gat: strategy %s at horizon %d leaves no fitting sample whose %d steps are all fitting rows (of %d fitting samples)",
			r.cfg.Strategy, h, h, len(r.train))
	}
	if r.anchorFit != nil {
		r.preSteps = anchorSteps(r.anchorFit, r.m, r.cfg.Span(), h)
	}
	return nil
}

// directHighway starts the highway's rows of steps 2..steps at the
// least-squares regression of each step's value (its change from the
// last value when anchored) on the lags of its origin, over the fitting
// samples whose step is a fitting row: the direct autoregression, so that
// the untrained direct or multi-output network is to direct forecasts
// what the recursive one is to the one-step autoregression. Row 1 is highwayFit's.
// A step with fewer equations than unknowns, or whose regression has no
// solution, keeps zeros.
func directHighway(cfg Config, m series.Matrix, fit []int, net *Net) {
	p := cfg.Highway
	s := newSampler(m, cfg, nil, nil, 0)
	for k := 1; k < cfg.steps(); k++ {
		samples := multiFitting(fit, k+1)
		if len(samples)*m.N < p+1 {
			continue
		}
		x := mat.NewDense(len(samples)*m.N, p+1, nil)
		y := mat.NewVecDense(len(samples)*m.N, nil)
		for j, t := range samples {
			s.inputs(t)
			for i := range m.N {
				r := j*m.N + i
				copy(x.RawRowView(r)[:p], s.lags.RawRowView(i))
				x.Set(r, p, 1)
				v := m.At(t+k, i)
				if cfg.anchored() {
					v -= m.At(t-1, i)
				}
				y.SetVec(r, v)
			}
		}
		var beta mat.VecDense
		if err := beta.SolveVec(x, y); err != nil {
			if _, illConditioned := err.(mat.Condition); !illConditioned {
				continue
			}
		}
		copy(net.highway.W.RawRowView(k), beta.RawVector().Data)
	}
}
