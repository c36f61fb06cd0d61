//go:build duckdb_arrow

package functions

import (
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/mallard/mallard/mlops/classifier"
)

// spillPiece is the most rows spillBatch encodes at a time.
const spillPiece = 256

// spillBatch writes the features of batch b, read with selectList from
// its column a.first on, to rows, one record per row (see
// classifier.Spill), spillPiece rows at a time: a NULL number is NaN, a
// NULL text the category "", and a NULL image, or one whose length is
// not the product of the shape, an error naming the row.
func spillBatch(rows *classifier.Spill, a *featureAppender, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	for lo := 0; lo < n; lo += spillPiece {
		if err := spillPieceOf(rows, a, b.NewSlice(int64(lo), int64(min(lo+spillPiece, n)))); err != nil {
			return err
		}
	}
	return nil
}

// spillPieceOf is spillBatch of a slice of a batch; the records are
// encoded in a.rec.
func spillPieceOf(s *classifier.Spill, a *featureAppender, b arrow.RecordBatch) error {
	defer b.Release()
	n, width := int(b.NumRows()), s.Width()
	a.rec = slices.Grow(a.rec[:0], n*width)[:n*width]
	rec, off := a.rec, 0
	for k, f := range s.Layout() {
		arr := b.Column(a.first + k)
		switch f.Kind {
		case classifier.FeatureNumeric:
			vals, valid := floats(arr)
			for r := range n {
				v := vals[r]
				if !valid(r) {
					v = math.NaN()
				}
				rec[r*width+off] = v
			}
		case classifier.FeatureCategorical:
			texts := textValues(arr)
			for r := range n {
				rec[r*width+off] = s.Category(k, texts(r))
			}
		case classifier.FeatureImage:
			if err := a.images(f, arr, n, a.cols.Shape, func(r int, px []float64) { copy(rec[r*width+off:], px) }); err != nil {
				return err
			}
		}
		off += s.FeatureWidth(f)
	}
	a.rows += n
	return s.Write(rec, n)
}
