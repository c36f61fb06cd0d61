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
