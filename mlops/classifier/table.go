package classifier

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
)

// Table is the input of a model: numeric and categorical columns, or one
// image column. Every column has the same number of rows.
type Table struct {
	Numeric     []NumericColumn
	Categorical []CategoricalColumn
	Image       *ImageColumn
}

// NumericColumn is a column of numbers; NaN is a missing value.
type NumericColumn struct {
	Name   string
	Values []float64
}

// CategoricalColumn is a column of category names.
type CategoricalColumn struct {
	Name   string
	Values []string
}

// ImageColumn is a column of images, each Channels x Height x Width
// values, channel first, in Pixels (one slice per row).
type ImageColumn struct {
	Name                    string
	Channels, Height, Width int
	Pixels                  [][]float64
}

// Rows is the number of rows of t, or an error naming the first column
// whose length differs.
func (t *Table) Rows() (int, error) {
	n := -1
	check := func(name string, m int) error {
		if n >= 0 && m != n {
			return fmt.Errorf("column %q has %d rows, the columns before it %d", name, m, n)
		}
		n = m
		return nil
	}
	for _, c := range t.Numeric {
		if err := check(c.Name, len(c.Values)); err != nil {
			return 0, err
		}
	}
	for _, c := range t.Categorical {
		if err := check(c.Name, len(c.Values)); err != nil {
			return 0, err
		}
	}
	if t.Image != nil {
		if err := check(t.Image.Name, len(t.Image.Pixels)); err != nil {
			return 0, err
		}
	}
	if n < 0 {
		return 0, fmt.Errorf("table has no columns")
	}
	return n, nil
}

// Prep is the preprocessing a model learnt from its training rows:
// numeric columns standardised with their training mean and standard
// deviation (a missing value becomes the mean, 0), categorical columns
// one-hot over their training categories (an unseen one is all zeros),
// and an image's pixels divided by Scale and clipped to [0, 1].
type Prep struct {
	Numeric     []NumericStats    `json:"numeric,omitempty"`
	Categorical []CategoryLevels  `json:"categorical,omitempty"`
	Image       *ImagePreparation `json:"image,omitempty"`
}

// NumericStats standardises one column: (x − Mean) / Std.
type NumericStats struct {
	Name string  `json:"name"`
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// CategoryLevels are one column's training categories, sorted.
type CategoryLevels struct {
	Name   string   `json:"name"`
	Levels []string `json:"levels"`
}

// ImagePreparation scales an image column's pixels to [0, 1]: Scale is
// the largest training pixel, or 1 when none exceeds 1. With Raw set the
// pixels are used as they are (Scale is 1 and nothing is clipped).
type ImagePreparation struct {
	Raw      bool    `json:"raw,omitempty"`
	Name     string  `json:"name"`
	Channels int     `json:"channels"`
	Height   int     `json:"height"`
	Width    int     `json:"width"`
	Scale    float64 `json:"scale"`
}

// fitPrep learns t's preprocessing from the training rows rows; raw
// leaves an image's pixels unscaled.
func fitPrep(t *Table, rows []int, raw bool) (Prep, error) {
	src, err := InMemory(t)
	if err != nil {
		return Prep{}, err
	}
	return fitPrepSource(context.Background(), src, rows, raw)
}

// fitPrepSource is fitPrep over a source, which it reads a chunk of the
// training rows at a time: twice for numeric columns (the mean, then the
// squared deviations from it, summed in the order of rows as
// numericStats sums them), once otherwise.
func fitPrepSource(ctx context.Context, src Source, rows []int, raw bool) (Prep, error) {
	var p Prep
	t, err := src.Table(nil)
	if err != nil {
		return p, err
	}
	if t.Image != nil {
		return p, fitImagePrep(ctx, src, t.Image, len(t.Numeric)+len(t.Categorical), rows, raw, &p)
	}
	return p, fitTabularPrep(ctx, src, t, rows, &p)
}

// fitTabularPrep learns the numeric columns' means and standard
// deviations and the categorical columns' levels.
func fitTabularPrep(ctx context.Context, src Source, t *Table, rows []int, p *Prep) error {
	acc := make([]moments, len(t.Numeric))
	levels := make([]map[string]bool, len(t.Categorical))
	for i := range levels {
		levels[i] = map[string]bool{}
	}
	err := scan(ctx, src, rows, func(c *Table) error {
		for i, col := range c.Numeric {
			for _, v := range col.Values {
				acc[i].addValue(v)
			}
		}
		for i, col := range c.Categorical {
			for _, v := range col.Values {
				levels[i][v] = true
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(acc) > 0 {
		err = scan(ctx, src, rows, func(c *Table) error {
			for i, col := range c.Numeric {
				for _, v := range col.Values {
					acc[i].addDeviation(v)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for i, c := range t.Numeric {
		p.Numeric = append(p.Numeric, acc[i].stats(c.Name))
	}
	for i, c := range t.Categorical {
		p.Categorical = append(p.Categorical, CategoryLevels{Name: c.Name, Levels: slices.Sorted(maps.Keys(levels[i]))})
	}
	return nil
}

// fitImagePrep learns an image column's scale, the largest training
// pixel, unless raw.
func fitImagePrep(ctx context.Context, src Source, im *ImageColumn, others int, rows []int, raw bool, p *Prep) error {
	if others > 0 {
		return fmt.Errorf("image column %q with other features: an image model takes the image alone", im.Name)
	}
	scale := 1.0
	if !raw {
		err := scan(ctx, src, rows, func(c *Table) error {
			for _, px := range c.Image.Pixels {
				for _, v := range px {
					scale = max(scale, v)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	p.Image = &ImagePreparation{Name: im.Name, Channels: im.Channels, Height: im.Height, Width: im.Width, Scale: scale, Raw: raw}
	return nil
}

// moments sums a column's non-missing values, then their squared
// deviations from the mean of the first sums.
type moments struct {
	sum, n, ss float64
}

func (m *moments) addValue(v float64) {
	if !math.IsNaN(v) {
		m.sum, m.n = m.sum+v, m.n+1
	}
}

func (m *moments) mean() float64 { return m.sum / max(m.n, 1) }

func (m *moments) addDeviation(v float64) {
	if !math.IsNaN(v) {
		mean := m.mean()
		m.ss += (v - mean) * (v - mean)
	}
}

// stats is the mean and standard deviation; a constant or empty column
// gets Std 1.
func (m *moments) stats(name string) NumericStats {
	std := math.Sqrt(m.ss / max(m.n, 1))
	if std == 0 {
		std = 1
	}
	return NumericStats{Name: name, Mean: m.mean(), Std: std}
}

// numericStats is the mean and standard deviation of c's non-missing
// values on rows; a constant or empty column gets Std 1.
func numericStats(c NumericColumn, rows []int) NumericStats {
	var m moments
	for _, r := range rows {
		m.addValue(c.Values[r])
	}
	for _, r := range rows {
		m.addDeviation(c.Values[r])
	}
	return m.stats(c.Name)
}
