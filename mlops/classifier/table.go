package classifier

import (
	"fmt"
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
	var p Prep
	if t.Image != nil {
		if len(t.Numeric)+len(t.Categorical) > 0 {
			return p, fmt.Errorf("image column %q with other features: an image model takes the image alone", t.Image.Name)
		}
		im := t.Image
		scale := 1.0
		for _, r := range rows {
			for _, v := range im.Pixels[r] {
				scale = max(scale, v)
			}
		}
		if raw {
			scale = 1
		}
		p.Image = &ImagePreparation{Name: im.Name, Channels: im.Channels, Height: im.Height, Width: im.Width, Scale: scale, Raw: raw}
		return p, nil
	}
	for _, c := range t.Numeric {
		p.Numeric = append(p.Numeric, numericStats(c, rows))
	}
	for _, c := range t.Categorical {
		var levels []string
		for _, r := range rows {
			levels = append(levels, c.Values[r])
		}
		slices.Sort(levels)
		p.Categorical = append(p.Categorical, CategoryLevels{Name: c.Name, Levels: slices.Compact(levels)})
	}
	return p, nil
}

// numericStats is the mean and standard deviation of c's non-missing
// values on rows; a constant or empty column gets Std 1.
func numericStats(c NumericColumn, rows []int) NumericStats {
	var sum, n float64
	for _, r := range rows {
		if v := c.Values[r]; !math.IsNaN(v) {
			sum, n = sum+v, n+1
		}
	}
	mean := sum / max(n, 1)
	var ss float64
	for _, r := range rows {
		if v := c.Values[r]; !math.IsNaN(v) {
			ss += (v - mean) * (v - mean)
		}
	}
	std := math.Sqrt(ss / max(n, 1))
	if std == 0 {
		std = 1
	}
	return NumericStats{Name: c.Name, Mean: mean, Std: std}
}
