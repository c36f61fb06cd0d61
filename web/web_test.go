//go:build duckdb_arrow

package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mallard/mallard/internal/testserver"
	"github.com/mallard/mallard/server"
	"github.com/mallard/mallard/storage"
	"github.com/mallard/mallard/web"
)

// stack is a database with Mallard's functions and the dashboard over it.
// Statements run as a client's would: planned, on a connection of their own.
type stack struct {
	db   *storage.DB
	plan func(string) string
	url  string
}

func newStack(t *testing.T, cfg web.Config) *stack {
	t.Helper()
	ctx := context.Background()
	srv, err := server.Open(ctx, server.Config{DB: storage.Config{Path: storage.MemoryPath}, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	observe := cfg.Plan // a test's cfg.Plan sees each query the dashboard plans
	cfg.Plan, cfg.Registry = srv.Plan, srv.Registry
	if observe != nil {
		cfg.Plan = func(q string) string { observe(q); return srv.Plan(q) }
	}
	cfg.Poll = 20 * time.Millisecond
	dash := web.New(srv.DB, cfg, slog.New(slog.DiscardHandler))
	hs := httptest.NewServer(dash)
	t.Cleanup(func() {
		dash.Close()
		hs.Close()
		_ = srv.Close(context.Background())
	})
	return &stack{db: srv.DB, plan: srv.Plan, url: hs.URL}
}

// exec runs statements to their end, failing the test on error.
func (s *stack) exec(t *testing.T, queries ...string) {
	t.Helper()
	for _, q := range queries {
		if err := s.run(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// tamper changes the registry behind its back, on the database/sql handle
// the registry itself writes through: sessions may not write schema mlops.
func (s *stack) tamper(t *testing.T, queries ...string) {
	t.Helper()
	for _, q := range queries {
		if _, err := s.db.SQL().ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func (s *stack) run(ctx context.Context, q string) error {
	conn, err := s.db.Connect()
	if err != nil {
		return err
	}
	defer conn.Close()
	stmt, err := conn.Prepare(ctx, s.plan(q))
	if err != nil {
		return err
	}
	defer stmt.Close()
	rows, err := stmt.Query(ctx)
	if err != nil {
		return err
	}
	for rows.Next() {
	}
	return rows.Close()
}

// get fetches path and decodes its JSON body, checking the status.
func (s *stack) get(t *testing.T, path string, status int) map[string]any {
	t.Helper()
	resp, err := http.Get(s.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("GET %s: status %d, want %d: %s", path, resp.StatusCode, status, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("GET %s: Content-Type %q", path, ct)
	}
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("GET %s: %v: %s", path, err, body)
	}
	return out
}

// trainGAT trains GAT model "g" on the rescaled unemployment data.
func (s *stack) trainGAT(t *testing.T) {
	s.exec(t, testserver.Unemployment(t)...)
	s.exec(t, "SELECT * FROM train_gat('uw', model := 'g', epochs := 3, scaler := 'u')")
}

// trainRecommender trains recommender "r" on generated ratings of 200
// users, with text user ids when text is set.
func (s *stack) trainRecommender(t *testing.T, text bool) {
	user := "u"
	if text {
		user = "'user' || u"
	}
	s.exec(t, "CREATE TABLE ratings AS SELECT "+user+" AS user_id, (u * 7 + i * 13) % 120 AS item_id, 1 + (u + i) % 5 AS rating "+
		"FROM range(200) a(u), range(15) b(i)",
		"SELECT * FROM train_recommender('ratings', model := 'r', epochs := 2, hidden := [16, 4, 16])")
}

func TestModelsAndRuns(t *testing.T) {
	s := newStack(t, web.Config{})
	if got := s.get(t, "/api/models", 200)["models"].([]any); len(got) != 0 {
		t.Fatalf("models of an empty registry: %v", got)
	}
	s.trainGAT(t)
	models := s.get(t, "/api/models", 200)["models"].([]any)
	if len(models) != 1 {
		t.Fatalf("models: %v", models)
	}
	m := models[0].(map[string]any)
	for key, want := range map[string]any{"name": "g", "kind": "gat", "version": 1.0, "status": "ready", "deployed": true, "entities": 14.0} {
		if m[key] != want {
			t.Errorf("model %s = %v, want %v", key, m[key], want)
		}
	}
	if _, err := time.Parse(time.RFC3339, m["created_at"].(string)); err != nil {
		t.Errorf("created_at: %v", err)
	}
	if hp, ok := m["hyperparameters"].(map[string]any); !ok || hp["window"] != 4.0 {
		t.Errorf("hyperparameters are not the JSON object: %v", m["hyperparameters"])
	}

	runs := s.get(t, "/api/runs", 200)["runs"].([]any)
	r := runs[0].(map[string]any)
	if len(runs) != 1 || r["status"] != "succeeded" || r["epochs_done"] != 3.0 || r["model"] != "g" {
		t.Fatalf("runs: %v", runs)
	}
	run := s.get(t, "/api/runs/1", 200)
	if run["loss"] != "mse" || len(run["metrics"].([]any)) != 3 {
		t.Fatalf("run: %v", run)
	}
	epoch := run["metrics"].([]any)[2].(map[string]any)
	if epoch["epoch"] != 3.0 || epoch["train_loss"].(float64) <= 0 || epoch["test_loss"].(float64) <= 0 {
		t.Errorf("epoch 3: %v", epoch)
	}
	var methods []string
	for _, b := range run["baselines"].([]any) {
		b := b.(map[string]any)
		methods = append(methods, b["method"].(string))
		if b["test_loss"].(float64) <= 0 {
			t.Errorf("baseline %v", b)
		}
	}
	if strings.Join(methods, ",") != "last_value,seasonal_naive,drift,constant,ols,ar_diff,ets,theta,arima" {
		t.Errorf("baselines %v", methods)
	}

	model := s.get(t, "/api/models/g", 200)
	if model["kind"] != "gat" || model["deployed_version"] != 1.0 || len(model["versions"].([]any)) != 1 {
		t.Errorf("model: %v", model)
	}
}

func TestGATReport(t *testing.T) {
	s := newStack(t, web.Config{})
	s.trainGAT(t)
	r := s.get(t, "/api/models/g/report", 200)
	if r["kind"] != "gat" || r["units"] != "original" || r["version"] != 1.0 || r["window"] != 4.0 {
		t.Fatalf("report header: kind %v units %v version %v window %v", r["kind"], r["units"], r["version"], r["window"])
	}
	entities, times := r["entities"].([]any), r["times"].([]any)
	if len(entities) != 14 || r["total_entities"] != 14.0 || entities[0] != "agriculture" {
		t.Fatalf("entities %v", entities)
	}
	if len(times) != 122 || times[0] != "2000-01" || times[121] != "2010-02" {
		t.Fatalf("times: %d, %v .. %v", len(times), times[0], times[len(times)-1])
	}
	if split := r["split"].(float64); split != 85 { // floor(0.7 * 122)
		t.Errorf("split %v", split)
	}
	truth, pred := r["truth"].([]any), r["prediction"].([]any)
	first, firstPred := truth[0].([]any), pred[0].([]any)
	if len(first) != 122 || len(firstPred) != 122 {
		t.Fatalf("series lengths %d, %d", len(first), len(firstPred))
	}
	// Original units: agriculture counts are in the hundreds, January 2000 is 154.
	if v := first[0].(float64); v < 153.99 || v > 154.01 {
		t.Errorf("agriculture in 2000-01 = %v, want 154", v)
	}
	// Predictions start after the rows a sample reads: with the detected
	// season 12 the highway has 12 lags of differences, which read 13 rows.
	if firstPred[12] != nil || firstPred[13] == nil {
		t.Errorf("predictions start after the span: %v", firstPred[11:15])
	}
	forecast := r["forecast"].(map[string]any)
	if ft := forecast["times"].([]any); len(ft) != 6 || ft[0] != "2010-03" {
		t.Errorf("forecast times %v", ft)
	}
	corr := r["correlation"].([]any)
	if len(corr) != 14 || corr[3].([]any)[3] != 1.0 {
		t.Errorf("correlation diagonal %v", corr[3])
	}
	edges := r["edges"].([]any)
	if len(edges) != 14*3 {
		t.Errorf("%d edges, want 3 per entity", len(edges))
	}
	// Without a neighbour limit the attention graph is complete: each
	// target's 14 weights, its self loop included, sum to 1.
	sums := map[float64]float64{}
	attention := r["attention"].([]any)
	for _, e := range attention {
		e := e.(map[string]any)
		sums[e["target"].(float64)] += e["weight"].(float64)
	}
	if len(attention) != 14*14 || len(sums) != 14 {
		t.Errorf("attention has %d edges into %d targets, want 196 into 14", len(attention), len(sums))
	}
	for target, s := range sums {
		if s < 1-1e-9 || s > 1+1e-9 {
			t.Errorf("attention into entity %v sums to %v, want 1", target, s)
		}
	}
	if m := r["metrics"].([]any); len(m) != 10 || m[0].(map[string]any)["method"] != "gat" {
		t.Errorf("metrics %v", m)
	}
}

// TestQuarterLabels checks that a quarterly model's report names its
// periods as quarters (2000 Q1), in the data and in the forecast, not as
// the months 2000-01 to 2000-04.
func TestQuarterLabels(t *testing.T) {
	s := newStack(t, web.Config{})
	s.exec(t, `CREATE TABLE q AS SELECT 2000 + i // 4 AS year, i % 4 + 1 AS quarter,
		sin(i) + i / 10 AS a, cos(i) + i / 20 AS b, sin(2 * i) AS c FROM range(40) r(i)`)
	s.exec(t, "SELECT * FROM train_gat('q', model := 'quarterly', epochs := 2)")
	r := s.get(t, "/api/models/quarterly/report", 200)
	times := r["times"].([]any)
	if len(times) != 40 || times[0] != "2000 Q1" || times[39] != "2009 Q4" {
		t.Errorf("times %v .. %v, want 2000 Q1 .. 2009 Q4", times[0], times[len(times)-1])
	}
	if ft := r["forecast"].(map[string]any)["times"].([]any); len(ft) == 0 || ft[0] != "2010 Q1" {
		t.Errorf("forecast times %v, want 2010 Q1 first", ft)
	}
}

func TestRecommenderReportAndRecommend(t *testing.T) {
	for _, text := range []bool{false, true} {
		name := map[bool]string{false: "integer ids", true: "text ids"}[text]
		t.Run(name, func(t *testing.T) {
			s := newStack(t, web.Config{})
			s.trainRecommender(t, text)
			r := s.get(t, "/api/models/r/report", 200)
			if r["kind"] != "recommender" || r["users"] != 200.0 || r["items"] != 120.0 || r["ratings"].(float64)+r["test_ratings"].(float64) != 3000 {
				t.Fatalf("report %v", r)
			}
			users := r["example_users"].([]any)
			user := "0"
			if text {
				user = users[0].(string)
			} else if users[0] != 0.0 {
				t.Fatalf("example users %v", users)
			}
			rec := s.get(t, "/api/models/r/recommend?user="+user+"&k=5", 200)
			items := rec["items"].([]any)
			if rec["model"] != "r@1" || len(items) != 5 || items[0].(map[string]any)["rank"] != 1.0 {
				t.Fatalf("recommend %v", rec)
			}
			e := s.get(t, "/api/models/r/recommend?user=nobody&k=5", 400)
			if e["code"] != "22023" || !strings.Contains(e["error"].(string), "nobody") {
				t.Errorf("unknown user: %v", e)
			}
			for _, bad := range []string{"user=o'brien%22;--", "user=" + user + "&k=0", "user=" + user + "&k=x", "user=" + user + "&k=1001", "k=3"} {
				if e := s.get(t, "/api/models/r/recommend?"+bad, 400); e["code"] != "22023" {
					t.Errorf("recommend?%s: %v, want 22023", bad, e)
				}
			}
		})
	}
}

// A recommender's report lists EASE among the baselines, with evaluate's
// figures for it.
func TestRecommenderReportHasEASE(t *testing.T) {
	s := newStack(t, web.Config{})
	s.trainRecommender(t, false)
	var methods []string
	var ease map[string]any
	for _, m := range s.get(t, "/api/models/r/report", 200)["metrics"].([]any) {
		m := m.(map[string]any)
		methods = append(methods, m["method"].(string))
		if m["method"] == "ease" {
			ease = m
		}
	}
	if strings.Join(methods, ",") != "autorec,item_mean,popularity,ease" {
		t.Fatalf("report methods %v, want the stored three and ease", methods)
	}
	s.exec(t, "CREATE TABLE ev AS SELECT * FROM evaluate('r')")
	var recall, ndcg float64
	if err := s.db.SQL().QueryRow("SELECT recall_at_10, ndcg_at_10 FROM ev WHERE method = 'ease'").Scan(&recall, &ndcg); err != nil {
		t.Fatal(err)
	}
	if ease["recall_at_10"] != recall || ease["ndcg_at_10"] != ndcg || ease["test_rmse"] != nil {
		t.Errorf("ease row %v, evaluate says recall@10 %v ndcg@10 %v", ease, recall, ndcg)
	}
}

// A recommender trained with item_names := shows each item's name beside
// its id; a version whose names table has gone keeps its ids and says why.
func TestRecommendItemNames(t *testing.T) {
	s := newStack(t, web.Config{})
	s.exec(t, "CREATE TABLE ratings AS SELECT u AS user_id, (u * 7 + i * 13) % 120 AS item_id, 1 + (u + i) % 5 AS rating "+
		"FROM range(200) a(u), range(15) b(i)",
		"CREATE TABLE items AS SELECT i AS item_id, 'Item no. ' || i AS title FROM range(120) t(i) WHERE i % 2 = 0",
		"SELECT * FROM train_recommender('ratings', model := 'r', epochs := 1, hidden := [16, 4, 16], item_names := 'items.title')")
	rec := s.get(t, "/api/models/r/recommend?user=3&k=20", 200)
	if names, _ := rec["item_names"].(map[string]any); names["table"] != "main.items" || names["column"] != "title" {
		t.Fatalf("item_names %v", rec["item_names"])
	}
	named := 0
	for _, it := range rec["items"].([]any) {
		item := it.(map[string]any)
		id := int(item["item"].(float64))
		want := any(nil)
		if id%2 == 0 {
			want, named = "Item no. "+strconv.Itoa(id), named+1
		}
		if name, ok := item["name"]; !ok || name != want {
			t.Errorf("item %d: name %v, want %v", id, item["name"], want)
		}
	}
	if named == 0 {
		t.Errorf("no recommended item has a name: %v", rec["items"])
	}
	s.exec(t, "DROP TABLE items")
	rec = s.get(t, "/api/models/r/recommend?user=3&k=5", 200)
	if msg, _ := rec["names_error"].(string); len(rec["items"].([]any)) != 5 || !strings.Contains(msg, "main.items.title") || !strings.Contains(msg, "does not exist") {
		t.Errorf("recommend after the names table is dropped: %v", rec)
	}
	// The dashboard reads names from a table's name and nothing else, even
	// when the registry says otherwise.
	s.tamper(t, "UPDATE mlops.models SET hyperparameters = replace(CAST(hyperparameters AS VARCHAR), '\"main.items\"', '\"(SELECT 1)\"') WHERE name = 'r'")
	rec = s.get(t, "/api/models/r/recommend?user=3&k=5", 200)
	if msg, _ := rec["names_error"].(string); !strings.Contains(msg, `"(SELECT 1)" is not a table name`) {
		t.Errorf("recommend with a names table that is a query: %v", rec)
	}
	s.exec(t, "SELECT * FROM train_recommender('ratings', model := 'plain', epochs := 1, hidden := [16, 4, 16])")
	rec = s.get(t, "/api/models/plain/recommend?user=3&k=5", 200)
	if _, ok := rec["item_names"]; ok {
		t.Errorf("a recommender trained without item_names has names: %v", rec)
	}
	if _, ok := rec["items"].([]any)[0].(map[string]any)["name"]; ok {
		t.Errorf("a recommender trained without item_names has names: %v", rec)
	}
}

func TestErrors(t *testing.T) {
	s := newStack(t, web.Config{})
	s.trainGAT(t)
	for _, tc := range []struct {
		path   string
		status int
		code   string
		says   string
	}{
		{"/api/models/nope", 404, "42704", `"nope"`},
		{"/api/models/nope/report", 404, "42704", `"nope"`},
		{"/api/models/g/report?version=7", 404, "42704", "no version 7"},
		{"/api/models/g/report?version=x", 400, "22023", `"x"`},
		{"/api/models/g/recommend?user=1", 400, "42809", "not a recommender"},
		{"/api/runs/99", 404, "42704", "99"},
		{"/api/runs/one", 400, "22023", `"one"`},
		{"/api/nothing", 404, "42704", "/api/nothing"},
	} {
		e := s.get(t, tc.path, tc.status)
		if e["code"] != tc.code || !strings.Contains(e["error"].(string), tc.says) {
			t.Errorf("GET %s: %v, want code %s and a message with %s", tc.path, e, tc.code, tc.says)
		}
	}
	s.exec(t, "SELECT * FROM train_gat('uw', model := 'g', epochs := 1, scaler := 'u', deploy := 'never')")
	s.tamper(t, "UPDATE mlops.models SET status = 'canceled' WHERE name = 'g' AND version = 2",
		"DELETE FROM mlops.reports WHERE version = 2")
	e := s.get(t, "/api/models/g/report?version=2", 409)
	if e["code"] != "55000" || !strings.Contains(e["error"].(string), "did not finish training") {
		t.Errorf("report of a canceled version: %v", e)
	}
	s.tamper(t, "UPDATE mlops.models SET status = 'failed' WHERE name = 'g' AND version = 2",
		"UPDATE mlops.training_runs SET status = 'failed', error = 'loss became NaN at epoch 1' WHERE model = 'g' AND version = 2")
	e = s.get(t, "/api/models/g/report?version=2", 409)
	if !strings.Contains(e["error"].(string), "its training failed: loss became NaN at epoch 1") {
		t.Errorf("report of a failed version does not say why it failed: %v", e)
	}
	resp, err := http.Post(s.url+"/api/models", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405 (the dashboard is read-only)", resp.StatusCode)
	}
}

// external matches what would make a browser fetch from another site.
var external = regexp.MustCompile(`(?i)(src|href|action)\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//|(fetch|EventSource|import)\s*\(\s*["'](https?:)?//`)

func TestPageAndAssets(t *testing.T) {
	s := newStack(t, web.Config{})
	for path, want := range map[string]string{"/": "static/app.js", "/static/app.js": "EventSource", "/static/style.css": "{",
		"/static/lib.js": "window.Mallard", "/static/reports.js": "window.Mallard.reports", "/static/supervised.js": "window.Mallard.supervised",
		"/static/vendor/uplot/uPlot.iife.min.js": "var uPlot=", "/static/vendor/uplot/uPlot.min.css": ".uplot"} {
		resp, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: status %d, body without %q", path, resp.StatusCode, want)
		}
		if ext := external.FindString(string(body)); ext != "" {
			t.Errorf("GET %s loads from another site: %s", path, ext)
		}
		if path == "/" {
			// The scripts share window.Mallard: each must load after those it uses.
			at := -1
			for _, script := range []string{`src="static/vendor/uplot/uPlot.iife.min.js" defer`, `src="static/lib.js" defer`,
				`src="static/reports.js" defer`, `src="static/supervised.js" defer`, `src="static/app.js" defer`} {
				next := strings.Index(string(body), script)
				if next <= at {
					t.Errorf("GET /: %s missing or out of order (want uPlot, lib.js, reports.js, supervised.js, app.js)", script)
				}
				at = next
			}
		}
	}
}

// The chart library in static/vendor is the version package-lock.json
// pins, with its licence.
func TestVendoredChartLibrary(t *testing.T) {
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
			License string `json:"license"`
		} `json:"packages"`
	}
	data, err := os.ReadFile("package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &lock); err != nil {
		t.Fatal(err)
	}
	pinned := lock.Packages["node_modules/uplot"]
	if pinned.Version == "" {
		t.Fatalf("package-lock.json pins no uplot: %s", data)
	}
	for file, want := range map[string]string{
		"static/vendor/uplot/VERSION":           pinned.Version + "\n",
		"static/vendor/uplot/uPlot.iife.min.js": "/*! https://github.com/leeoniya/uPlot (v" + pinned.Version + ") */",
		"static/vendor/uplot/LICENSE":           "The " + pinned.License + " License",
	} {
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(got), want) {
			t.Errorf("%s starts %.60q, want %q (run npm ci && npm run vendor in web/)", file, got, want)
		}
	}
}

func TestAuthentication(t *testing.T) {
	s := newStack(t, web.Config{Authenticate: func(_ context.Context, _, user, password string) bool { return user == "mallard" && password == "pw" }})
	for _, tc := range []struct {
		user, password string
		status         int
	}{{"", "", 401}, {"mallard", "wrong", 401}, {"mallard", "pw", 200}} {
		req, _ := http.NewRequest("GET", s.url+"/api/models", nil)
		if tc.user != "" {
			req.SetBasicAuth(tc.user, tc.password)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s/%s: status %d, want %d", tc.user, tc.password, resp.StatusCode, tc.status)
		}
		if tc.status == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Basic") {
			t.Errorf("401 without a Basic challenge")
		}
	}
}

// TestEventsFollowTraining checks that the event stream announces a run
// started after the page connected: the change that makes it appear live.
func TestEventsFollowTraining(t *testing.T) {
	s := newStack(t, web.Config{})
	s.exec(t, "CREATE TABLE u AS SELECT * FROM read_csv('"+testserver.UnemploymentCSV(t)+"')",
		"CREATE TABLE w AS SELECT * FROM pivot_entity_time('u', entity := 'series', time := ['year', 'month'], value := 'count')",
		"CREATE TABLE uw AS SELECT * FROM rescale('w')")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.url+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	events := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				events <- sc.Text()
			}
		}
		close(events)
	}()
	if first := <-events; first != `data: {"seq":1}` {
		t.Fatalf("first event %q", first)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := s.run(context.Background(), "SELECT * FROM train_gat('uw', model := 'live', epochs := 5)"); err != nil {
			t.Error(err)
		}
	}()
	select {
	case ev := <-events:
		if ev != `data: {"seq":2}` {
			t.Errorf("event after training started %q", ev)
		}
	case <-time.After(60 * time.Second):
		t.Error("no change event while a model trained")
	}
	wg.Wait()
	runs := s.get(t, "/api/runs", 200)["runs"].([]any)
	if len(runs) != 1 || runs[0].(map[string]any)["model"] != "live" {
		t.Errorf("runs %v", runs)
	}
}

// TestDeployedOlderVersion deploys version 1 of a model that has a newer
// version 2: the API says 1 is deployed, and the model's page opens on it.
// A Postgres session sets arrow_lossless_conversion, which is global in
// DuckDB and makes a BOOLEAN arrive as Arrow's bool8 (an int8) everywhere.
func TestDeployedOlderVersion(t *testing.T) {
	s := newStack(t, web.Config{})
	s.trainRecommender(t, false)
	s.exec(t, "SELECT * FROM train_recommender('ratings', model := 'r', epochs := 1, hidden := [8], deploy := 'always')",
		"SELECT mlops.deploy('r', 1)", "SET arrow_lossless_conversion = true")
	m := s.get(t, "/api/models/r", 200)
	if m["deployed_version"] != 1.0 {
		t.Errorf("deployed_version %v, want 1", m["deployed_version"])
	}
	for _, v := range m["versions"].([]any) {
		v := v.(map[string]any)
		if want := v["version"] == 1.0; v["deployed"] != want {
			t.Errorf("version %v: deployed %v (%T), want %v", v["version"], v["deployed"], v["deployed"], want)
		}
	}
	if r := s.get(t, "/api/models/r/report", 200); r["version"] != 1.0 {
		t.Errorf("the report opens on version %v, want the deployed 1", r["version"])
	}
}

// TestLossNames checks that every model and run says what its losses
// measure, so that the overview never shows MSE and RMSE unlabelled in
// one column.
func TestLossNames(t *testing.T) {
	s := newStack(t, web.Config{})
	s.trainGAT(t)
	s.trainRecommender(t, false)
	s.exec(t, "SELECT * FROM train_recommender('ratings', model := 'rank', epochs := 1, hidden := [8], objective := 'ranking')")
	want := map[string]string{"g": "mse", "r": "rmse", "rank": "1 − ndcg@10"}
	for _, m := range s.get(t, "/api/models", 200)["models"].([]any) {
		m := m.(map[string]any)
		if m["loss"] != want[m["name"].(string)] {
			t.Errorf("model %v: loss %v, want %v", m["name"], m["loss"], want[m["name"].(string)])
		}
	}
	runs := s.get(t, "/api/runs", 200)["runs"].([]any)
	for _, r := range runs {
		r := r.(map[string]any)
		if r["loss"] != want[r["model"].(string)] || r["hyperparameters"] != nil {
			t.Errorf("run of %v: loss %v, want %v (and no hyperparameters)", r["model"], r["loss"], want[r["model"].(string)])
		}
	}
	if len(runs) != 3 {
		t.Errorf("%d runs, want 3", len(runs))
	}
	if run := s.get(t, "/api/runs/3", 200); run["loss"] != "1 − ndcg@10" {
		t.Errorf("run 3 (ranking): loss %v", run["loss"])
	}
	if m := s.get(t, "/api/models/r", 200)["versions"].([]any)[0].(map[string]any); m["loss"] != "rmse" {
		t.Errorf("version of r: loss %v", m["loss"])
	}
}

// panel is a monthly table of three smooth seasonal series over ten
// years; spikes subtracts 50 from b in 2008-05 and adds 60 to a in
// 2009-03, late enough that no seasonal fit carries the spike into a
// later March.
func panel(name string, spikes bool) string {
	a, b := "0", "0"
	if spikes {
		a, b = "CASE WHEN t = 110 THEN 60 ELSE 0 END", "CASE WHEN t = 100 THEN -50 ELSE 0 END"
	}
	return "CREATE TABLE " + name + " AS SELECT 2000 + t // 12 AS year, t % 12 + 1 AS month, " +
		"100 + t / 4 + 10 * sin(t * pi() / 6) + (t * 7 % 5) / 5 + " + a + " AS a, " +
		"80 + 8 * cos(t * pi() / 6) + (t * 3 % 7) / 7 + " + b + " AS b, " +
		"50 + t / 10 + 5 * sin(t * pi() / 3) + (t * 5 % 3) / 3 AS c FROM range(120) r(t)"
}

// TestAnomalies checks that the anomalies of a GAT version are the
// injected spikes, each at its time step, and that a clean panel has none.
func TestAnomalies(t *testing.T) {
	s := newStack(t, web.Config{})
	s.exec(t, panel("spiky", true), panel("clean", false),
		"SELECT * FROM train_gat('spiky', model := 'spiky', epochs := 2)",
		"SELECT * FROM train_gat('clean', model := 'clean', epochs := 2)")
	report := s.get(t, "/api/models/spiky/report", 200)
	times := report["times"].([]any)
	r := s.get(t, "/api/models/spiky/anomalies", 200)
	if r["level"] != 0.99 || r["model"] != "spiky@1" {
		t.Errorf("level %v, model %v", r["level"], r["model"])
	}
	steps := int(r["scored_steps"].(float64))
	var got []string
	for _, p := range r["points"].([]any) {
		p := p.(map[string]any)
		at := times[len(times)-steps+int(p["step"].(float64))]
		got = append(got, fmt.Sprintf("%v %v", p["entity"], at))
		if v, lo, hi := p["value"].(float64), p["lo"].(float64), p["hi"].(float64); v >= lo && v <= hi {
			t.Errorf("point %v lies inside its interval", p)
		}
	}
	if want := "b 2008-05, a 2009-03"; strings.Join(got, ", ") != want {
		t.Errorf("anomalies %q, want %q", strings.Join(got, ", "), want)
	}
	if clean := s.get(t, "/api/models/clean/anomalies", 200)["points"].([]any); len(clean) != 0 {
		t.Errorf("a clean panel has anomalies: %v", clean)
	}
	s.get(t, "/api/models/spiky/anomalies?level=1.5", 400)
}

// TestRecommendHostileNames: a model and a user whose names are SQL reach
// recommend as values: the model is found by its name, the hostile user is
// refused as a user it does not know, named as given, and nothing the
// names spell runs.
func TestRecommendHostileNames(t *testing.T) {
	var mu sync.Mutex
	var planned []string
	s := newStack(t, web.Config{Plan: func(q string) string {
		mu.Lock()
		defer mu.Unlock()
		planned = append(planned, q)
		return q
	}})
	s.exec(t, "CREATE TABLE ratings AS SELECT 'user' || u AS user_id, (u * 7 + i * 13) % 120 AS item_id, 1 + (u + i) % 5 AS rating "+
		"FROM range(50) a(u), range(15) b(i)",
		`SELECT * FROM train_recommender('ratings', model := 'x''); DROP TABLE ratings; --', epochs := 1, hidden := [8, 4, 8])`)
	model := url.PathEscape(`x'); DROP TABLE ratings; --`)
	rec := s.get(t, "/api/models/"+model+"/recommend?user=user3&k=3", 200)
	if items, _ := rec["items"].([]any); len(items) != 3 {
		t.Fatalf("recommend for user3 of the hostile model: %v", rec)
	}
	user := `user1' OR '1'='1`
	e := s.get(t, "/api/models/"+model+"/recommend?user="+url.QueryEscape(user)+"&k=3", 400)
	named := "'" + strings.ReplaceAll(user, "'", "''") + "'" // as recommend quotes it
	if e["code"] != "22023" || !strings.Contains(e["error"].(string), named) {
		t.Errorf("hostile user: %v, want 22023 naming %s", e, named)
	}
	s.exec(t, "SELECT count(*) FROM ratings") // still there
	mu.Lock()
	defer mu.Unlock()
	for _, q := range planned {
		if strings.Contains(q, "DROP TABLE") || strings.Contains(q, "OR ''1''") || strings.Contains(q, "user3") {
			t.Errorf("the dashboard wrote a name into SQL text: %s", q)
		}
	}
	if len(planned) == 0 {
		t.Error("the dashboard planned no query")
	}
}
