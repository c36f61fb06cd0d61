package baseline

// mlScratch holds the buffers that one exact-likelihood search reuses
// from one evaluation of armaSpec.mlWith to the next (BFGS evaluates the
// likelihood twice per parameter for each finite-difference gradient):
// once they have grown, an evaluation allocates nothing. The values
// computed are those of fresh buffers, bit for bit: every buffer is
// zeroed or fully written before it is read, as a new one would be. A
// scratch serves one goroutine at a time.
type mlScratch struct {
	ar, ma, sar, sma   []float64 // the parameters, split
	arPhi, sarPhi, dl  []float64 // the transformed autoregressions and fromPACF's work
	phi, theta         []float64 // the expanded polynomials
	filter             armaFilter
	gamma, gu          []float64 // autocovariances of the process and of its autoregression
	rho, prev, cur     []float64 // arAutocovariances' work
	kappa, pacfA, pacf []float64 // toPACF's work
	statA, statB       []float64 // stationary's work
	terms              []maTerm
}

// grab is a zeroed slice of n values: a new one when s is nil, else buf's
// array, grown when too small, kept in buf for the next call.
func grab(s *mlScratch, buf *[]float64, n int) []float64 {
	if s == nil {
		return make([]float64, n)
	}
	*buf = resize(*buf, n)
	return *buf
}

// polysWith is polys with the buffers of s (nil: new ones).
func (sp armaSpec) polysWith(s *mlScratch, u []float64, trans bool) (phi, theta []float64, mu float64) {
	if s == nil {
		return sp.polys(u, trans)
	}
	o := sp.order
	i := 0
	take := func(buf *[]float64, n int) []float64 {
		*buf = append((*buf)[:0], u[i:i+n]...)
		i += n
		return *buf
	}
	ar, ma, sar, sma := take(&s.ar, o.P), take(&s.ma, o.Q), take(&s.sar, o.SP), take(&s.sma, o.SQ)
	if trans {
		ar = fromPACFInto(s, &s.arPhi, tanhAll(ar))
		sar = fromPACFInto(s, &s.sarPhi, tanhAll(sar))
	}
	if sp.constant {
		mu = u[i] * sp.scale
	}
	s.phi = expandInto(s.phi, ar, sar, sp.period, -1)
	s.theta = expandInto(s.theta, ma, sma, sp.period, 1)
	return s.phi, s.theta, mu
}

// fromPACFInto is fromPACF writing into dst's array (s's buffers; nil:
// new ones).
func fromPACFInto(s *mlScratch, dst *[]float64, kappa []float64) []float64 {
	phi := grab(s, dst, len(kappa))
	var prev []float64
	if s == nil {
		prev = make([]float64, len(kappa))
	} else {
		prev = grab(s, &s.dl, len(kappa))
	}
	for k, kk := range kappa {
		copy(prev, phi[:k])
		for j := range k {
			phi[j] = prev[j] - kk*prev[k-1-j]
		}
		phi[k] = kk
	}
	return phi
}
