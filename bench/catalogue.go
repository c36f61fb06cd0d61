package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// catalogueWeeks is how many weeks of sales the catalogue has: three years.
const catalogueWeeks = 156

// catalogueSQL creates table sales of a catalogue of n products' weekly
// units over catalogueWeeks weeks, in long form (week, sku, units): each
// product has a level, a yearly wave of a phase and amplitude of its own, a
// trend of its own and a hashed noise. The same n and seed give the same
// table.
func catalogueSQL(n int, seed int64) string {
	h := func(salt int) string {
		return fmt.Sprintf("(hash(e * 7919 + %d + %d) %% 10000) / 10000.0", seed*101, salt)
	}
	units := fmt.Sprintf(`100 + 50 * %s
  + (10 + 30 * %s) * sin(2 * pi() * w / 52.0 + 6.283 * %s)
  + (%s - 0.5) * 0.4 * w
  + 8 * ((hash(e * 1000003 + w * 31 + %d) %% 10000) / 10000.0 - 0.5)`, h(1), h(2), h(3), h(4), seed)
	return fmt.Sprintf(`CREATE TABLE sales AS
SELECT CAST(w AS INTEGER) AS week, 'sku' || lpad(CAST(e AS VARCHAR), 6, '0') AS sku, %s AS units
FROM range(%d) a(w), range(%d) b(e)`, units, catalogueWeeks, n)
}

// cataloguePhase is a statement bench catalogue times, run repeat times
// (its median is printed, and the peak RSS over the runs).
type cataloguePhase struct {
	name, sql string
	repeat    int
}

// cataloguePhases are the statements bench catalogue times, in order: the
// pivot, the rescale, the training (with workers workers) and the
// forecast of a whole catalogue, then the forecast of one product by ets,
// and by the network at 1 step beside every product's at 1 step (the
// network over the product's receptive field; at 12 steps every step but
// the last needs every product, see gat.Model.ForecastEntities).
//
// origins and ladder, when not empty, are train_gat's anchor_origins and
// ladder. long trains from the long table itself (entity := 'sku'), as
// the catalogue's users are told to, without the pivot and the rescale.
// rescaleSQL times rescale's SQL equivalent after rescale (rescale_sql).
func cataloguePhases(products, workers int, origins, ladder string, long, rescaleSQL bool) []cataloguePhase {
	var extra string
	if origins != "" {
		extra = fmt.Sprintf(", anchor_origins := '%s'", origins)
	}
	if ladder != "" {
		extra += fmt.Sprintf(", ladder := '%s'", ladder)
	}
	train := fmt.Sprintf(`SELECT * FROM train_gat('scaled', model := 'catalogue', time := 'week', neighbors := 10, epochs := 2, workers := %d, seed := 1%s)`, workers, extra)
	if long {
		train = fmt.Sprintf(`SELECT * FROM train_gat('sales', model := 'catalogue', entity := 'sku', time := 'week', value := 'units', neighbors := 10, epochs := 2, workers := %d, seed := 1%s)`, workers, extra)
	}
	phases := []cataloguePhase{
		{"pivot", `CREATE TABLE wide AS SELECT * FROM pivot_entity_time('sales', entity := 'sku', time := 'week', value := 'units')`, 1},
		{"rescale", `CREATE TABLE scaled AS SELECT * FROM rescale('wide', time := 'week', save_as := 'catalogue_scaler')`, 1},
		{"train_gat", train, 1},
		{"forecast", `SELECT count(*) FROM forecast('catalogue', steps := 12, level := 0.9)`, 1},
		{"forecast_1", `SELECT count(*) FROM forecast('catalogue', steps := 12, level := 0.9, method := 'ets', entity := 'sku000001')`, 20},
		{"net_all_s1", `SELECT count(*) FROM forecast('catalogue', steps := 1, level := 0.9)`, 5},
		{"net_1_s1", `SELECT count(*) FROM forecast('catalogue', steps := 1, level := 0.9, entity := 'sku000001')`, 5},
		{"net_1_s12", `SELECT count(*) FROM forecast('catalogue', steps := 12, level := 0.9, entity := 'sku000001')`, 3},
	}
	if long {
		return phases[2:]
	}
	if rescaleSQL {
		return slices.Insert(phases, 2, cataloguePhase{"rescale_sql", catalogueRescaleSQL(products), 1})
	}
	return phases
}

// catalogueRescaleSQL is rescale's default on the pivoted table written
// in plain SQL (bench prep's rescaleSQL over every product's column): the
// baseline the issue compares rescale of a 10,000-column table with.
func catalogueRescaleSQL(products int) string {
	cols := make([]string, products)
	for i := range cols {
		cols[i] = fmt.Sprintf("sku%06d", i)
	}
	return rescaleSQL("scaled_sql", "wide", "week", cols)
}

// runCatalogue generates a catalogue of o.Series products on a server of
// its own and times the four phases of forecasting it, with the server's
// peak resident set during each (VmHWM, reset before each phase) and over
// the whole run.
func runCatalogue(ctx context.Context, o options) (err error) {
	if o.Series < 2 {
		return fmt.Errorf("-series %d: at least 2 products are needed", o.Series)
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	srv := &mallardServer{bin: o.MallardBin, db: ":memory:", logPath: o.MallardLog, port: port}
	if err := srv.start(ctx); err != nil {
		return err
	}
	defer func() { err = errors.Join(err, srv.stop()) }()
	var notices []string
	cfg, err := pgx.ParseConfig(srv.dsn())
	if err != nil {
		return err
	}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n.Message) }
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(context.Background())
	dir := fmt.Sprintf("/proc/%d/", srv.cmd.Process.Pid)
	start := time.Now()
	if err := execOn(ctx, conn, catalogueSQL(o.Series, o.LoadSeed)); err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "== catalogue: %d products x %d weeks (%d rows) generated in %.1fs, host load average %.2f\n",
		o.Series, catalogueWeeks, o.Series*catalogueWeeks, time.Since(start).Seconds(), loadAverage())
	fmt.Fprintf(o.Out, "%-10s %10s %12s %16s\n", "phase", "seconds", "server CPU s", "peak RSS (MB)")
	var total float64
	times := map[string]float64{}
	for _, p := range cataloguePhases(o.Series, max(1, o.Workers), o.AnchorOrigins, o.Ladder, o.Long, o.RescaleSQL) {
		if err := os.WriteFile(dir+"clear_refs", []byte("5"), 0); err != nil {
			return fmt.Errorf("reset peak RSS: %w", err)
		}
		notices = notices[:0]
		runs := make([]float64, p.repeat)
		cpu0, err := procCPUSeconds(dir)
		if err != nil {
			return err
		}
		for k := range runs {
			began := time.Now()
			if err := execOn(ctx, conn, p.sql); err != nil {
				return fmt.Errorf("catalogue %s: %w", p.name, err)
			}
			runs[k] = time.Since(began).Seconds()
		}
		slices.Sort(runs)
		secs := runs[len(runs)/2]
		total += secs
		times[p.name] = secs
		peak, err := procStatusKB(dir, "VmHWM")
		if err != nil {
			return err
		}
		cpu1, err := procCPUSeconds(dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(o.Out, "%-10s %10.2f %12.2f %16.0f\n", p.name, secs, (cpu1-cpu0)/float64(p.repeat), float64(peak)/1024)
		for _, n := range notices {
			if strings.Contains(n, "setup") {
				fmt.Fprintf(o.Out, "           %s\n", n)
			}
		}
	}
	fmt.Fprintf(o.Out, "%-10s %10.2f\n", "total", total)
	if times["rescale_sql"] > 0 {
		fmt.Fprintf(o.Out, "rescale of the wide table against the same in SQL on the long table, same run: %.2fs / %.2fs = %.2f\n",
			times["rescale"], times["rescale_sql"], times["rescale"]/times["rescale_sql"])
	}
	fmt.Fprintf(o.Out, "network, one product against every product, same run: 1 step %.3fs / %.3fs = %.3f; 12 steps %.3fs / %.3fs = %.3f\n",
		times["net_1_s1"], times["net_all_s1"], times["net_1_s1"]/times["net_all_s1"],
		times["net_1_s12"], times["forecast"], times["net_1_s12"]/times["forecast"])
	if !o.WorkersStudy || o.Long { // the study reads table scaled, which -long does not make
		return nil
	}
	return catalogueWorkers(ctx, conn, o)
}
