//go:build duckdb_arrow

package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/registry"
	"github.com/mallard/mallard/sqlstate"
)

// The JSON API. Every handler answers a JSON object; errors answer
// {"error": message, "code": SQLSTATE} with a status that says whose
// fault it is: 404 for an unknown model or run, 409 for a version that
// cannot answer yet, 400 for a bad argument, 500 for Mallard's own.

type errorBody struct {
	Error string        `json:"error"`
	Code  sqlstate.Code `json:"code"`
}

// handler answers a request with a value to encode as JSON, or an error.
type handler func(r *http.Request) (any, error)

func (s *Server) api(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := h(r)
		if err != nil {
			e := sqlstate.From(err)
			status := statusOf(e.Code)
			if status == http.StatusInternalServerError {
				s.log.Error("dashboard request failed", "path", r.URL.Path, "err", err)
			}
			writeJSON(w, status, errorBody{Error: e.Message, Code: e.Code})
			return
		}
		writeJSON(w, http.StatusOK, v)
	}
}

// statusOf is the HTTP status of an error with code.
func statusOf(code sqlstate.Code) int {
	switch {
	case code == sqlstate.UndefinedObject || code == sqlstate.UndefinedTable:
		return http.StatusNotFound
	case code == sqlstate.ObjectNotInPrerequisiteState:
		return http.StatusConflict
	case code == sqlstate.QueryCanceled:
		return http.StatusServiceUnavailable
	case strings.HasPrefix(string(code), "22"), strings.HasPrefix(string(code), "42"):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func notFound(r *http.Request) (any, error) {
	return nil, sqlstate.New(sqlstate.UndefinedObject, "no dashboard API at %s", r.URL.Path)
}

// versionRow is a model version as the API shows it.
func versionRow(v registry.Version) row {
	return row{"name": v.Ref.Name, "version": int32(v.Ref.Version), "kind": v.Kind, "status": v.Status, "deployed": v.Deployed,
		"run_id": v.RunID, "created_at": isoTime(&v.CreatedAt), "finished_at": isoTime(v.FinishedAt), "test_loss": number(v.TestLoss),
		"rows": v.Rows, "entities": v.Entities, "source": v.Source, "checkpoint_epoch": integer(v.CheckpointEpoch),
		"hyperparameters": jsonText(&v.Hyperparameters), "metrics": jsonText(v.Metrics)}
}

// runRow is a training run as the API shows it, with its version's
// hyperparameters, which labelLosses reads and drops.
func runRow(u registry.Run) row {
	return row{"run_id": u.ID, "model": u.Model, "version": integer(u.Version), "kind": u.Kind, "status": u.Status,
		"queued_at": isoTime(&u.QueuedAt), "started_at": isoTime(u.StartedAt), "finished_at": isoTime(u.FinishedAt),
		"epochs": int32(u.Epochs), "epochs_done": int32(u.EpochsDone), "best_epoch": integer(u.BestEpoch),
		"best_test_loss": number(u.BestTestLoss), "error": text(u.Error), "resumed_from": text(u.ResumedFrom),
		"hyperparameters": jsonText(u.Hyperparameters)}
}

// metricRow is an epoch of a training run as the API shows it.
func metricRow(m registry.Metric) row {
	return row{"epoch": int32(m.Epoch), "train_loss": number(&m.TrainLoss), "test_loss": number(&m.TestLoss),
		"elapsed_ms": number(&m.ElapsedMS), "extra": jsonText(m.Extra)}
}

// isoTime is t as an ISO 8601 UTC time, which browsers parse; nil for none.
func isoTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}

// number is *f, or nil for none, NaN and infinities, which JSON lacks.
func number(f *float64) any {
	if f == nil || math.IsNaN(*f) || math.IsInf(*f, 0) {
		return nil
	}
	return *f
}

func integer(n *int) any {
	if n == nil {
		return nil
	}
	return int32(*n)
}

func text(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// jsonText is JSON text embedded as JSON rather than as a string; text
// that is not JSON stays a string.
func jsonText(s *string) any {
	if s == nil {
		return nil
	}
	if json.Valid([]byte(*s)) {
		return json.RawMessage(*s)
	}
	return *s
}

// lossOf names what a model's test loss measures: MSE for a GAT, RMSE
// for a recommender, 1 − NDCG@10 for a recommender trained to rank.
func lossOf(kind, hyperparameters any) string {
	switch kind {
	case "gat":
		return "mse"
	case "recommender":
		var hp struct{ Objective string }
		if raw, ok := hyperparameters.(json.RawMessage); ok && json.Unmarshal(raw, &hp) == nil && strings.HasPrefix(hp.Objective, "ranking") {
			return "1 − ndcg@10"
		}
		return "rmse"
	}
	return "loss"
}

// labelLosses sets each row's "loss", the name of what its losses
// measure, so that a table mixing kinds can label each value; a run row's
// hyperparameters, there only for this, are dropped.
func labelLosses(rows []row) {
	for _, r := range rows {
		r["loss"] = lossOf(r["kind"], r["hyperparameters"])
		if _, isModel := r["name"]; !isModel {
			delete(r, "hyperparameters")
		}
	}
}

// models lists every model version, by name and newest version first.
func (s *Server) models(r *http.Request) (any, error) {
	versions, err := s.reg.Versions(r.Context(), "")
	var rows []row
	for _, v := range versions {
		rows = append(rows, versionRow(v))
	}
	labelLosses(rows)
	return map[string]any{"models": orEmpty(rows)}, err
}

// model describes one model: its versions and the deployed one.
func (s *Server) model(r *http.Request) (any, error) {
	name := r.PathValue("name")
	rows, err := s.versions(r, name)
	if err != nil {
		return nil, err
	}
	var deployed any
	for _, v := range rows {
		if v["deployed"] == true {
			deployed = v["version"]
		}
	}
	return map[string]any{"name": name, "kind": rows[0]["kind"], "deployed_version": deployed, "versions": rows}, nil
}

// versions are the versions of the model name, newest first; an unknown
// model is an error.
func (s *Server) versions(r *http.Request, name string) ([]row, error) {
	versions, err := s.reg.Versions(r.Context(), name)
	if err != nil {
		return nil, err
	}
	var rows []row
	for _, v := range versions {
		rows = append(rows, versionRow(v))
	}
	if len(rows) == 0 {
		return nil, sqlstate.New(sqlstate.UndefinedObject, "model %q does not exist", name)
	}
	labelLosses(rows)
	return rows, nil
}

// runs lists the latest training runs, newest first.
func (s *Server) runs(r *http.Request) (any, error) {
	runs, err := s.reg.Runs(r.Context(), 200)
	var rows []row
	for _, u := range runs {
		rows = append(rows, runRow(u))
	}
	labelLosses(rows)
	return map[string]any{"runs": orEmpty(rows)}, err
}

// run is one training run: its state, its epochs so far, and once its
// model is scored, the baselines' losses to compare with.
func (s *Server) run(r *http.Request) (any, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "run id %q is not an integer", r.PathValue("id"))
	}
	u, err := s.reg.Run(r.Context(), id)
	if errors.Is(err, registry.ErrNoRun) {
		return nil, sqlstate.New(sqlstate.UndefinedObject, "training run %d does not exist", id)
	}
	if err != nil {
		return nil, err
	}
	epochs, err := s.reg.Metrics(r.Context(), id)
	if err != nil {
		return nil, err
	}
	var metrics []row
	for _, m := range epochs {
		metrics = append(metrics, metricRow(m))
	}
	runs := []row{runRow(u)}
	labelLosses(runs)
	run := runs[0]
	baselines, err := s.baselines(r, u)
	if err != nil {
		return nil, err
	}
	return map[string]any{"run": run, "loss": run["loss"], "metrics": orEmpty(metrics), "baselines": baselines}, nil
}

// baselines are the losses of the methods a run's model was compared
// with, read from its version's metrics; none before it is scored.
func (s *Server) baselines(r *http.Request, run registry.Run) ([]map[string]any, error) {
	out := []map[string]any{}
	if run.Version == nil {
		return out, nil
	}
	v, err := s.reg.Version(r.Context(), mlops.Ref{Name: run.Model, Version: *run.Version})
	if errors.Is(err, registry.ErrNoModel) || errors.Is(err, registry.ErrNoVersion) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	raw, ok := jsonText(v.Metrics).(json.RawMessage)
	if !ok {
		return out, nil
	}
	var methods []map[string]any
	if err := json.Unmarshal(raw, &methods); err != nil || len(methods) < 2 {
		return out, nil
	}
	for _, m := range methods[1:] { // the first is the model itself
		b := map[string]any{"method": m["method"], "train_loss": m["train_mse"], "test_loss": m["test_mse"]}
		if _, ok := m["test_rmse"]; ok {
			b["train_loss"], b["test_loss"] = nil, m["test_rmse"]
		}
		out = append(out, b)
	}
	return out, nil
}

// orEmpty makes a missing list encode as [] rather than null.
func orEmpty(rows []row) []row {
	if rows == nil {
		return []row{}
	}
	return rows
}

// version is the model the request's path names and the version of it
// that pick chooses.
func (s *Server) version(r *http.Request) (string, row, error) {
	name := r.PathValue("name")
	versions, err := s.versions(r, name)
	if err != nil {
		return name, nil, err
	}
	v, err := pick(r, versions)
	return name, v, err
}

// pick chooses the version a request names (?version=N), else the
// deployed one, else the newest that is ready, else the newest.
func pick(r *http.Request, versions []row) (row, error) {
	if text := r.URL.Query().Get("version"); text != "" {
		n, err := strconv.Atoi(text)
		if err != nil || n < 1 {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "version %q is not a positive integer", text)
		}
		for _, v := range versions {
			if v["version"] == int32(n) {
				return v, nil
			}
		}
		return nil, sqlstate.New(sqlstate.UndefinedObject, "model %q has no version %d", versions[0]["name"], n)
	}
	for _, v := range versions {
		if v["deployed"] == true {
			return v, nil
		}
	}
	for _, v := range versions {
		if v["status"] == "ready" {
			return v, nil
		}
	}
	return versions[0], nil
}

// report is what the dashboard draws of a model version: the report
// stored when it finished training, with its metrics.
func (s *Server) report(r *http.Request) (any, error) {
	name, v, err := s.version(r)
	if err != nil {
		return nil, err
	}
	data, err := s.reg.Report(r.Context(), mlops.Ref{Name: name, Version: int(v["version"].(int32))})
	if errors.Is(err, registry.ErrNoReport) {
		return nil, s.noReport(r, name, v)
	}
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if json.Unmarshal(data, &out) != nil {
		return nil, errors.New("report of " + name + " is not a JSON object")
	}
	out["name"], out["version"], out["kind"], out["metrics"] = name, v["version"], v["kind"], v["metrics"]
	if v["kind"] == "recommender" {
		s.addEASE(r, fmt.Sprintf("%s@%d", name, v["version"]), out)
	}
	return out, nil
}

// easeQuery is the dashboard's call of evaluate on a recommender version:
// its rows under the protocol its stored metrics were measured by.
const easeQuery = "SELECT method, test_rmse, recall_at_10, ndcg_at_10 FROM evaluate($1)"

// addEASE appends EASE's row from evaluate to a recommender report's
// metrics, which training stored without it, beside the other baselines;
// when evaluate fails, its message is the report's "ease_error".
func (s *Server) addEASE(r *http.Request, ref string, out map[string]any) {
	raw, ok := out["metrics"].(json.RawMessage)
	var methods []any
	if !ok || json.Unmarshal(raw, &methods) != nil {
		return
	}
	rows, err := s.query(r.Context(), s.cfg.Plan(easeQuery), ref)
	if err != nil {
		out["ease_error"] = "EASE cannot be shown: " + sqlstate.From(err).Message
		return
	}
	for _, m := range rows {
		if m["method"] == easeMethod {
			out["metrics"] = append(methods, m)
		}
	}
}

// easeMethod is evaluate's name for EASE's row.
const easeMethod = "ease"

// noReport is the error for version v of model name, which has no report:
// why, with the training run's error when the run failed.
func (s *Server) noReport(r *http.Request, name string, v row) error {
	why := "it did not finish training (status " + v["status"].(string) + ")"
	switch v["status"] {
	case "ready":
		why = "it was trained before Mallard kept reports; train it again to see one"
	case "failed":
		run, err := s.reg.Run(r.Context(), v["run_id"].(int64))
		if err != nil && !errors.Is(err, registry.ErrNoRun) {
			return err
		}
		if err == nil && run.Error != nil {
			why = "its training failed: " + *run.Error
		}
	}
	return sqlstate.New(sqlstate.ObjectNotInPrerequisiteState, "%s@%d has no report: %s", name, v["version"], why)
}
