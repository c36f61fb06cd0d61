// Command bench measures Mallard against baselines taken in the same run:
// PostgreSQL 15 serving the same data over the same loopback wire, and DuckDB
// read in-process through duckdb-go. scripts/bench.sh starts PostgreSQL and
// calls `bench run`, which starts and stops the Mallard server itself (DuckDB
// locks the database file per process, so the in-process baselines run while
// it is stopped), then `bench report` for the summary, then `bench prep`,
// which measures Mallard's data preparation functions against DuckDB SQL
// computing the same tables on a Mallard server of its own.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"
)

const usage = `usage: bench COMMAND [flags]

commands:
  freeport   print a free TCP port on 127.0.0.1
  wait       wait until -pg accepts connections
  run        load both servers and measure everything, in rounds; write -results
  report     print the summary of -results
  prep       measure pivot_entity_time and rescale against DuckDB SQL on -flights
  train      measure gat.Train with 1 and 2 workers and against gonum's dgemm rate
  accuracy   choose train_gat's defaults on validation over five data sets (-unemployment and the weather.csv beside it, a synthetic weekly set, quarterly and monthly panels of R's datasets), then test them; with -reference r, score the baselines against R's ets, auto.arima and thetaf instead
  keeps      the keep study of docs/forecasting.md ("Keeping the network by the one-standard-error rule") on validation rows only: each panel cut to its training rows, the default under keep_network 'best' and 'one_se' (-seeds seeds), then the pre-registered rule
  keepdiag   on each full panel's validation rows (no test row): the epoch keep_network 'best' keeps per seed, its MSE against epoch 0's (the anchor alone), the DM t that 'one_se' tests and the epoch 'one_se' keeps
  anchors    the anchor study of docs/forecasting.md ("Combining ets, arima and theta") on validation rows only: each panel of accuracy cut to its training rows, every anchor variant's anchor alone and trained default (-seeds seeds), then the pre-registered rule
  strategy   train_gat's strategies (recursive, direct, multi_output) at horizon 1 and one season on -unemployment, the weather.csv beside it and the synthetic weekly set, -seeds seeds: validation and test rel_mse over steps 1..h
  horizon    train_gat validated at horizon 1 and at one season on the unemployment data and the weather.csv beside it, -seeds seeds; then the time of the network without the graph beside it
  recommender  train_recommender with 1 and 2 workers and recommend's latency on synthetic MovieLens-25M-shaped ratings
  catalogue  generate weekly sales of -series products, then pivot, rescale, train_gat (neighbors := 10, workers := -workers) and forecast them on a server of its own, with each phase's time and the server's peak RSS; then one product's network forecast against every product's, and the anchor choice and ladder fits at 1 and -workers workers, in the same run
  ladder     what leaving arima out of the ladder costs (docs/catalogue.md) on validation rows only: each panel of accuracy cut to its training rows, the default anchored as past 2,000 series with ladder 'full' and 'without_arima', anchor alone and trained (-seeds seeds)
  neighbours  recall of the exact top-10 correlation sources by the approximate search train_gat uses past gat.ApproxNeighborsEntities series, on -sizes series of the catalogue's twin and on the public panels, and one sample's graph time exact against approximate at -workers workers
  load       generate -gb GB of long events as Parquet, then pivot them per entity and month, rescale and train_gat on a server with -memory-limit, against DuckDB's PIVOT`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
		os.Exit(1)
	}
}

// options are the flags of every subcommand; each uses the ones it needs.
type options struct {
	PG         string
	MallardBin string
	MallardLog string
	DB         string
	Results    string
	Flights    string
	Rows       int
	Runs       int
	Clients    int
	Duration   time.Duration
	Warmup     time.Duration
	// Unemployment and Seeds are the data and the number of seeds of accuracy.
	Unemployment string
	Seeds        int
	Candidate    string
	Panel        string
	// Reference, when "r", makes accuracy score the baselines against R's
	// forecast package instead of training networks.
	Reference string
	// Anchor is the anchor variant accuracy -reference r trains as the
	// default (see anchorVariants).
	Anchor string
	// RecScale scales the recommender's MovieLens-25M shape; RecUsers,
	// RecItems and RecRatings, when positive, replace a scaled figure.
	// RecDB is the database file the ratings are generated into and kept
	// in (by default one per shape in the temp directory); RecRuns the
	// rounds of its two training runs; RecCurve prints the resident-set
	// curve of every training run; RecObjective is the objective trained.
	RecScale                       float64
	RecObjective                   string
	RecUsers, RecItems, RecRatings int64
	RecDB                          string
	RecRuns                        int
	RecCurve                       bool
	// LoadGB is the size of load's Parquet files; LoadDir keeps them
	// between runs (else a temporary directory); LoadMemory is the
	// server's --memory-limit.
	LoadGB                   float64
	LoadDir, LoadMemory      string
	LoadEntities, LoadEpochs int
	LoadSeed                 int64
	// Series is the number of products bench catalogue generates;
	// Workers are train_gat's workers there, and the workers the ladder
	// fits and the anchor choice are timed at beside 1.
	Series, Workers int
	// NearSizes and NearWindows are bench neighbours's numbers of series
	// and windows (comma-separated); NearTables and NearSpan, when
	// positive, replace series.DefaultNear's.
	NearSizes, NearWindows string
	NearTables, NearSpan   int
	NearRounds             int
	// AnchorOrigins, when not empty, is train_gat's anchor_origins in
	// bench catalogue.
	AnchorOrigins string
	// Ladder, when not empty, is train_gat's ladder in bench catalogue;
	// WorkersStudy times the anchor choice and the ladder at 1 worker and
	// at Workers after the phases.
	Ladder       string
	WorkersStudy bool
	// Long trains bench catalogue's model from the long table itself.
	Long bool
	// RescaleSQL times rescale's SQL equivalent after rescale in bench
	// catalogue (slow: a statement of one expression per product).
	RescaleSQL bool
	Out        io.Writer
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "help" {
		fmt.Fprintln(out, usage)
		return flag.ErrHelp
	}
	cmd := args[0]
	o := options{Out: out}
	fs := flag.NewFlagSet("bench "+cmd, flag.ContinueOnError)
	fs.StringVar(&o.PG, "pg", "", "libpq-style connection string of the PostgreSQL baseline")
	fs.StringVar(&o.MallardBin, "mallard-bin", "bin/mallard", "the Mallard server binary")
	fs.StringVar(&o.MallardLog, "mallard-log", "mallard.log", "file the Mallard server's output is appended to")
	fs.StringVar(&o.DB, "db", "", "DuckDB database file served by Mallard and read in-process")
	fs.StringVar(&o.Results, "results", "results.json", "JSON file of the measurements")
	fs.StringVar(&o.Flights, "flights", "../shared/data/vega/flights-3m.parquet", "Parquet file of the flights that prep loads")
	fs.IntVar(&o.Rows, "rows", 10_000_000, "rows in table t and rows copied into t2")
	fs.IntVar(&o.Runs, "runs", 3, "measured rounds after the warm-up round; medians are reported")
	fs.IntVar(&o.Clients, "clients", 8, "concurrent clients for the QPS measurements")
	fs.DurationVar(&o.Duration, "duration", 10*time.Second, "length of one QPS measurement")
	fs.DurationVar(&o.Warmup, "warmup", time.Second, "QPS warm-up on fresh connections before each measurement")
	fs.StringVar(&o.Unemployment, "unemployment", "../shared/data/vega/unemployment-across-industries.csv", "CSV file of the unemployment data that accuracy reads")
	fs.IntVar(&o.Seeds, "seeds", 5, "accuracy trains every configuration with seeds 0 to seeds-1")
	fs.StringVar(&o.Reference, "reference", "", "accuracy: score the baselines against this reference instead of training networks (r: ets, auto.arima and thetaf of R's forecast package, through Rscript)")
	fs.StringVar(&o.Candidate, "candidate", "", "accuracy: train only the candidate default of this name (no choice is made)")
	fs.StringVar(&o.Anchor, "anchor", "auto", "accuracy -reference r: the default's anchor variant (auto, ets_arima_theta, auto+ets_arima_theta, ets_arima_theta_median, auto+ets_arima_theta_median)")
	fs.StringVar(&o.Panel, "panel", "", "accuracy -reference r: score only the data sets whose name contains this (unemployment, weather, weekly, quarterly, monthly)")
	fs.Float64Var(&o.RecScale, "rec-scale", 1, "recommender: fraction of MovieLens-25M's users, items and ratings to generate")
	fs.Int64Var(&o.RecUsers, "rec-users", 0, "recommender: users, if positive (else 162541 x -rec-scale)")
	fs.Int64Var(&o.RecItems, "rec-items", 0, "recommender: items, if positive (else 62423 x -rec-scale)")
	fs.Int64Var(&o.RecRatings, "rec-ratings", 0, "recommender: ratings, if positive (else 25000095 x -rec-scale)")
	fs.StringVar(&o.RecDB, "rec-db", "", "recommender: database file of the generated ratings, kept between runs (default: one per shape in the temp directory)")
	fs.IntVar(&o.RecRuns, "rec-runs", 1, "recommender: rounds of the two training runs; medians are reported")
	fs.StringVar(&o.RecObjective, "rec-objective", "rating", "recommender: the objective trained, rating, ranking or ranking_vae")
	fs.BoolVar(&o.RecCurve, "rec-curve", false, "recommender: print every training run's resident set over time (always printed when a run fails or passes 2 GB)")
	fs.Float64Var(&o.LoadGB, "gb", 16, "load: gigabytes (1e9 bytes) of Parquet events to generate")
	fs.StringVar(&o.LoadDir, "load-dir", "", "load: directory of the events, reused when it holds the same -gb, -load-entities and -load-seed (default: a temporary one, removed)")
	fs.StringVar(&o.LoadMemory, "memory-limit", "2GB", "load: the server's --memory-limit")
	fs.IntVar(&o.LoadEntities, "load-entities", 1000, "load: entities of the events")
	fs.IntVar(&o.LoadEpochs, "load-epochs", 1, "load: train_gat's epochs")
	fs.Int64Var(&o.LoadSeed, "load-seed", 1, "load: seed of the events")
	fs.IntVar(&o.Series, "series", 3000, "catalogue: products (series) of the catalogue; -load-seed seeds it")
	fs.StringVar(&o.AnchorOrigins, "anchor-origins", "", "catalogue: train_gat's anchor_origins ('rolling' or 'validation'; empty: by the number of series)")
	fs.StringVar(&o.Ladder, "ladder", "", "catalogue: train_gat's ladder ('full' or 'without_arima'; empty: by the number of series)")
	fs.BoolVar(&o.Long, "long", false, "catalogue: train_gat from the long table (entity := 'sku', value := 'units') instead of pivot and rescale")
	fs.BoolVar(&o.RescaleSQL, "rescale-sql", false, "catalogue: after rescale, time the same in plain SQL on the wide table (slow past a few thousand products)")
	fs.BoolVar(&o.WorkersStudy, "workers-study", true, "catalogue: after the phases, time the anchor choice and the ladder's fits in-process at 1 worker and at -workers")
	fs.StringVar(&o.NearSizes, "sizes", "10000,30000,100000", "neighbours: numbers of series of the catalogue's twin, comma-separated")
	fs.StringVar(&o.NearWindows, "windows", "4", "neighbours: correlation windows, comma-separated")
	fs.IntVar(&o.NearTables, "tables", 0, "neighbours: the approximate search's tables (0: series.DefaultNear's)")
	fs.IntVar(&o.NearRounds, "rounds", -1, "neighbours: the approximate search's rounds of sources of sources (-1: series.DefaultNear's)")
	fs.IntVar(&o.NearSpan, "span", 0, "neighbours: the approximate search's span (0: series.DefaultNear's)")
	fs.IntVar(&o.Workers, "workers", 2, "catalogue: train_gat's workers, and the workers the ladder fits and the anchor choice are timed at against 1 worker in the same run")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if o.Rows < 1 || o.Runs < 1 || o.Clients < 1 || o.Duration <= 0 || o.Warmup < 0 {
		return errors.New("-rows, -runs, -clients and -duration must be positive")
	}
	switch cmd {
	case "freeport":
		port, err := freePort()
		if err == nil {
			_, err = fmt.Fprintln(out, port)
		}
		return err
	case "wait":
		return waitReady(ctx, o.PG, 30*time.Second)
	case "run":
		return runRounds(ctx, o)
	case "report":
		return report(o)
	case "prep":
		return runPrep(ctx, o)
	case "train":
		return runTrain(ctx, o)
	case "horizon":
		return runHorizonStudy(ctx, o)
	case "strategy":
		return runStrategyStudy(ctx, o)
	case "anchors":
		return runAnchorStudy(ctx, o)
	case "keeps":
		return runKeepStudy(ctx, o)
	case "keepdiag":
		return runKeepDiag(ctx, o)
	case "accuracy":
		if o.Reference != "" {
			return runReference(ctx, o)
		}
		return runForecastStudy(ctx, o)
	case "recommender":
		return runRecommender(ctx, o)
	case "load":
		return runLoad(ctx, o)
	case "catalogue":
		return runCatalogue(ctx, o)
	case "ladder":
		return runLadderStudy(ctx, o)
	case "neighbours":
		return runNeighbours(ctx, o)
	}
	return fmt.Errorf("unknown command %q\n%s", cmd, usage)
}

// freePort returns a port that was free a moment ago. Another process may
// take it before the caller binds it; on a bench host that race is accepted.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
