package gat

import (
	"errors"
	"fmt"
	"math"

	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// Shrink returns model with its network's correction shrunk toward the
// network's anchor alone (the untrained network, epoch 0 of a run from
// scratch), and the weight it kept: one step ahead the result forecasts
// a + α (g − a) for every entity, where g is model's forecast, a the
// anchor alone's and α the least-squares fit of y − a on g − a over the
// validation cells of m (one per validation sample and entity), clipped
// to [0, 1] (1 where g never departs from a), a forecast combination
// weight as Bates and Granger (1969) fit one. The result is an ordinary
// network: its last layer is model's scaled by α, which the untrained
// network's being zero makes exact, and its highway is moved α of the way
// from the untrained network's. Its Score is its validation MSE at the
// configured horizon. model must be anchored and m the matrix it was
// trained on, with validation.
func Shrink(model *Model, m series.Matrix) (*Model, float64, error) {
	cfg := model.Config
	if !cfg.anchored() {
		return nil, 0, errors.New("gat: shrink toward the anchor: the network is not anchored (target 'change')")
	}
	fit, val, _, err := cfg.Samples(m)
	if err != nil {
		return nil, 0, err
	}
	if len(val) == 0 {
		return nil, 0, errors.New("gat: shrink toward the anchor: the weight is fitted on validation; validation_fraction must be above 0")
	}
	net, err := model.net()
	if err != nil {
		return nil, 0, err
	}
	net0, err := initialNet(cfg, m, fit, model.Anchor, Start{})
	if err != nil {
		return nil, 0, err
	}
	s, err := model.newSampler(m)
	if err != nil {
		return nil, 0, err
	}
	alpha := shrinkWeight(net0, net, &s, val)
	if err := scaleCorrection(net, net0, alpha); err != nil {
		return nil, 0, err
	}
	out := newModel(cfg, m, net, model.Anchor, model.Kept)
	out.Sibling = model.Sibling
	f, err := out.Forecaster()
	if err != nil {
		return nil, 0, err
	}
	out.score, out.scored = validationMSE(f, m, val, cfg.horizon()), true
	return out, alpha, nil
}

// shrinkWeight is the least-squares weight α of y − a on g − a over the
// samples' cells, a being net0's one-step forecasts and g net's, clipped
// to [0, 1]; 1 where g equals a everywhere.
func shrinkWeight(net0, net *Net, s *sampler, samples []int) float64 {
	var num, den float64
	a := make([]float64, s.m.N)
	for _, t := range samples {
		p0, _ := s.predict(net0, t)
		copy(a, p0.RawMatrix().Data)
		g, y := s.predict(net, t)
		for i, v := range y {
			c := g.At(i, 0) - a[i]
			num, den = num+c*(v-a[i]), den+c*c
		}
	}
	if den == 0 {
		return 1
	}
	return math.Min(1, math.Max(0, num/den))
}

// scaleCorrection makes net's output net0's plus alpha times the
// difference of net's from net0's: net's last layer is scaled by alpha
// (its attention vectors by 1/alpha, which leaves every attention
// coefficient as it was) and its highway moved alpha of the way from
// net0's. It fails unless net0's last layer is zero, as an anchored
// network's is before training.
func scaleCorrection(net, net0 *Net, alpha float64) error {
	last, last0 := net.layers[len(net.layers)-1], net0.layers[len(net0.layers)-1]
	zero := []*mat.Dense{last0.conv.W.W, last0.conv.Bias.W}
	scaled := []*mat.Dense{last.conv.W.W, last.conv.Bias.W}
	if last0.skip != nil {
		zero, scaled = append(zero, last0.skip.Weight.W), append(scaled, last.skip.Weight.W)
		if last0.skip.Bias != nil {
			zero, scaled = append(zero, last0.skip.Bias.W), append(scaled, last.skip.Bias.W)
		}
	}
	for _, w := range zero {
		if mat.Norm(w, math.Inf(1)) != 0 {
			return fmt.Errorf("gat: shrink toward the anchor: the untrained network's last layer is not zero")
		}
	}
	for _, w := range scaled {
		w.Scale(alpha, w)
	}
	if alpha > 0 {
		last.conv.AttSrc.W.Scale(1/alpha, last.conv.AttSrc.W)
		last.conv.AttDst.W.Scale(1/alpha, last.conv.AttDst.W)
	}
	if net.highway != nil {
		h, h0 := net.highway.W, net0.highway.W
		h.Sub(h, h0)
		h.Scale(alpha, h)
		h.Add(h, h0)
	}
	return nil
}
