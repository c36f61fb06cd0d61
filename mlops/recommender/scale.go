package recommender

// scale maps ratings to the network's [0, 1] and back: the least training
// rating lo to 0 and the greatest, hi, to 1. When every rating is equal the
// span is taken as 1.
type scale struct {
	lo, hi float64
}

func (s scale) span() float64 {
	if s.hi > s.lo {
		return s.hi - s.lo
	}
	return 1
}

// in maps a rating to the network's input and target scale.
func (s scale) in(r float64) float64 { return (r - s.lo) / s.span() }

// out maps a network output to a rating, clipped to [lo, hi].
func (s scale) out(y float64) float64 { return min(max(s.lo+s.span()*y, s.lo), s.hi) }
