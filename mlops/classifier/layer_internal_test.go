package classifier

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/floats"
)

// gradTol is the largest relative error the gradient checks accept.
const gradTol = 1e-6

// numericGrad is the central-difference gradient of f at x.
func numericGrad(f func([]float64) float64, x []float64) []float64 {
	return fd.Gradient(nil, f, x, &fd.Settings{Formula: fd.Central, Step: 1e-6})
}

// gradRelErr is ‖a−b‖₂ / max(1e-8, ‖a‖₂+‖b‖₂).
func gradRelErr(a, b []float64) float64 {
	d := make([]float64, len(a))
	floats.SubTo(d, a, b)
	return floats.Norm(d, 2) / math.Max(1e-8, floats.Norm(a, 2)+floats.Norm(b, 2))
}

func uniform(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 2*rng.Float64() - 1
	}
	return v
}

// checkLayer compares l's backward pass with finite differences of the
// loss Σ a⊙forward(w, x), with respect to the weights and the input.
func checkLayer(t *testing.T, l layer, in shape, n int, train bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = uint64(10 * i)
	}
	b := &batch{n: n, train: train, ids: ids, seed: 9, epoch: 2}
	w := uniform(rng, l.params())
	x := uniform(rng, n*in.size())
	a := uniform(rng, n*l.out().size())
	loss := func(w, x []float64) float64 { return floats.Dot(a, l.forward(w, x, b)) }
	loss(w, x)
	g := make([]float64, len(w))
	dx := l.backward(w, g, append([]float64(nil), a...), b)
	if len(w) > 0 {
		num := numericGrad(func(v []float64) float64 { return loss(v, x) }, w)
		if e := gradRelErr(g, num); e > gradTol {
			t.Errorf("weight gradient relative error %g > %g", e, gradTol)
		}
	}
	if dx == nil {
		return
	}
	dx = append([]float64(nil), dx...)
	num := numericGrad(func(v []float64) float64 { return loss(w, v) }, x)
	if e := gradRelErr(dx, num); e > gradTol {
		t.Errorf("input gradient relative error %g > %g", e, gradTol)
	}
}

func TestLayerGradients(t *testing.T) {
	img := shape{5, 4, 3}
	vec := shape{1, 1, 6}
	tests := []struct {
		name  string
		l     layer
		in    shape
		train bool
	}{
		{"dense", newDense(vec, 4, false), vec, true},
		{"dense on an image", newDense(img, 3, false), img, true},
		{"conv", newConv(img, 2, false), img, true},
		{"conv one channel", newConv(shape{4, 4, 1}, 3, false), shape{4, 4, 1}, true},
		{"relu", &relu{s: img}, img, true},
		{"maxpool odd", newMaxPool(img), img, true},
		{"maxpool", newMaxPool(shape{4, 6, 2}), shape{4, 6, 2}, true},
		{"dropout training", &dropout{s: vec, p: 0.4, index: 2}, vec, true},
		{"dropout evaluating", &dropout{s: vec, p: 0.4, index: 2}, vec, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkLayer(t, tt.l, tt.in, 3, tt.train) })
	}
}

func TestNetGradient(t *testing.T) {
	n, err := buildNet(Arch{{Kind: KindConv, Units: 2}, {Kind: KindReLU}, {Kind: KindMaxPool},
		{Kind: KindDropout, P: 0.3}, {Kind: KindDense, Units: 3}}, shape{4, 4, 2})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	w := uniform(rng, n.params())
	x := uniform(rng, 2*n.in.size())
	labels := []int{2, 0}
	b := &batch{n: 2, train: true, ids: []uint64{4, 7}, seed: 1, epoch: 1}
	loss := func(w []float64) float64 {
		l, _ := softmaxCE(n.forward(w, x, b), 3, labels, nil, 0, nil)
		return l
	}
	out := n.forward(w, x, b)
	d := make([]float64, len(out))
	softmaxCE(out, 3, labels, nil, 1, d)
	g := make([]float64, len(w))
	n.backward(w, g, d, b)
	if e := gradRelErr(g, numericGrad(loss, w)); e > gradTol {
		t.Errorf("network gradient relative error %g > %g", e, gradTol)
	}
}

func TestLossGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	logits := uniform(rng, 4*3)
	labels := []int{0, 2, 1, 2}
	d := make([]float64, len(logits))
	softmaxCE(logits, 3, labels, nil, 0.5, d)
	num := numericGrad(func(v []float64) float64 { l, _ := softmaxCE(v, 3, labels, nil, 0, nil); return 0.5 * l }, logits)
	if e := gradRelErr(d, num); e > gradTol {
		t.Errorf("cross-entropy gradient relative error %g", e)
	}
	weights := []float64{0.5, 2, 3}
	softmaxCE(logits, 3, labels, weights, 0.5, d)
	num = numericGrad(func(v []float64) float64 { l, _ := softmaxCE(v, 3, labels, weights, 0, nil); return 0.5 * l }, logits)
	if e := gradRelErr(d, num); e > gradTol {
		t.Errorf("class-weighted cross-entropy gradient relative error %g", e)
	}
	lw, _ := softmaxCE(logits[:3], 3, labels[:1], weights, 0, nil)
	l1, _ := softmaxCE(logits[:3], 3, labels[:1], nil, 0, nil)
	if math.Abs(lw-0.5*l1) > 1e-15 {
		t.Errorf("weighted loss %g, want half the unweighted %g", lw, l1)
	}
	pred, targets := uniform(rng, 5), uniform(rng, 5)
	squaredError(pred, targets, 0.25, d[:5])
	num = numericGrad(func(v []float64) float64 { return 0.25 * squaredError(v, targets, 0, nil) }, pred)
	if e := gradRelErr(d[:5], num); e > gradTol {
		t.Errorf("squared-error gradient relative error %g", e)
	}
}

func TestForwardByHand(t *testing.T) {
	b := &batch{n: 1}
	// Dense: [1 2]·[[1 2 3] [4 5 6]] + [0.5 0 -1] = [9.5 12 14].
	d := newDense(shape{1, 1, 2}, 3, true)
	assertValues(t, "dense", d.forward([]float64{1, 2, 3, 4, 5, 6, 0.5, 0, -1}, []float64{1, 2}, b), []float64{9.5, 12, 14})
	// A 3x3 filter of ones with bias 1 on a 3x3 image 1..9 sums each
	// pixel's neighbourhood within the image, plus 1.
	c := newConv(shape{3, 3, 1}, 1, true)
	w := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	assertValues(t, "conv", c.forward(w, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, b),
		[]float64{13, 22, 17, 28, 46, 34, 25, 40, 29})
	// Max pooling of a 2x4 image with 2 channels (interleaved).
	p := newMaxPool(shape{2, 4, 2})
	x := []float64{1, -1, 5, -2, 0, -3, 2, -4, 3, -5, 4, -6, 7, -7, 6, -8}
	assertValues(t, "maxpool", p.forward(nil, x, b), []float64{5, -1, 7, -3})
	r := &relu{s: shape{1, 1, 3}}
	assertValues(t, "relu", r.forward(nil, []float64{-1, 0, 2}, b), []float64{0, 0, 2})
	// Cross-entropy of equal logits over two classes is ln 2.
	if l, _ := softmaxCE([]float64{3, 3}, 2, []int{1}, nil, 0, nil); math.Abs(l-math.Ln2) > 1e-15 {
		t.Errorf("cross-entropy of equal logits = %v, want ln 2", l)
	}
}

func TestDropoutMaskByExample(t *testing.T) {
	// The same example gets the same mask in any batch position; another
	// epoch draws another mask.
	d := &dropout{s: shape{1, 1, 64}, p: 0.5, index: 1}
	x := make([]float64, 2*64)
	for i := range x {
		x[i] = 1
	}
	y1 := append([]float64(nil), d.forward(nil, x, &batch{n: 2, train: true, ids: []uint64{3, 8}, seed: 1, epoch: 1})...)
	y2 := append([]float64(nil), d.forward(nil, x, &batch{n: 2, train: true, ids: []uint64{8, 3}, seed: 1, epoch: 1})...)
	assertValues(t, "mask of example 3", y2[64:], y1[:64])
	y3 := d.forward(nil, x[:64], &batch{n: 1, train: true, ids: []uint64{3}, seed: 1, epoch: 2})
	if floats.Equal(y3, y1[:64]) {
		t.Error("epoch 2 drew epoch 1's mask")
	}
	for _, v := range y1 {
		if v != 0 && v != 2 {
			t.Fatalf("dropout output %v: want 0 or 2", v)
		}
	}
}

func assertValues(t *testing.T, name string, got, want []float64) {
	t.Helper()
	if !floats.EqualApprox(got, want, 1e-12) {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}
