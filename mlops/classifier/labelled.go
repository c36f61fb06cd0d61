package classifier

import (
	"context"
	"strconv"
	"strings"
)

// SpillPiece is the most rows whose features are encoded at a time
// before they are written to a Spill: what reading holds besides the
// targets is 2 x 8 x SpillPiece x the row's width (doubles, then bytes).
const SpillPiece = 256

// SpillRowBytes is what a row keeps in memory when its features are
// spilled: its target (a label's string header, or a double), its split
// value's and its index in the split.
const SpillRowBytes = 48

// Labelled are a source's rows as read: the features (spilled to a
// file), the targets (labels of a classifier or values of a regressor)
// and, with a split column, each row's part.
type Labelled struct {
	Rows   *Spill
	Labels []string
	Values []float64
	Parts  []string
}

// Len is the number of rows.
func (d *Labelled) Len() int { return len(d.Labels) + len(d.Values) }

// Part is the rows idx of d.
func (d *Labelled) Part(idx []int) Part {
	t := d.Target(idx)
	return Part{Rows: Rows(d.Rows, idx), Labels: t.Labels, Values: t.Values}
}

// Target is the targets of the rows idx of d.
func (d *Labelled) Target(idx []int) Target {
	return Target{Labels: pick(d.Labels, idx), Values: pick(d.Values, idx)}
}

// Fingerprint identifies the rows of d, read with cols (see the
// package's Fingerprint).
func (d *Labelled) Fingerprint(ctx context.Context, cols Columns) (string, error) {
	return Fingerprint(ctx, cols.Features, d.Labels, d.Values, d.Parts, d.Rows)
}

// pick is the elements idx of v; nil for a nil v.
func pick[T any](v []T, idx []int) []T {
	if v == nil {
		return nil
	}
	return pickRows(v, idx)
}

// ShapeText writes an image's shape (or any list of integers) as SQL
// does: [1, 28, 28].
func ShapeText(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
