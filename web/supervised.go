//go:build duckdb_arrow

package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/mallard/mallard/sqlstate"
)

// The page of a classifier or regressor version: its training curves from
// the registry, its confusion matrix, its most confidently wrong test
// images and its feature importance, each through the SQL function a
// client would call, with the model reference and arguments as parameters.

// supervisedKinds are the kinds the supervised page shows.
var supervisedKinds = map[any]bool{"classifier": true, "regressor": true}

// supervisedVersion is the version the request names of a classifier or
// regressor, with its reference "name@version"; another kind is 42809.
func (s *Server) supervisedVersion(r *http.Request, kinds ...string) (string, row, error) {
	name, v, err := s.version(r)
	if err != nil {
		return "", nil, err
	}
	if !supervisedKinds[v["kind"]] || (len(kinds) > 0 && v["kind"] != kinds[0]) {
		want := "a classifier or regressor"
		if len(kinds) > 0 {
			want = "a " + kinds[0]
		}
		return "", nil, sqlstate.New(sqlstate.WrongObjectType, "model %q is a %s model, not %s", name, v["kind"], want)
	}
	return fmt.Sprintf("%s@%d", name, v["version"]), v, nil
}

// clsHyperparameters are what the page needs of a version's
// hyperparameters: the columns it reads.
type clsHyperparameters struct {
	Epochs  int `json:"epochs"`
	Columns struct {
		Target   string `json:"target"`
		Features []struct {
			Name string `json:"name"`
			Kind string `json:"kind"`
		} `json:"features"`
		Shape []int `json:"shape"`
	} `json:"columns"`
}

// supervised is what the page draws of a classifier or regressor version:
// its epochs (training and validation loss, validation accuracy or RMSE)
// and how many were planned, its test metrics, the columns it reads and, for a classifier, its
// confusion matrix, or why there is none (confusion_error).
func (s *Server) supervised(r *http.Request) (any, error) {
	ref, v, err := s.supervisedVersion(r)
	if err != nil {
		return nil, err
	}
	metric := "val_accuracy"
	if v["kind"] == "regressor" {
		metric = "val_rmse"
	}
	epochs, err := s.epochs(r, v["run_id"].(int64), metric)
	if err != nil {
		return nil, err
	}
	var hp clsHyperparameters
	if raw, ok := v["hyperparameters"].(json.RawMessage); ok {
		_ = json.Unmarshal(raw, &hp) // a version without them shows no columns
	}
	features := []string{}
	for _, f := range hp.Columns.Features {
		features = append(features, f.Name)
	}
	out := map[string]any{"name": v["name"], "version": v["version"], "model": ref, "kind": v["kind"], "status": v["status"],
		"run_id": v["run_id"], "metric": metric, "epochs": orEmpty(epochs), "metrics": v["metrics"],
		"target": hp.Columns.Target, "features": features, "shape": hp.Columns.Shape, "epochs_planned": hp.Epochs}
	if v["kind"] == "classifier" {
		s.confusion(r, ref, out)
	}
	return out, nil
}

// epochs are a run's recorded epochs: training loss, validation loss (the
// registry's test_loss column, which a supervised run fills with its
// validation loss) and the validation metric from its extra figures.
func (s *Server) epochs(r *http.Request, run int64, metric string) ([]row, error) {
	ms, err := s.reg.Metrics(r.Context(), run)
	if err != nil {
		return nil, err
	}
	var out []row
	for _, m := range ms {
		var extra map[string]*float64
		if m.Extra != nil {
			_ = json.Unmarshal([]byte(*m.Extra), &extra) // figures that are not numbers are left out
		}
		out = append(out, row{"epoch": int32(m.Epoch), "train_loss": number(&m.TrainLoss), "val_loss": number(&m.TestLoss),
			metric: number(extra[metric])})
	}
	return out, nil
}

// confusionQuery is the dashboard's call of confusion_matrix: the model
// reference is a parameter, never SQL text.
const confusionQuery = "SELECT actual, predicted, count FROM confusion_matrix($1)"

// confusion sets out's "confusion", {classes, counts} with counts[i][j]
// the test rows of class i predicted as j, from confusion_matrix's rows,
// which come actual by actual, each with every class in order; or its
// "confusion_error", the function's message.
func (s *Server) confusion(r *http.Request, ref string, out map[string]any) {
	rows, err := s.query(r.Context(), s.cfg.Plan(confusionQuery), ref)
	if err != nil {
		out["confusion_error"] = sqlstate.From(err).Message
		return
	}
	index := map[any]int{}
	classes := []any{}
	for _, x := range rows {
		if _, seen := index[x["actual"]]; !seen {
			index[x["actual"]] = len(classes)
			classes = append(classes, x["actual"])
		}
	}
	counts := make([][]int64, len(classes))
	for i := range counts {
		counts[i] = make([]int64, len(classes))
	}
	for _, x := range rows {
		a, aok := index[x["actual"]]
		p, pok := index[x["predicted"]]
		n, nok := x["count"].(int64)
		if aok && pok && nok {
			counts[a][p] = n
		}
	}
	out["confusion"] = map[string]any{"classes": classes, "counts": counts}
}

// misclassifiedQuery is the dashboard's call of misclassified.
const misclassifiedQuery = "SELECT row, actual, predicted, probability, pixels FROM misclassified($1, k := $2)"

// misclassified are an image classifier version's k (?k=, default 16)
// most confidently wrong test images, with their pixels as the source
// stores them and the image's shape.
func (s *Server) misclassified(r *http.Request) (any, error) {
	ref, v, err := s.supervisedVersion(r, "classifier")
	if err != nil {
		return nil, err
	}
	k := 16
	if text := r.URL.Query().Get("k"); text != "" {
		if k, err = strconv.Atoi(text); err != nil || k < 1 || k > maxK {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "k = %q is not an integer from 1 to %d", text, maxK)
		}
	}
	rows, err := s.query(r.Context(), s.cfg.Plan(misclassifiedQuery), ref, int64(k))
	if err != nil {
		return nil, err
	}
	var hp clsHyperparameters
	if raw, ok := v["hyperparameters"].(json.RawMessage); ok {
		_ = json.Unmarshal(raw, &hp)
	}
	return map[string]any{"model": ref, "shape": hp.Columns.Shape, "images": orEmpty(rows)}, nil
}

// importanceQuery is the dashboard's call of feature_importance.
const importanceQuery = "SELECT * FROM feature_importance($1)"

// importance is a classifier or regressor version's feature importance:
// feature_importance's rows (feature, importance, std, metric) as they
// come.
func (s *Server) importance(r *http.Request) (any, error) {
	ref, _, err := s.supervisedVersion(r)
	if err != nil {
		return nil, err
	}
	rows, err := s.query(r.Context(), s.cfg.Plan(importanceQuery), ref)
	if err != nil {
		return nil, err
	}
	return map[string]any{"model": ref, "features": orEmpty(rows)}, nil
}
