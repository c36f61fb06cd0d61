package gat

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mallard/mallard/mlops/baseline"
	"github.com/mallard/mallard/mlops/nn"
	"github.com/mallard/mallard/mlops/series"
	"gonum.org/v1/gonum/mat"
)

// TestNetGradients checks every parameter's gradient of an anchored
// network with a highway, the highway's included, against central finite
// differences of the loss sum_i c_i * pred_i.
func TestNetGradients(t *testing.T) {
	const n, window, lags = 5, 3, 2
	rng := rand.New(rand.NewPCG(4, 5))
	cfg := DefaultConfig()
	cfg.Window, cfg.Hidden, cfg.Highway = window, []int{4}, lags
	net := newNet(cfg, rng)
	for _, p := range net.Params() { // leave the zero start, so that every path carries gradient
		for i, d := 0, p.W.RawMatrix().Data; i < len(d); i++ {
			d[i] += 0.3 * rng.NormFloat64()
		}
	}
	x, l := mat.NewDense(n, window, nil), mat.NewDense(n, lags, nil)
	for _, d := range [][]float64{x.RawMatrix().Data, l.RawMatrix().Data} {
		for i := range d {
			d[i] = rng.NormFloat64()
		}
	}
	g := &nn.Graph{N: n}
	for i := range n {
		for j := range n {
			if i != j {
				g.Src, g.Dst, g.Attr = append(g.Src, i), append(g.Dst, j), append(g.Attr, rng.Float64()*2-1)
			}
		}
	}
	c := make([]float64, n)
	for i := range c {
		c[i] = rng.NormFloat64()
	}
	loss := func() float64 {
		out, sum := net.forward(g, x, l), 0.0
		for i := range n {
			sum += c[i] * out.At(i, 0)
		}
		return sum
	}
	for _, p := range net.Params() {
		p.ZeroGrad()
	}
	loss()
	net.backward(mat.NewDense(n, 1, c))
	for _, p := range net.Params() {
		data, grad := p.W.RawMatrix().Data, p.Grad.RawMatrix().Data
		for i := range data {
			const h = 1e-6
			old := data[i]
			data[i] = old + h
			up := loss()
			data[i] = old - h
			down := loss()
			data[i] = old
			if want := (up - down) / (2 * h); math.Abs(grad[i]-want) > 1e-6*math.Max(1, math.Abs(want)) {
				t.Errorf("%s[%d]: gradient %v, finite difference %v", p.Name, i, grad[i], want)
			}
		}
	}
}

// TestAnchoredInputs checks the features and lags of an anchored sample by
// hand: the window less the last value, and the last differences.
func TestAnchoredInputs(t *testing.T) {
	m := series.Matrix{T: 6, N: 2, Values: []float64{1, 10, 2, 20, 4, 30, 7, 50, 11, 60, 0, 0}}
	cfg := DefaultConfig()
	cfg.Window, cfg.Highway = 2, 3
	s := newSampler(m, cfg, nil, nil, 0)
	s.inputs(5) // rows 3, 4 are the window; differences of rows 2..4
	if got, want := s.x.RawMatrix().Data, []float64{7 - 11, 0, 50 - 60, 0}; !equal(got, want) {
		t.Errorf("features %v, want %v", got, want)
	}
	if got, want := s.lags.RawMatrix().Data, []float64{2, 3, 4, 10, 20, 10}; !equal(got, want) {
		t.Errorf("lags %v, want %v", got, want)
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestARIMAAnchorDecodes checks that an anchor stored as a fitted arima
// decodes to a forecaster that forecasts as the fitted one does, and
// that it reads one row before its target, as arima's Forecast needs.
func TestARIMAAnchorDecodes(t *testing.T) {
	m := series.Matrix{T: 40, N: 2, Values: make([]float64, 80)}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 2; i < len(m.Values); i++ {
		m.Values[i] = 0.6*m.Values[i-2] + rng.NormFloat64()
	}
	train := make([]int, 0, 30)
	for t := 1; t < 30; t++ {
		train = append(train, t)
	}
	f, err := baseline.FitForecaster(baseline.KindARIMA, m, train, baseline.Options{Window: 1, Season: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	g, err := (&Anchor{Kind: string(baseline.KindARIMA), Fit: data}).forecaster()
	if err != nil {
		t.Fatal(err)
	}
	want, got := baseline.Rows(3, m.N), baseline.Rows(3, m.N)
	f.Forecast(m, 35, want)
	g.Forecast(m, 35, got)
	for k := range want {
		for n := range want[k] {
			if got[k][n] != want[k][n] {
				t.Fatalf("step %d entity %d: decoded %v, fitted %v", k+1, n, got[k][n], want[k][n])
			}
		}
	}
	if span := anchorSpan(string(baseline.KindARIMA), 4, 12); span != 1 {
		t.Errorf("anchorSpan(arima) = %d, want 1", span)
	}
}
