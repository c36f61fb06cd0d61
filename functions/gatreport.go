//go:build duckdb_arrow

package functions

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/gat/gatrun"
	"github.com/mallard/mallard/mlops/series"
)

// Reports are what the dashboard draws of a model version, computed when
// its training succeeds and kept in mlops.reports beside the version: they
// show the data the model was trained on, even after the source changes.

// reportEntities bounds the entities a GAT report shows: its correlation
// matrix grows with their square.
const reportEntities = 60

// reportSteps is how many steps past the data a GAT report forecasts.
const reportSteps = 6

// reportNeighbors is how many edges per entity a GAT report's graph keeps.
const reportNeighbors = 3

// gatReport is a GAT version's data, predictions and entity graph. Values
// are in original units when the model is linked to a scaler, else as trained.
type gatReport struct {
	Units         string       `json:"units"` // "original" or "model"
	Window        int          `json:"window"`
	Entities      []string     `json:"entities"` // the first reportEntities of the model's
	TotalEntities int          `json:"total_entities"`
	Times         []string     `json:"times"`
	Split         int          `json:"split"`      // the first test row
	Truth         [][]float64  `json:"truth"`      // per entity, per time row
	Prediction    [][]*float64 `json:"prediction"` // one step ahead; nil before the first window
	Forecast      gatForecast  `json:"forecast"`
	Correlation   [][]float64  `json:"correlation"` // Pearson over the training rows
	Edges         []reportEdge `json:"edges"`
	// Attention is the model's last-layer attention over the test samples
	// (see gat.Model.Attention): every entity of the model, not only the
	// first reportEntities, so its indices are into the model's entities.
	// It is sorted by target, then source, and holds each target's self
	// loop. Reports made before Mallard computed attention lack it.
	// encode writes it from attention, without this copy of its edges.
	Attention []reportEdge `json:"attention,omitempty"`
	attention []gat.Edge
}

type gatForecast struct {
	Times  []string    `json:"times"`
	Values [][]float64 `json:"values"` // per entity, per step
}

type reportEdge struct {
	Source int     `json:"source"`
	Target int     `json:"target"`
	Weight float64 `json:"weight"`
}

// report computes the dashboard's view of model trained on m.
func (j *gatJob) report(m series.Matrix, model *gat.Model) (*gatReport, error) {
	cfg := model.Config
	_, test, err := series.Split(m, cfg.Span(), cfg.TrainFraction)
	if err != nil {
		return nil, err
	}
	// The attention of the test samples is computed beside the predictions.
	var attention []gat.Edge
	var attErr error
	attDone := make(chan struct{})
	go func() {
		defer close(attDone)
		attention, attErr = model.Attention(m, test)
	}()
	defer func() { <-attDone }()
	samples := series.Samples(m, cfg.Span())
	preds, err := model.PredictRows(m, samples)
	if err != nil {
		return nil, err
	}
	steps, err := model.Forecast(m, reportSteps)
	if err != nil {
		return nil, err
	}
	n := min(m.N, reportEntities)
	value := func(i int, v float64) float64 { return v }
	r := &gatReport{Units: "model", Window: cfg.Window, Entities: j.w.entityNames()[:n], TotalEntities: m.N,
		Split: test[0], Times: j.timeLabels(m.T)}
	if j.link != nil {
		r.Units, value = "original", j.link.Invert()
	}
	r.Truth, r.Prediction, r.Forecast.Values = make([][]float64, n), make([][]*float64, n), make([][]float64, n)
	for i := range n {
		r.Truth[i], r.Prediction[i] = make([]float64, m.T), make([]*float64, m.T)
		for t := range m.T {
			r.Truth[i][t] = value(i, m.At(t, i))
		}
		for k, t := range samples {
			v := value(i, preds[k][i])
			r.Prediction[i][t] = &v
		}
		for _, row := range steps {
			r.Forecast.Values[i] = append(r.Forecast.Values[i], value(i, row[i]))
		}
	}
	for k := range reportSteps {
		r.Forecast.Times = append(r.Forecast.Times, j.futureLabel(k+1))
	}
	r.Correlation, r.Edges = entityGraph(m, n, test[0])
	<-attDone
	if attErr != nil {
		return nil, fmt.Errorf("attention of the test samples: %w", attErr)
	}
	r.attention = attention
	return r, nil
}

// entityGraph returns the correlation of the first n entities of m over
// rows 0..rows-1, as a matrix, and the graph keeping each entity's
// strongest correlations.
func entityGraph(m series.Matrix, n, rows int) ([][]float64, []reportEdge) {
	sub := series.Matrix{T: rows, N: n, Values: make([]float64, rows*n)}
	for t := range rows {
		copy(sub.Values[t*n:(t+1)*n], m.Row(t)[:n])
	}
	flat := make([]float64, n*n)
	series.Correlation(sub, rows, rows, flat)
	corr := make([][]float64, n)
	for i := range n {
		corr[i] = flat[i*n : (i+1)*n]
	}
	src, dst, attr := series.Edges(flat, n, reportNeighbors)
	edges := make([]reportEdge, len(src))
	for e := range src {
		edges[e] = reportEdge{Source: src[e], Target: dst[e], Weight: attr[e]}
	}
	return corr, edges
}

// timeLabels names the source's rows by their time columns: 2000-01 for a
// year and a month; the row number when there are no time columns.
func (j *gatJob) timeLabels(rows int) []string {
	labels := make([]string, rows)
	for t := range labels {
		if t < len(j.timeRows) {
			labels[t] = timeLabel(j.w.timeNames(), j.timeRows[t])
		} else {
			labels[t] = strconv.Itoa(t + 1)
		}
	}
	return labels
}

// futureLabel names the time step steps past the source's last row.
func (j *gatJob) futureLabel(steps int) string {
	vals := gatrun.Extrapolate(j.w.timeNames(), j.timeKinds, j.lastTimes, steps)
	text := make([]string, len(vals))
	for i, v := range vals {
		switch v := v.(type) {
		case int64:
			text[i] = strconv.FormatInt(v, 10)
		case time.Time:
			text[i] = v.Format(time.DateOnly)
			if j.timeKinds[i] == series.TimeTimestamp {
				text[i] = v.Format(time.DateTime)
			}
		default:
			return fmt.Sprintf("+%d", steps)
		}
	}
	if len(text) == 0 {
		return fmt.Sprintf("+%d", steps)
	}
	return timeLabel(j.w.timeNames(), text)
}

// timeLabel joins a row's time values with "-", padding the months,
// weeks and days that follow a first column to two digits; a quarter
// reads as a quarter does: 1959 Q1.
func timeLabel(names, vals []string) string {
	var b strings.Builder
	for i, v := range vals {
		name := strings.ToLower(names[i])
		switch {
		case i > 0 && name == "quarter":
			b.WriteString(" Q" + v)
			continue
		case i > 0:
			b.WriteString("-")
		}
		if i > 0 && len(v) == 1 && strings.Contains("month week day", name) {
			v = "0" + v
		}
		b.WriteString(v)
	}
	return b.String()
}
