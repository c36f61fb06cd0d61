//go:build duckdb_arrow

package web_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mallard/mallard/web"
)

// trainSupervised trains classifier "c" and regressor "reg" on 300
// generated points, and image classifier "img" on 300 8 x 8 images of a
// bar, horizontal in the even rows and vertical in the odd ones, whose
// label is flipped in every third row: about a third of its test images
// are wrong whatever it learns.
func (s *stack) trainSupervised(t *testing.T) {
	s.exec(t, "CREATE TABLE pts AS SELECT (i * 37 % 101) / 101.0 AS x, (i * 53 % 103) / 103.0 AS y, "+
		"CASE WHEN (i * 37 % 101) / 101.0 + (i * 53 % 103) / 103.0 > 1 THEN 'above' ELSE 'below' END AS side FROM range(300) t(i)",
		"SELECT * FROM train_classifier('pts', label := 'side', model := 'c', epochs := 5)",
		"SELECT * FROM train_regressor('SELECT x, y, x + 2 * y AS z FROM pts', target := 'z', model := 'reg', epochs := 4)",
		"CREATE TABLE bars AS SELECT CASE WHEN (i % 2 = 0) <> (i % 3 = 0) THEN 'h' ELSE 'v' END AS label, "+
			"CAST([CASE WHEN (i % 2 = 0 AND p // 8 = i % 8) OR (i % 2 = 1 AND p % 8 = i % 8) THEN 255 ELSE 0 END FOR p IN range(64)] AS UTINYINT[]) AS pixels "+
			"FROM range(300) t(i)",
		"SELECT * FROM train_classifier('bars', label := 'label', shape := [1, 8, 8], model := 'img', epochs := 2)")
}

// scalar is the one value a query of a plain table returns.
func (s *stack) scalar(t *testing.T, q string) any {
	t.Helper()
	var v any
	if err := s.db.SQL().QueryRow(q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

func TestSupervisedPage(t *testing.T) {
	var mu sync.Mutex
	var planned []string
	s := newStack(t, web.Config{Plan: func(q string) string { mu.Lock(); planned = append(planned, q); mu.Unlock(); return q }})
	s.trainSupervised(t)

	c := s.get(t, "/api/models/c/supervised", 200)
	if c["kind"] != "classifier" || c["metric"] != "val_accuracy" || c["model"] != "c@1" || c["target"] != "side" ||
		fmt.Sprint(c["features"]) != "[x y]" || c["shape"] != nil {
		t.Fatalf("classifier page header: %v", c)
	}
	epochs := c["epochs"].([]any)
	if len(epochs) != 5 {
		t.Fatalf("%d epochs, want 5: %v", len(epochs), epochs)
	}
	for _, e := range epochs {
		e := e.(map[string]any)
		acc, ok := e["val_accuracy"].(float64)
		if !ok || acc < 0 || acc > 1 || e["train_loss"].(float64) <= 0 || e["val_loss"].(float64) <= 0 {
			t.Errorf("epoch %v", e)
		}
	}
	// The confusion matrix is confusion_matrix's: the same classes and counts.
	s.exec(t, "CREATE TABLE cm AS SELECT * FROM confusion_matrix('c')")
	cm := c["confusion"].(map[string]any)
	classes, counts := cm["classes"].([]any), cm["counts"].([]any)
	if fmt.Sprint(classes) != "[above below]" || len(counts) != 2 {
		t.Fatalf("confusion %v", cm)
	}
	for i, a := range classes {
		for j, p := range classes {
			want := s.scalar(t, fmt.Sprintf("SELECT count FROM cm WHERE actual = '%s' AND predicted = '%s'", a, p))
			if got := counts[i].([]any)[j].(float64); got != float64(want.(int64)) {
				t.Errorf("confusion[%v][%v] = %v, confusion_matrix says %v", a, p, got, want)
			}
		}
	}

	reg := s.get(t, "/api/models/reg/supervised", 200)
	if reg["kind"] != "regressor" || reg["metric"] != "val_rmse" || len(reg["epochs"].([]any)) != 4 {
		t.Fatalf("regressor page: %v", reg)
	}
	if _, ok := reg["epochs"].([]any)[3].(map[string]any)["val_rmse"].(float64); !ok {
		t.Errorf("regressor epoch without val_rmse: %v", reg["epochs"])
	}
	if _, has := reg["confusion"]; has {
		t.Errorf("a regressor has a confusion matrix: %v", reg["confusion"])
	}

	// The wrong images are the test rows the confusion matrix counts as wrong,
	// the 16 most confident of them, most confident first.
	s.exec(t, "CREATE TABLE img_cm AS SELECT * FROM confusion_matrix('img')")
	wrong := s.scalar(t, "SELECT CAST(sum(count) AS BIGINT) FROM img_cm WHERE actual <> predicted").(int64)
	img := s.get(t, "/api/models/img/misclassified", 200)
	images := img["images"].([]any)
	if fmt.Sprint(img["shape"]) != "[1 8 8]" || int64(len(images)) != min(16, wrong) || len(images) < 8 {
		t.Fatalf("%d wrong images of %v wrong test rows (shape %v)", len(images), wrong, img["shape"])
	}
	last := 2.0
	for _, x := range images {
		x := x.(map[string]any)
		px, p := x["pixels"].([]any), x["probability"].(float64)
		if x["actual"] == x["predicted"] || len(px) != 64 || p > last || p < 0.5 || !slices.Contains(px, any(255.0)) {
			t.Errorf("wrong image %v (probability %v after %v, %d pixels)", x["row"], p, last, len(px))
		}
		last = p
	}
	if got := len(s.get(t, "/api/models/img/misclassified?k=3", 200)["images"].([]any)); got != 3 {
		t.Errorf("k=3 gave %d images", got)
	}

	// feature_importance's rows, through a parameter: the model's name
	// never enters the SQL text.
	rows, _ := s.get(t, "/api/models/c/importance", 200)["features"].([]any)
	if len(rows) == 0 {
		t.Errorf("the importance endpoint gave no rows")
	}
	mu.Lock()
	defer mu.Unlock()
	for _, q := range planned {
		if strings.Contains(q, "'c") || strings.Contains(q, "'img") {
			t.Errorf("a model's name in the SQL the dashboard planned: %s", q)
		}
	}
	if !slices.Contains(planned, "SELECT * FROM feature_importance($1)") {
		t.Errorf("the importance endpoint did not call feature_importance($1): %q", planned)
	}
}

func TestSupervisedErrors(t *testing.T) {
	s := newStack(t, web.Config{})
	s.trainGAT(t)
	s.trainSupervised(t)
	for _, tc := range []struct {
		path   string
		status int
		code   string
		says   string
	}{
		{"/api/models/nope/supervised", 404, "42704", `model "nope" does not exist`},
		{"/api/models/nope/misclassified", 404, "42704", `model "nope" does not exist`},
		{"/api/models/nope/importance", 404, "42704", `model "nope" does not exist`},
		{"/api/models/g/supervised", 400, "42809", `model "g" is a gat model, not a classifier or regressor`},
		{"/api/models/g/misclassified", 400, "42809", `model "g" is a gat model, not a classifier`},
		{"/api/models/g/importance", 400, "42809", `model "g" is a gat model, not a classifier or regressor`},
		{"/api/models/reg/misclassified", 400, "42809", `model "reg" is a regressor model, not a classifier`},
		{"/api/models/c/misclassified", 400, "22023", "c@1 reads rows, not images"},
		{"/api/models/img/misclassified?k=0", 400, "22023", `k = "0"`},
		{"/api/models/c/supervised?version=3", 404, "42704", "no version 3"},
	} {
		e := s.get(t, tc.path, tc.status)
		if e["code"] != tc.code || !strings.Contains(e["error"].(string), tc.says) {
			t.Errorf("GET %s: %v, want code %s and a message with %s", tc.path, e, tc.code, tc.says)
		}
	}
	// A model trained on data that has changed since cannot find its test rows again.
	s.exec(t, "UPDATE bars SET label = 'v'")
	e := s.get(t, "/api/models/img/misclassified", 409)
	if e["code"] != "55000" || !strings.Contains(e["error"].(string), "changed since it was trained") {
		t.Errorf("changed data: %v", e)
	}
}
