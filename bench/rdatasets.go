package main

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"strconv"

	"github.com/mallard/mallard/mlops/series"
)

// rDatasetsCSV is testdata/rdatasets.csv, written by testdata/rdatasets.R
// from R's datasets package: panel,series,row,value.
//
//go:embed testdata/rdatasets.csv
var rDatasetsCSV []byte

// rPanels returns the study's panels built from R's datasets, each series
// z-scored with the statistics of its training rows as the weather is:
// "quarterly (R)" (UKgas, JohnsonJohnson, austres; season 4) and
// "monthly (R)" (co2, AirPassengers, nottem; season 12), the seasons
// their calendars give.
func rPanels() ([]fcData, error) {
	recs, err := csv.NewReader(bytes.NewReader(rDatasetsCSV)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("rdatasets.csv: %w", err)
	}
	var out []fcData
	for _, p := range []struct {
		panel, name string
		season      int
	}{{"quarterly", "quarterly (R)", 4}, {"monthly", "monthly (R)", 12}} {
		var names []string
		cols := map[string][]float64{}
		for _, r := range recs[1:] {
			if r[0] != p.panel {
				continue
			}
			v, err := strconv.ParseFloat(r[3], 64)
			if err != nil {
				return nil, fmt.Errorf("rdatasets.csv: bad row %q", r)
			}
			if cols[r[1]] == nil {
				names = append(names, r[1])
			}
			cols[r[1]] = append(cols[r[1]], v)
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("rdatasets.csv: no panel %q", p.panel)
		}
		rows := len(cols[names[0]])
		m := series.Matrix{T: rows, N: len(names), Values: make([]float64, rows*len(names))}
		for n, name := range names {
			if len(cols[name]) != rows {
				return nil, fmt.Errorf("rdatasets.csv: %s has %d rows, %s %d", name, len(cols[name]), names[0], rows)
			}
			for t, v := range cols[name] {
				m.Values[t*m.N+n] = v
			}
		}
		train := int(accTrainFraction * float64(rows))
		out = append(out, fcData{name: p.name, m: zscorePerColumn(m, train), season: p.season})
	}
	return out, nil
}
