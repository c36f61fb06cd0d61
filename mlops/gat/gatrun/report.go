package gatrun

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops/gat"
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

// Report is a GAT version's data, predictions and entity graph. Values
// are in original units when the model is linked to a scaler, else as trained.
type Report struct {
	Units         string         `json:"units"` // "original" or "model"
	Window        int            `json:"window"`
	Entities      []string       `json:"entities"` // the first reportEntities of the model's
	TotalEntities int            `json:"total_entities"`
	Times         []string       `json:"times"`
	Split         int            `json:"split"`      // the first test row
	Truth         [][]float64    `json:"truth"`      // per entity, per time row
	Prediction    [][]*float64   `json:"prediction"` // one step ahead; nil before the first window
	Forecast      reportForecast `json:"forecast"`
	Correlation   [][]float64    `json:"correlation"` // Pearson over the training rows
	Edges         []ReportEdge   `json:"edges"`
	// Attention is the model's last-layer attention over the test samples
	// (see gat.Model.Attention): every entity of the model, not only the
	// first reportEntities, so its indices are into the model's entities.
	// It is sorted by target, then source, and holds each target's self
	// loop. Reports made before Mallard computed attention lack it.
	// encode writes it from attention, without this copy of its edges.
	Attention []ReportEdge `json:"attention,omitempty"`
	attention []gat.Edge
}

type reportForecast struct {
	Times  []string    `json:"times"`
	Values [][]float64 `json:"values"` // per entity, per step
}

// ReportEdge is an edge of a report's graph or attention: indices into
// the report's entities (the attention's into the model's).
type ReportEdge struct {
	Source int     `json:"source"`
	Target int     `json:"target"`
	Weight float64 `json:"weight"`
}

// report computes the dashboard's view of model trained on m.
func (j *Job) report(m series.Matrix, model *gat.Model) (*Report, error) {
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
	r := &Report{Units: "model", Window: cfg.Window, Entities: j.Source.EntityNames()[:n], TotalEntities: m.N,
		Split: test[0], Times: j.timeLabels(m.T)}
	if j.Link != nil {
		r.Units, value = "original", j.Link.Invert()
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
func entityGraph(m series.Matrix, n, rows int) ([][]float64, []ReportEdge) {
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
	edges := make([]ReportEdge, len(src))
	for e := range src {
		edges[e] = ReportEdge{Source: src[e], Target: dst[e], Weight: attr[e]}
	}
	return corr, edges
}

// timeLabels names the source's rows by their time columns: 2000-01 for a
// year and a month; the row number when there are no time columns.
func (j *Job) timeLabels(rows int) []string {
	labels := make([]string, rows)
	for t := range labels {
		if t < len(j.timeRows) {
			labels[t] = timeLabel(j.Source.TimeNames(), j.timeRows[t])
		} else {
			labels[t] = strconv.Itoa(t + 1)
		}
	}
	return labels
}

// futureLabel names the time step steps past the source's last row.
func (j *Job) futureLabel(steps int) string {
	vals := Extrapolate(j.Source.TimeNames(), j.timeKinds, j.lastTimes, steps)
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
	return timeLabel(j.Source.TimeNames(), text)
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
