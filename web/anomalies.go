//go:build duckdb_arrow

package web

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/mallard/mallard/sqlstate"
)

// defaultAnomalyLevel is the interval level the dashboard flags values
// outside of, detect_anomalies' own default.
const defaultAnomalyLevel = 0.99

// anomalies are the values of a GAT version's data that lie outside their
// entity's interval at ?level= (default 0.99), through the
// detect_anomalies function a client would call. The function scores the
// last scored_steps time steps of the data, every entity at each; a
// point's step is its index among them, so it sits at time
// len(times) - scored_steps + step of the version's report.
func (s *Server) anomalies(r *http.Request) (any, error) {
	name, v, err := s.version(r)
	if err != nil {
		return nil, err
	}
	if v["kind"] != "gat" {
		return nil, sqlstate.New(sqlstate.WrongObjectType, "model %q is a %s model, not a GAT model", name, v["kind"])
	}
	level := defaultAnomalyLevel
	if text := r.URL.Query().Get("level"); text != "" {
		if level, err = strconv.ParseFloat(text, 64); err != nil || !(level > 0 && level < 1) {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "level = %q is not a number between 0 and 1 (exclusive)", text)
		}
	}
	ref := fmt.Sprintf("%s@%d", name, v["version"])
	rows, err := s.query(r.Context(), s.cfg.Plan(anomaliesQuery), ref, level)
	if err != nil {
		return nil, err
	}
	return anomalyPoints(ref, level, rows), nil
}

// anomalyPoints groups detect_anomalies' rows, which come time step by
// time step with every entity at each in the same order, into the
// flagged points with their step.
func anomalyPoints(ref string, level float64, rows []row) map[string]any {
	entities := map[any]bool{}
	for _, r := range rows {
		entities[r["entity"]] = true
	}
	steps := 0
	if len(entities) > 0 {
		steps = len(rows) / len(entities)
	}
	points := []row{}
	for k, r := range rows {
		if r["is_anomaly"] != true {
			continue
		}
		delete(r, "is_anomaly")
		r["step"] = k / len(entities)
		points = append(points, r)
	}
	return map[string]any{"model": ref, "level": level, "scored_steps": steps, "points": points}
}

// anomaliesQuery is the dashboard's call of detect_anomalies: the model
// reference and the level travel as parameters, never in the SQL text.
const anomaliesQuery = "SELECT entity, value, expected, lo, hi, score, is_anomaly FROM detect_anomalies($1, level := $2)"
