package baseline

import (
	"math"
	"testing"
)

// TestAutocovariances checks the ARMA autocovariances against closed
// forms (Brockwell and Davis, Introduction to Time Series and
// Forecasting, section 3.2), unit innovation variance:
//
//	ARMA(1,1): gamma0 = (1 + 2 phi theta + theta^2)/(1 - phi^2),
//	           gamma1 = (1 + phi theta)(phi + theta)/(1 - phi^2),
//	           gamma2 = phi gamma1;
//	AR(2):     gamma0 = (1 - phi2)/((1 + phi2)((1 - phi2)^2 - phi1^2)),
//	           rho1 = phi1/(1 - phi2), rho2 = phi1 rho1 + phi2;
//
// and refuses an explosive autoregression.
func TestAutocovariances(t *testing.T) {
	phi, theta := 0.6, -0.3
	g, err := autocovariances([]float64{phi}, []float64{theta}, 3)
	g1 := (1 + phi*theta) * (phi + theta) / (1 - phi*phi)
	want := []float64{(1 + 2*phi*theta + theta*theta) / (1 - phi*phi), g1, phi * g1}
	for k := range want {
		if err != nil || math.Abs(g[k]-want[k]) > 1e-12 {
			t.Fatalf("ARMA(1,1) gamma = %v (%v), want %v", g, err, want)
		}
	}
	p1, p2 := 0.5, 0.3
	g, err = autocovariances([]float64{p1, p2}, nil, 3)
	g0 := (1 - p2) / ((1 + p2) * ((1-p2)*(1-p2) - p1*p1))
	r1 := p1 / (1 - p2)
	want = []float64{g0, g0 * r1, g0 * (p1*r1 + p2)}
	for k := range want {
		if err != nil || math.Abs(g[k]-want[k]) > 1e-12 {
			t.Fatalf("AR(2) gamma = %v (%v), want %v", g, err, want)
		}
	}
	if _, err := autocovariances([]float64{1.1}, nil, 2); err != errNotStationary {
		t.Errorf("AR(1) with phi 1.1: error %v, want errNotStationary", err)
	}
}

// TestCSSGradient checks the conditional sum of squares' analytic
// gradient against central differences, for a seasonal model with every
// part and a constant, at a point away from zero.
func TestCSSGradient(t *testing.T) {
	w := make([]float64, 80)
	s := uint64(3)
	for i := range w {
		s = s*6364136223846793005 + 1442695040888963407
		w[i] = float64(int64(s>>11))/float64(1<<53) + 0.3*math.Sin(float64(i))
		if i > 0 {
			w[i] += 0.5 * w[i-1]
		}
	}
	sp := armaSpec{order: ARIMAOrder{P: 2, Q: 1, SP: 1, SQ: 2}, period: 4, constant: true, scale: 0.7}
	u := []float64{0.3, -0.2, 0.4, -0.3, 0.2, 0.1, 0.5}
	g := make([]float64, len(u))
	sp.cssGradient(w, u, g)
	const h = 1e-6
	for i := range u {
		v := u[i]
		u[i] = v + h
		up := sp.css(w, u)
		u[i] = v - h
		down := sp.css(w, u)
		u[i] = v
		if fd := (up - down) / (2 * h); math.Abs(fd-g[i]) > 1e-6*(1+math.Abs(fd)) {
			t.Errorf("parameter %d: gradient %v, central difference %v", i, g[i], fd)
		}
	}
}

// testSeries is n values of an autoregressive series with a sine, from
// a fixed linear congruential generator.
func testSeries(n int) []float64 {
	w := make([]float64, n)
	s := uint64(3)
	for i := range w {
		s = s*6364136223846793005 + 1442695040888963407
		w[i] = float64(int64(s>>11))/float64(1<<53) + 0.3*math.Sin(float64(i))
		if i > 0 {
			w[i] += 0.5 * w[i-1]
		}
	}
	return w
}

// TestCSSGradientOrders checks the gradient's recursions for every
// number of moving-average terms a non-seasonal model may have (none, the
// unrolled one to five) against central differences.
func TestCSSGradientOrders(t *testing.T) {
	w := testSeries(120)
	for q := 0; q <= 5; q++ {
		sp := armaSpec{order: ARIMAOrder{P: 2, Q: q}, period: 1, constant: true, scale: 0.7}
		u := []float64{0.3, -0.2}
		for j := range q {
			u = append(u, 0.3/float64(j+1)*math.Pow(-1, float64(j)))
		}
		u = append(u, 0.5)
		g := make([]float64, len(u))
		sp.cssGradient(w, u, g)
		const h = 1e-6
		for i := range u {
			v := u[i]
			u[i] = v + h
			up := sp.css(w, u)
			u[i] = v - h
			down := sp.css(w, u)
			u[i] = v
			if fd := (up - down) / (2 * h); math.Abs(fd-g[i]) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("q = %d, parameter %d: gradient %v, central difference %v", q, i, g[i], fd)
			}
		}
	}
}

// TestFilterSettles checks that the Kalman filter fixes its gain once it
// has converged and that doing so leaves the innovations and their
// variances as the full recursion gives them, to 1e-12: an ARMA(2,1)
// whose moving average converges fast settles within 100 rows; one with
// a moving-average root near the unit circle (theta -0.95, whose
// prediction variance converges like 0.95^(2t)) only after 200.
func TestFilterSettles(t *testing.T) {
	w := testSeries(800)
	for _, c := range []struct {
		phi, theta []float64
		from, to   int
	}{
		{[]float64{0.5, -0.2}, []float64{0.4}, 0, 100},
		{[]float64{0.3}, []float64{-0.95}, 200, 799},
	} {
		k, err := newARMAFilter(c.phi, c.theta)
		full, _ := newARMAFilter(c.phi, c.theta)
		if err != nil {
			t.Fatal(err)
		}
		settledAt := -1
		for i, v := range w {
			e, f := k.update(v)
			full.settled, full.same = false, 0
			fe, ff := full.update(v)
			if math.Abs(e-fe) > 1e-12*(1+math.Abs(fe)) || math.Abs(f-ff) > 1e-12*ff {
				t.Fatalf("phi %v theta %v row %d: innovation %v variance %v, full recursion %v %v", c.phi, c.theta, i, e, f, fe, ff)
			}
			if k.settled && settledAt < 0 {
				settledAt = i
			}
		}
		if settledAt < c.from || settledAt > c.to {
			t.Errorf("phi %v theta %v: settled at row %d, want from %d to %d", c.phi, c.theta, settledAt, c.from, c.to)
		}
	}
}
