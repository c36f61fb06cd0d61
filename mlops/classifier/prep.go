package classifier

import (
	"fmt"
	"math"
	"slices"
)

// input is the network input shape the preprocessing produces.
func (p *Prep) input() shape {
	if im := p.Image; im != nil {
		return shape{im.Height, im.Width, im.Channels}
	}
	n := len(p.Numeric)
	for _, c := range p.Categorical {
		n += len(c.Levels)
	}
	return shape{1, 1, n}
}

// features returns t's rows preprocessed, one row of p.input().size()
// values each; t must have every column p was fitted on.
func (p *Prep) features(t *Table) ([]float64, error) {
	n, err := t.Rows()
	if err != nil {
		return nil, err
	}
	if p.Image != nil {
		return p.images(t, n)
	}
	dim := p.input().size()
	x := make([]float64, n*dim)
	for j, s := range p.Numeric {
		i := slices.IndexFunc(t.Numeric, func(c NumericColumn) bool { return c.Name == s.Name })
		if i < 0 {
			return nil, fmt.Errorf("numeric column %q is missing", s.Name)
		}
		for r, v := range t.Numeric[i].Values {
			if !math.IsNaN(v) {
				x[r*dim+j] = (v - s.Mean) / s.Std
			}
		}
	}
	off := len(p.Numeric)
	for _, lv := range p.Categorical {
		i := slices.IndexFunc(t.Categorical, func(c CategoricalColumn) bool { return c.Name == lv.Name })
		if i < 0 {
			return nil, fmt.Errorf("categorical column %q is missing", lv.Name)
		}
		for r, v := range t.Categorical[i].Values {
			if k, ok := slices.BinarySearch(lv.Levels, v); ok {
				x[r*dim+off+k] = 1
			}
		}
		off += len(lv.Levels)
	}
	return x, nil
}

// images transposes each image to channel-last and scales it to [0, 1].
func (p *Prep) images(t *Table, n int) ([]float64, error) {
	im, want := t.Image, p.Image
	if im == nil || im.Name != want.Name {
		return nil, fmt.Errorf("image column %q is missing", want.Name)
	}
	if im.Channels != want.Channels || im.Height != want.Height || im.Width != want.Width {
		return nil, fmt.Errorf("image column %q of shape [%d, %d, %d]: want [%d, %d, %d]", im.Name,
			im.Channels, im.Height, im.Width, want.Channels, want.Height, want.Width)
	}
	C, H, W := want.Channels, want.Height, want.Width
	x := make([]float64, n*C*H*W)
	for r, px := range im.Pixels {
		if len(px) != C*H*W {
			return nil, fmt.Errorf("image column %q row %d has %d values: want %d", im.Name, r, len(px), C*H*W)
		}
		dst := x[r*C*H*W : (r+1)*C*H*W]
		for c := range C {
			for i := range H * W {
				v := px[c*H*W+i]
				if !want.Raw {
					v = min(max(v/want.Scale, 0), 1)
				}
				dst[i*C+c] = v
			}
		}
	}
	return x, nil
}
