// Package metrics exposes a running server to Prometheus: what the wire
// server counts as it goes (sessions, statements by command tag, errors by
// SQLSTATE class, statement durations, bytes, COPY rows), what the
// database holds when scraped (training runs by status, epochs trained,
// DuckDB's memory by tag) and Go's runtime. It implements
// sqlfront.Observer.
package metrics

import (
	"context"
	"net/http"
	"time"

	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
	"github.com/mallard/mallard/storage/registrystore"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are one server's metrics, in a registry of their own (no global
// state).
type Metrics struct {
	registry *prometheus.Registry

	sessions      prometheus.Gauge
	connections   prometheus.Counter
	statements    *prometheus.CounterVec
	errors        *prometheus.CounterVec
	duration      prometheus.Histogram
	bytesReceived prometheus.Counter
	bytesSent     prometheus.Counter
	copyRows      prometheus.Counter
}

// New returns the metrics of a server on db.
func New(db *storage.DB) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{Name: "mallard_sessions",
			Help: "Client sessions open now."}),
		connections: prometheus.NewCounter(prometheus.CounterOpts{Name: "mallard_sessions_total",
			Help: "Client sessions started."}),
		statements: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mallard_statements_total",
			Help: "Statements that succeeded, by the command tag of their last statement (SELECT, INSERT, COPY...)."}, []string{"command"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mallard_statement_errors_total",
			Help: "Statements that failed, by the class of their SQLSTATE (the first two characters)."}, []string{"class"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "mallard_statement_duration_seconds",
			Help:    "How long statements that succeeded took, from the client's request to ReadyForQuery.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 11)}), // 100 µs to about 105 s
		bytesReceived: prometheus.NewCounter(prometheus.CounterOpts{Name: "mallard_received_bytes_total",
			Help: "Bytes received from clients, counted when their session ends."}),
		bytesSent: prometheus.NewCounter(prometheus.CounterOpts{Name: "mallard_sent_bytes_total",
			Help: "Bytes sent to clients, counted when their session ends."}),
		copyRows: prometheus.NewCounter(prometheus.CounterOpts{Name: "mallard_copy_rows_total",
			Help: "Rows copied by COPY FROM STDIN and COPY TO STDOUT."}),
	}
	m.registry.MustRegister(m.sessions, m.connections, m.statements, m.errors, m.duration, m.bytesReceived,
		m.bytesSent, m.copyRows, &databaseCollector{db: db},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in Prometheus' text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

func (m *Metrics) SessionStarted() { m.sessions.Inc(); m.connections.Inc() }

func (m *Metrics) SessionEnded(received, sent int64) {
	m.sessions.Dec()
	m.bytesReceived.Add(float64(received))
	m.bytesSent.Add(float64(sent))
}

func (m *Metrics) StatementEnded(tag string, took time.Duration, rows int64) {
	if tag == "" {
		tag = "OTHER"
	}
	m.statements.WithLabelValues(tag).Inc()
	m.duration.Observe(took.Seconds())
	if tag == "COPY" {
		m.copyRows.Add(float64(rows))
	}
}

func (m *Metrics) StatementFailed(code sqlstate.Code) {
	class := string(code)
	if len(class) >= 2 {
		class = class[:2]
	}
	m.errors.WithLabelValues(class).Inc()
}

// scrapeTimeout bounds the database queries of one scrape.
const scrapeTimeout = 5 * time.Second

// databaseCollector reads, at each scrape, what the database holds:
// training runs by status, epochs trained, and DuckDB's memory by tag.
type databaseCollector struct{ db *storage.DB }

var (
	runsDesc = prometheus.NewDesc("mallard_training_runs", "Training runs recorded in mlops.training_runs, by status.",
		[]string{"status"}, nil)
	epochsDesc = prometheus.NewDesc("mallard_training_epochs", "Epochs recorded in mlops.training_metrics, over every run.",
		nil, nil)
	memoryDesc = prometheus.NewDesc("mallard_duckdb_memory_bytes", "Memory DuckDB uses now, by tag (duckdb_memory()).",
		[]string{"tag"}, nil)
	tempDesc = prometheus.NewDesc("mallard_duckdb_temporary_storage_bytes", "Temporary storage DuckDB uses now, by tag (duckdb_memory()).",
		[]string{"tag"}, nil)
)

func (c *databaseCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- runsDesc
	ch <- epochsDesc
	ch <- memoryDesc
	ch <- tempDesc
}

// Collect reports what the database holds now; a read that fails (the
// database is closing, the mlops schema does not exist yet) is reported
// as an invalid metric, which the handler logs and skips.
func (c *databaseCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	store := registrystore.New(c.db)
	if runs, err := store.RunsByStatus(ctx); err != nil {
		ch <- prometheus.NewInvalidMetric(runsDesc, err)
	} else {
		for status, n := range runs {
			ch <- prometheus.MustNewConstMetric(runsDesc, prometheus.GaugeValue, float64(n), status)
		}
	}
	if n, err := store.EpochsRecorded(ctx); err != nil {
		ch <- prometheus.NewInvalidMetric(epochsDesc, err)
	} else {
		ch <- prometheus.MustNewConstMetric(epochsDesc, prometheus.CounterValue, float64(n))
	}
	use, err := c.db.MemoryUse(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(memoryDesc, err)
		ch <- prometheus.NewInvalidMetric(tempDesc, err)
		return
	}
	for _, u := range use {
		ch <- prometheus.MustNewConstMetric(memoryDesc, prometheus.GaugeValue, float64(u.Memory), u.Tag)
		ch <- prometheus.MustNewConstMetric(tempDesc, prometheus.GaugeValue, float64(u.Temporary), u.Tag)
	}
}
