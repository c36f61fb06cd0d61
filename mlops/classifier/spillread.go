package classifier

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/mallard/mallard/sqlstate"
)

// Table reads the records of rows idx, in that order: features as the
// model takes them (numeric and text columns in layout order, or the
// image), without the dropped ones. Runs of consecutive rows are read
// with one ReadAt each.
func (s *Spill) Table(idx []int) (*Table, error) {
	vals, err := s.records(idx)
	if err != nil {
		return nil, err
	}
	t := NewTable(s.kept(), s.shape)
	num, cat, off := 0, 0, 0
	for k, f := range s.layout {
		w := s.FeatureWidth(f)
		if s.dropped[f.Name] {
			off += w
			continue
		}
		switch f.Kind {
		case FeatureNumeric:
			col := make([]float64, len(idx))
			for i := range idx {
				col[i] = vals[i*s.width+off]
			}
			t.Numeric[num].Values = col
			num++
		case FeatureCategorical:
			col := make([]string, len(idx))
			for i := range idx {
				if c := int(vals[i*s.width+off]); c >= 0 {
					col[i] = s.levels[k][c]
				}
			}
			t.Categorical[cat].Values = col
			cat++
		case FeatureImage:
			t.Image.Pixels = make([][]float64, len(idx))
			for i := range idx {
				t.Image.Pixels[i] = vals[i*s.width+off : i*s.width+off+w : i*s.width+off+w]
			}
		}
		off += w
	}
	return t, nil
}

// kept is the layout less the dropped features.
func (s *Spill) kept() []Feature {
	return slices.DeleteFunc(slices.Clone(s.layout), func(f Feature) bool { return s.dropped[f.Name] })
}

// records reads the records of rows idx into one slice, record after
// record.
func (s *Spill) records(idx []int) ([]float64, error) {
	size := 8 * s.width
	raw := make([]byte, len(idx)*size)
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && idx[j] == idx[j-1]+1 {
			j++
		}
		if idx[i] < 0 || idx[j-1] >= s.n {
			return nil, fmt.Errorf("spilled rows %d to %d of %d", idx[i], idx[j-1], s.n)
		}
		if _, err := s.f.ReadAt(raw[i*size:j*size], int64(idx[i])*int64(size)); err != nil && err != io.EOF {
			return nil, sqlstate.New(sqlstate.IOError, "%s: read the rows' features back from their temporary file: %v", s.fn, err)
		}
		i = j
	}
	vals := make([]float64, len(idx)*s.width)
	for i := range vals {
		vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return vals, nil
}
