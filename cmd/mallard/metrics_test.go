package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape reads /metrics at httpAddr with Prometheus' own text parser.
func scrape(t *testing.T, httpAddr, user, password string) map[string]*dto.MetricFamily {
	t.Helper()
	req, _ := http.NewRequest("GET", "http://"+httpAddr+"/metrics", nil)
	req.SetBasicAuth(user, password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("/metrics: %s: %s", resp.Status, body)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return families
}

// value is the value of the family's metric whose labels include labels
// (name=value pairs), and whether there is one.
func value(families map[string]*dto.MetricFamily, name string, labels ...string) (float64, bool) {
	f, ok := families[name]
	if !ok {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, l := range m.GetLabel() {
				found = found || l.GetName() == labels[i] && l.GetValue() == labels[i+1]
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

func httpStatus(t *testing.T, url, user, password string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if user != "" {
		req.SetBasicAuth(user, password)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestMetricsEndpoint scrapes a live server's /metrics on the dashboard's
// port with Prometheus' parser after pgx ran statements, COPY and an
// error, and checks the probes.
func TestMetricsEndpoint(t *testing.T) {
	httpAddr := freePort(t)
	s := serveForTest(t, "--http", httpAddr, "--password", "pw")
	bg := context.Background()
	conn := s.connect(t, "mallard", "pw", "metrics", nil)
	for _, q := range []string{"CREATE TABLE m (v INTEGER)", "INSERT INTO m VALUES (1), (2)", "SELECT * FROM m", "SELECT 2"} {
		if _, err := conn.Exec(bg, q); err != nil {
			t.Fatal(err)
		}
	}
	n, err := conn.CopyFrom(bg, pgx.Identifier{"m"}, []string{"v"}, pgx.CopyFromRows([][]any{{int32(3)}, {int32(4)}, {int32(5)}}))
	if err != nil || n != 3 {
		t.Fatalf("COPY: %d, %v", n, err)
	}
	if _, err := conn.Exec(bg, "SELECT 1/0"); err == nil {
		t.Fatal("1/0 succeeded")
	}
	if _, err := conn.Exec(bg, "SELECT * FROM no_such_table"); err == nil {
		t.Fatal("no_such_table found")
	}
	if code := httpStatus(t, "http://"+httpAddr+"/metrics", "", ""); code != http.StatusUnauthorized {
		t.Errorf("/metrics without the password: %d, want 401", code)
	}
	m := scrape(t, httpAddr, "mallard", "pw")
	checks := []struct {
		name   string
		labels []string
		min    float64
		max    float64
	}{
		{"mallard_sessions", nil, 1, 1},
		{"mallard_sessions_total", nil, 1, 1},
		{"mallard_statements_total", []string{"command", "SELECT"}, 2, 10},
		{"mallard_statements_total", []string{"command", "INSERT"}, 1, 1},
		{"mallard_statements_total", []string{"command", "COPY"}, 1, 1},
		{"mallard_copy_rows_total", nil, 3, 3},
		{"mallard_statement_errors_total", []string{"class", "22"}, 1, 1},
		{"mallard_statement_errors_total", []string{"class", "42"}, 1, 1},
		{"mallard_statement_duration_seconds", nil, 5, 20},
		{"mallard_duckdb_memory_bytes", []string{"tag", "BASE_TABLE"}, 0, 1 << 40},
		{"go_goroutines", nil, 1, 1e6},
	}
	for _, c := range checks {
		v, ok := value(m, c.name, c.labels...)
		if !ok || v < c.min || v > c.max {
			t.Errorf("%s%v = %v (present %v), want %v to %v", c.name, c.labels, v, ok, c.min, c.max)
		}
	}
	conn.Close(bg)
	waitFor(t, s.logs, "msg=disconnection")
	m = scrape(t, httpAddr, "mallard", "pw")
	if v, _ := value(m, "mallard_sent_bytes_total"); v <= 0 {
		t.Errorf("mallard_sent_bytes_total = %v after a session ended", v)
	}
	if v, ok := value(m, "mallard_sessions"); !ok || v != 0 {
		t.Errorf("mallard_sessions = %v after the session ended", v)
	}
	for path, want := range map[string]int{"/healthz": 200, "/readyz": 200} {
		if code := httpStatus(t, "http://"+httpAddr+path, "", ""); code != want {
			t.Errorf("%s: %d, want %d", path, code, want)
		}
	}
	if !strings.Contains(s.logs.String(), "dashboard listening") {
		t.Error("no dashboard")
	}
}
