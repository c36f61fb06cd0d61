package classifier

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
)

// Fingerprint identifies the data a model is trained on: the features,
// every target (labels of a classifier or values of a regressor), every
// row's split part and every feature value. It reads the spilled
// features once per numeric and text column, and once for an image.
func Fingerprint(ctx context.Context, features []Feature, labels []string, values []float64, parts []string, rows *Spill) (string, error) {
	h := sha256.New()
	for _, f := range features {
		fmt.Fprintf(h, "%s %s\n", f.Name, f.Kind)
	}
	var b [8]byte
	put := func(v float64) { binary.LittleEndian.PutUint64(b[:], math.Float64bits(v)); h.Write(b[:]) }
	for _, l := range labels {
		fmt.Fprintf(h, "%q\n", l)
	}
	for _, v := range values {
		put(v)
	}
	fmt.Fprintf(h, "%q\n", parts)
	t, err := rows.Table(nil)
	if err != nil {
		return "", err
	}
	for i := range t.Numeric {
		err = scanSpill(ctx, rows, func(c *Table) {
			for _, v := range c.Numeric[i].Values {
				put(v)
			}
		})
		if err != nil {
			return "", err
		}
	}
	for i := range t.Categorical {
		if err := hashCategories(ctx, h, rows, i); err != nil {
			return "", err
		}
	}
	if t.Image != nil {
		err = scanSpill(ctx, rows, func(c *Table) {
			for _, px := range c.Image.Pixels {
				for _, v := range px {
					put(v)
				}
			}
		})
	}
	return hex.EncodeToString(h.Sum(nil))[:16], err
}

// hashCategories writes text column i of every spilled row to w, as a
// list of quoted strings on a line of its own.
func hashCategories(ctx context.Context, w interface{ Write([]byte) (int, error) }, rows *Spill, i int) error {
	sep := "["
	err := scanSpill(ctx, rows, func(c *Table) {
		for _, v := range c.Categorical[i].Values {
			fmt.Fprintf(w, "%s%q", sep, v)
			sep = " "
		}
	})
	if err != nil {
		return err
	}
	if sep == "[" {
		sep = "[ " // no rows: "[]"
	}
	fmt.Fprintf(w, "%s]\n", sep[1:])
	return nil
}

// scanSpill hands fn every spilled row, in order, a chunk at a time.
func scanSpill(ctx context.Context, rows *Spill, fn func(*Table)) error {
	const chunk = 256
	idx := make([]int, 0, chunk)
	for start := 0; start < rows.Len(); start += chunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		idx = idx[:0]
		for r := start; r < min(start+chunk, rows.Len()); r++ {
			idx = append(idx, r)
		}
		t, err := rows.Table(idx)
		if err != nil {
			return err
		}
		fn(t)
	}
	return nil
}
