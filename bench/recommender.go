package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The shape of MovieLens-25M, which -rec-scale scales down.
const (
	mlUsers   = 162_541
	mlItems   = 62_423
	mlRatings = 25_000_095
)

// The goals: two workers take at most recSpeedGoal of one worker's epoch
// time, and a training server's peak resident set stays within
// recRSSGoalMB.
const (
	recSpeedGoal = 0.6
	recRSSGoalMB = 2048
)

const (
	// recGenVersion changes whenever the generator's SQL does, so that a
	// database made by an older generator is not reused.
	recGenVersion = 1
	// recMinPerUser is the fewest ratings a user has, as in MovieLens.
	recMinPerUser = 20
	// recCalls is the number of timed calls of recommend and of the
	// baseline, recWarmCalls the untimed pairs before them.
	recCalls     = 1000
	recWarmCalls = 50
	recK         = 10
	// rssEvery is how often the training server's resident set is sampled.
	rssEvery = 250 * time.Millisecond
)

// runRecommender measures train_recommender and recommend on a synthetic
// ratings table shaped like MovieLens-25M, generated once per shape.
func runRecommender(ctx context.Context, o options) error {
	shape := recShapeOf(o)
	if err := shape.Validate(); err != nil {
		return err
	}
	if o.RecRuns < 1 {
		return errors.New("-rec-runs must be positive")
	}
	if o.RecObjective != "rating" && o.RecObjective != "ranking" && o.RecObjective != "ranking_vae" {
		return fmt.Errorf("-rec-objective %q is not rating, ranking or ranking_vae", o.RecObjective)
	}
	path := o.RecDB
	if path == "" {
		path = filepath.Join(os.TempDir(), fmt.Sprintf("mallard-rec-u%d-i%d-r%d-g%d.duckdb", shape.Users, shape.Items, shape.Ratings, recGenVersion))
	}
	fmt.Fprintf(o.Out, "== recommender, objective %s: synthetic ratings shaped like MovieLens-25M, scale %g: %d users, %d items, %d ratings asked for\n",
		o.RecObjective, o.RecScale, shape.Users, shape.Items, shape.Ratings)
	stats, err := ensureRatings(ctx, o, shape, path)
	if err != nil {
		return err
	}
	printRecStats(o.Out, shape, stats)
	runs, err := recRounds(ctx, o, path, stats.users)
	reportRecommender(o, runs)
	return err
}

// recTrained is one training configuration measured in a server process
// of its own, and recommend's latency when measured there.
type recTrained struct {
	workers             int
	epochMS, wallSecs   float64
	rowSecs             float64 // when the client received the epoch's row, into the statement
	objective           string
	trainRMSE, testRMSE *float64 // NULL for the ranking objective
	recall, ndcg        *float64
	startKB, peakKB     int64
	afterRecommendKB    int64
	stolen              float64 // the host's steal during the statement, as a share of the machine's CPU time
	artifactBytes       *int64
	status, runError    string
	metrics             []recMetric
	phases              []recPhase
	samples             []rssSample
	notices             []recNotice
	latency             *recLatency
	// err is the training's failure, latencyErr recommend's.
	err, latencyErr error
}

// recMetric is a method's held-out metrics as mlops.models records them.
type recMetric struct {
	Method     string   `json:"method"`
	RMSE       *float64 `json:"test_rmse"`
	RecallAt10 *float64 `json:"recall_at_10"`
	NDCGAt10   *float64 `json:"ndcg_at_10"`
}

type recNotice struct {
	at  time.Time
	msg string
}

// recRounds trains with one worker and with two, each in a fresh server on
// a fresh copy of the database, o.RecRuns times, alternating which goes
// first. It goes on after a failed training and returns the failures.
func recRounds(ctx context.Context, o options, path string, users int64) ([]recTrained, error) {
	dir, err := os.MkdirTemp("", "mallard-rec-work-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var runs []recTrained
	var errs []error
	for round := 1; round <= o.RecRuns; round++ {
		fmt.Fprintf(o.Out, "== recommender round %d/%d, host load average %.2f\n", round, o.RecRuns, loadAverage())
		one, two := hostParallelism()
		fmt.Fprintf(o.Out, "  host probe: a trivially parallel job took %.2fs on one core and %.2fs on two (ratio %.2f; 0.50 is a quiet host)\n", one, two, two/one)
		for _, workers := range [][]int{{1, 2}, {2, 1}}[(round+1)%2] {
			r := trainFresh(ctx, o, path, filepath.Join(dir, "ratings.duckdb"), workers, users)
			printRecTrained(o, r)
			if r.err != nil || r.latencyErr != nil {
				errs = append(errs, fmt.Errorf("workers %d: %w", workers, errors.Join(r.err, r.latencyErr)))
			}
			runs = append(runs, r)
			if ctx.Err() != nil {
				return runs, errors.Join(append(errs, ctx.Err())...)
			}
		}
	}
	return runs, errors.Join(errs...)
}

// trainFresh copies path to work, serves it, runs one epoch of
// train_recommender with the given workers while sampling the server's
// resident set, and reads its peak just before stopping the server. With
// two workers it then measures recommend on the model.
func trainFresh(ctx context.Context, o options, path, work string, workers int, users int64) (r recTrained) {
	r.workers, r.objective = workers, o.RecObjective
	defer os.Remove(work)
	if r.err = copyFile(path, work); r.err != nil {
		return r
	}
	srv, conn, err := startRecServer(ctx, o, work, &r.notices)
	if err != nil {
		r.err = err
		return r
	}
	defer func() { conn.Close(context.Background()); r.err = errors.Join(r.err, srv.stop()) }()
	status := fmt.Sprintf("/proc/%d/", srv.cmd.Process.Pid)
	if r.startKB, r.err = procStatusKB(status, "VmRSS"); r.err != nil {
		return r
	}
	model := fmt.Sprintf("rec_bench_w%d", workers)
	sampler := sampleRSS(status)
	start, steal := time.Now(), hostStealSeconds()
	r.err = r.train(ctx, conn, model)
	end := time.Now()
	r.wallSecs = end.Sub(start).Seconds()
	r.stolen = (hostStealSeconds() - steal) / (r.wallSecs * float64(runtime.NumCPU()))
	r.samples = sampler.stop()
	peak, err := procStatusKB(status, "VmHWM")
	r.peakKB, r.err = peak, errors.Join(r.err, err)
	r.err = errors.Join(r.err, r.readRegistry(ctx, conn, model, start, end))
	if workers == 2 && r.err == nil {
		lat, err := recommendLatency(ctx, conn, model, users)
		r.latency, r.latencyErr = &lat, err
		r.afterRecommendKB, err = procStatusKB(status, "VmHWM")
		r.latencyErr = errors.Join(r.latencyErr, err)
	}
	return r
}

// startRecServer serves db on a free port and connects to it, appending
// the server's notices to notices when it is not nil.
func startRecServer(ctx context.Context, o options, db string, notices *[]recNotice) (*mallardServer, *pgx.Conn, error) {
	port, err := freePort()
	if err != nil {
		return nil, nil, err
	}
	srv := &mallardServer{bin: o.MallardBin, db: db, logPath: o.MallardLog, port: port}
	if err := srv.start(ctx); err != nil {
		return nil, nil, err
	}
	cfg, err := pgx.ParseConfig(srv.dsn())
	if err != nil {
		return nil, nil, errors.Join(err, srv.stop())
	}
	if notices != nil {
		// pgx calls OnNotice on the goroutine that is using the connection.
		cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
			*notices = append(*notices, recNotice{at: time.Now(), msg: n.Message})
		}
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, nil, errors.Join(fmt.Errorf("connect: %w", err), srv.stop())
	}
	return srv, conn, nil
}

// train runs one epoch of train_recommender with r's objective in the
// simple protocol, so the statement is bound once, and reads the epoch's
// streamed row.
func (r *recTrained) train(ctx context.Context, conn *pgx.Conn, model string) error {
	start := time.Now()
	stmt := fmt.Sprintf(`SELECT * FROM train_recommender('ratings', model := '%s', user := 'user_id', item := 'item_id', rating := 'rating',
		objective := '%s', epochs := 1, workers := %d, seed := 0)`, model, r.objective, r.workers)
	rows, err := conn.Query(ctx, stmt, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return fmt.Errorf("train_recommender: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var epoch int64
		var best bool
		r.rowSecs = time.Since(start).Seconds()
		if err := rows.Scan(&epoch, &r.trainRMSE, &r.testRMSE, &r.recall, &r.ndcg, &best, &r.epochMS); err != nil {
			return fmt.Errorf("train_recommender: %w", err)
		}
		n++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("train_recommender: %w", err)
	}
	if n != 1 {
		return fmt.Errorf("train_recommender streamed %d rows for 1 epoch", n)
	}
	return nil
}

// readRegistry reads the model's status, artifact size and metrics, and
// the run's phases: the server stamps a run started once it has read and
// split the ratings, an epoch's metrics when the epoch ends, and the run
// finished when its transaction storing the evaluated model begins
// (current_timestamp is the transaction's start); the statement ends when
// that transaction has committed.
func (r *recTrained) readRegistry(ctx context.Context, conn *pgx.Conn, model string, start, end time.Time) error {
	var started, epoch, finished *int64
	var metrics, runErr, status *string
	err := conn.QueryRow(ctx, `SELECT epoch_us(r.started_at),
		(SELECT epoch_us(max(recorded_at)) FROM mlops.training_metrics t WHERE t.run_id = r.run_id), epoch_us(r.finished_at),
		m.status, r.error, m.artifact_size, m.metrics
		FROM mlops.training_runs r LEFT JOIN mlops.models m ON m.name = r.model AND m.version = r.version
		WHERE r.model = $1 ORDER BY r.run_id DESC LIMIT 1`, model).
		Scan(&started, &epoch, &finished, &status, &runErr, &r.artifactBytes, &metrics)
	if err != nil {
		return fmt.Errorf("read mlops.training_runs: %w", err)
	}
	r.status, r.runError = "none", ""
	if status != nil {
		r.status = *status
	}
	if runErr != nil {
		r.runError = *runErr
	}
	if metrics != nil {
		if err := json.Unmarshal([]byte(*metrics), &r.metrics); err != nil {
			return fmt.Errorf("metrics of %s: %w", model, err)
		}
	}
	r.phases = recPhases(start, end, []*int64{started, epoch, finished},
		[]string{"read, sort and split ratings", recEpochPhase, "evaluate and encode artifact", "store artifact, commit"})
	return nil
}

// recEpochPhase names the phase from the end of reading to the end of the
// epoch.
const recEpochPhase = "epoch (with its ranking metrics)"

// recPhase is a span of a training statement.
type recPhase struct {
	name       string
	start, end time.Time
}

// recPhases cuts [start, end] at the known boundaries, in microseconds of
// the Unix epoch; a phase whose end is unknown runs into the next.
func recPhases(start, end time.Time, cuts []*int64, names []string) []recPhase {
	var out []recPhase
	from, name := start, names[0]
	for i, c := range cuts {
		if c == nil {
			name += ", " + names[i+1]
			continue
		}
		to := time.UnixMicro(*c)
		out = append(out, recPhase{name: name, start: from, end: to})
		from, name = to, names[i+1]
	}
	return append(out, recPhase{name: name, start: from, end: end})
}

// rssSample is a process's resident set and the CPU time it has used.
type rssSample struct {
	at  time.Time
	kB  int64
	cpu float64
}

// rssSampler samples a process's resident set and CPU time every rssEvery
// on a goroutine of its own, which stop ends and waits for.
type rssSampler struct {
	samples []rssSample
	done    chan struct{}
	wg      sync.WaitGroup
}

func sampleRSS(statusDir string) *rssSampler {
	s := &rssSampler{done: make(chan struct{})}
	s.wg.Go(func() {
		tick := time.NewTicker(rssEvery)
		defer tick.Stop()
		for {
			kB, err := procStatusKB(statusDir, "VmRSS")
			cpu, cpuErr := procCPUSeconds(statusDir)
			if err == nil && cpuErr == nil {
				s.samples = append(s.samples, rssSample{at: time.Now(), kB: kB, cpu: cpu})
			}
			select {
			case <-s.done:
				return
			case <-tick.C:
			}
		}
	})
	return s
}

func (s *rssSampler) stop() []rssSample {
	close(s.done)
	s.wg.Wait()
	return s.samples
}

// procCPUSeconds is the user and system CPU time of the process whose
// /proc directory is dir; Linux counts it in ticks of 1/100 s.
func procCPUSeconds(dir string) (float64, error) {
	b, err := os.ReadFile(dir + "stat")
	if err != nil {
		return 0, fmt.Errorf("server stat: %w", err)
	}
	// Fields 14 and 15; the command name before them may hold spaces.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0, errors.New("server stat: too few fields")
	}
	utime, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100, errors.Join(err1, err2)
}

// phaseStats are the resident set at the phase's end (the last sample
// before it), the largest sample within it, and the CPU cores the server
// used on average between its first and last samples (NaN with fewer
// than two).
func phaseStats(p recPhase, samples []rssSample) (lastKB, topKB int64, cores float64) {
	var first, last *rssSample
	for i, s := range samples {
		if !s.at.After(p.end) {
			lastKB = s.kB
		}
		if s.at.Before(p.start) || s.at.After(p.end) {
			continue
		}
		topKB = max(topKB, s.kB)
		if first == nil {
			first = &samples[i]
		}
		last = &samples[i]
	}
	cores = math.NaN()
	if first != nil && last.at.After(first.at) {
		cores = (last.cpu - first.cpu) / last.at.Sub(first.at).Seconds()
	}
	return lastKB, topKB, cores
}

// recLatency are recommend's call times and the baseline's, in ms.
type recLatency struct {
	firstMS         float64
	recommend, base []float64
}

// recommendLatency times a first call of recommend, which loads and
// decodes the model, then recCalls calls over users drawn with a fixed
// seed, each after a SELECT $1::bigint round trip on the same connection,
// after recWarmCalls untimed pairs.
func recommendLatency(ctx context.Context, conn *pgx.Conn, model string, users int64) (recLatency, error) {
	rng := rand.New(rand.NewPCG(1, 2))
	query := fmt.Sprintf(`SELECT * FROM recommend('%s', user_id := $1::bigint, k := %d)`, model, recK)
	call := func(user int64) (float64, error) {
		start := time.Now()
		rows, err := conn.Query(ctx, query, user)
		if err != nil {
			return 0, fmt.Errorf("recommend: %w", err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		if err := rows.Err(); err != nil {
			return 0, fmt.Errorf("recommend user %d: %w", user, err)
		}
		if n != recK {
			return 0, fmt.Errorf("recommend user %d: %d rows, want %d", user, n, recK)
		}
		return float64(time.Since(start).Microseconds()) / 1000, nil
	}
	base := func(user int64) (float64, error) {
		var v int64
		start := time.Now()
		err := conn.QueryRow(ctx, `SELECT $1::bigint`, user).Scan(&v)
		return float64(time.Since(start).Microseconds()) / 1000, err
	}
	var lat recLatency
	var err error
	if lat.firstMS, err = call(1 + rng.Int64N(users)); err != nil {
		return lat, err
	}
	for i := range recWarmCalls + recCalls {
		b, err := base(1 + rng.Int64N(users))
		if err != nil {
			return lat, fmt.Errorf("SELECT $1::bigint: %w", err)
		}
		c, err := call(1 + rng.Int64N(users))
		if err != nil {
			return lat, err
		}
		if i >= recWarmCalls {
			lat.base, lat.recommend = append(lat.base, b), append(lat.recommend, c)
		}
	}
	return lat, nil
}

// percentile is the smallest value with at least p of xs at or below it.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	return s[max(0, int(math.Ceil(p*float64(len(s))))-1)]
}

func mb(kB int64) float64 { return float64(kB) / 1024 }

func printRecTrained(o options, r recTrained) {
	out := o.Out
	fmt.Fprintf(out, "  workers %d: ", r.workers)
	if r.err != nil {
		fmt.Fprintf(out, "FAILED after %.1fs: %v\n", r.wallSecs, r.err)
	} else {
		fmt.Fprintf(out, "epoch elapsed_ms %.0f, statement %.1fs (its row reached the client at %.1fs); train_rmse %s test_rmse %s recall@10 %s ndcg@10 %s\n",
			r.epochMS, r.wallSecs, r.rowSecs, optFloat(r.trainRMSE), optFloat(r.testRMSE), optFloat(r.recall), optFloat(r.ndcg))
		fmt.Fprintf(out, "    the host stole %.1f%% of this machine's CPU time during the statement\n", 100*r.stolen)
		for _, n := range r.notices {
			if _, times, ok := strings.Cut(n.msg, "; workers' "); ok {
				fmt.Fprintf(out, "    workers' %s\n", times)
			}
		}
	}
	size := "none"
	if r.artifactBytes != nil {
		size = fmt.Sprintf("%.1f MB (%d bytes)", float64(*r.artifactBytes)/(1<<20), *r.artifactBytes)
	}
	fmt.Fprintf(out, "    server RSS %.0f MB before the statement, peak (VmHWM) %.0f MB; model status %s, artifact %s\n",
		mb(r.startKB), mb(r.peakKB), r.status, size)
	if r.runError != "" {
		fmt.Fprintf(out, "    mlops.training_runs.error: %s\n", r.runError)
	}
	for _, m := range r.metrics {
		fmt.Fprintf(out, "    held-out %-12s test_rmse %s recall@10 %s ndcg@10 %s\n", m.Method, optFloat(m.RMSE), optFloat(m.RecallAt10), optFloat(m.NDCGAt10))
	}
	printPhases(out, r)
	if o.RecCurve || r.err != nil || mb(r.peakKB) > recRSSGoalMB {
		printCurve(out, r)
	}
	if r.latencyErr != nil {
		fmt.Fprintf(out, "    recommend FAILED: %v\n", r.latencyErr)
	} else if l := r.latency; l != nil {
		fmt.Fprintf(out, "    recommend k=%d: first call %.1f ms (loads and decodes the model); %d calls: median %.3f ms, p95 %.3f ms;\n"+
			"      SELECT $1::bigint on the same connection: median %.3f ms, p95 %.3f ms; server peak RSS after them %.0f MB\n",
			recK, l.firstMS, len(l.recommend), percentile(l.recommend, 0.5), percentile(l.recommend, 0.95),
			percentile(l.base, 0.5), percentile(l.base, 0.95), mb(r.afterRecommendKB))
	}
}

func optFloat(v *float64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatFloat(*v, 'f', 4, 64)
}

// printPhases prints each phase's start and length, the resident set at
// its end, the largest sample within it and the CPU cores the server kept
// busy in it.
func printPhases(out io.Writer, r recTrained) {
	if len(r.phases) == 0 {
		return
	}
	t0 := r.phases[0].start
	fmt.Fprintf(out, "    %-40s %7s %7s %12s %12s %6s\n", "phase (boundaries from mlops timestamps)", "from", "secs", "RSS at end", "max RSS", "cores")
	for _, p := range r.phases {
		last, top, cores := phaseStats(p, r.samples)
		topText := "(no sample)"
		if top > 0 {
			topText = fmt.Sprintf("%.0f MB", mb(top))
		}
		fmt.Fprintf(out, "    %-40s %6.1fs %6.1fs %9.0f MB %12s %6.2f\n", p.name, p.start.Sub(t0).Seconds(), p.end.Sub(p.start).Seconds(),
			mb(last), topText, cores)
	}
}

// printCurve prints the resident set once a second, or in at most about
// 60 lines for longer statements, and at every change of phase, with the
// notices when the client received them (Mallard may hold them back until
// the statement ends).
func printCurve(out io.Writer, r recTrained) {
	if len(r.samples) == 0 {
		return
	}
	t0 := r.samples[0].at
	every := max(time.Second, r.samples[len(r.samples)-1].at.Sub(t0)/60).Round(time.Second)
	fmt.Fprintf(out, "    resident set over the statement, sampled every %v, printed every %v and at each phase:\n", rssEvery, every)
	phase, lastPrinted, n := "", time.Time{}, 0
	for _, s := range r.samples {
		for n < len(r.notices) && !r.notices[n].at.After(s.at) {
			fmt.Fprintf(out, "      %7.1fs  NOTICE %s\n", r.notices[n].at.Sub(t0).Seconds(), r.notices[n].msg)
			n++
		}
		p := ""
		for _, ph := range r.phases {
			if !s.at.Before(ph.start) && !s.at.After(ph.end) {
				p = ph.name
			}
		}
		if p != phase || s.at.Sub(lastPrinted) >= every {
			fmt.Fprintf(out, "      %7.1fs %8.0f MB  %s\n", s.at.Sub(t0).Seconds(), mb(s.kB), p)
			phase, lastPrinted = p, s.at
		}
	}
	for _, nt := range r.notices[n:] {
		fmt.Fprintf(out, "      %7.1fs  NOTICE %s\n", nt.at.Sub(t0).Seconds(), nt.msg)
	}
}

// reportRecommender prints the medians over rounds against the goals.
func reportRecommender(o options, runs []recTrained) {
	out := o.Out
	med := func(workers int, f func(recTrained) float64) float64 {
		var m measurement
		for _, r := range runs {
			if r.workers == workers && r.err == nil {
				m.Runs = append(m.Runs, f(r))
			}
		}
		if len(m.Runs) == 0 {
			return math.NaN()
		}
		return m.median()
	}
	epoch := func(r recTrained) float64 { return r.epochMS / 1000 }
	wall := func(r recTrained) float64 { return r.wallSecs }
	peak := func(r recTrained) float64 { return mb(r.peakKB) }
	fmt.Fprintf(out, "\n== recommender summary: medians of %d round(s) of successful runs; ratio is workers 2 / workers 1\n", o.RecRuns)
	fmt.Fprintf(out, "%-36s %10s %10s %6s  %-9s %s\n", "measure", "workers2", "workers1", "ratio", "goal", "met")
	for _, m := range []struct {
		label string
		f     func(recTrained) float64
		goal  bool
	}{{"epoch time (elapsed_ms)", epoch, true}, {"train_recommender statement, wall", wall, false}} {
		t2, t1 := med(2, m.f), med(1, m.f)
		goal, verdict := "", ""
		if m.goal {
			goal, verdict = fmt.Sprintf("<= %.1f", recSpeedGoal), verdictOf(t2/t1 <= recSpeedGoal)
		}
		fmt.Fprintf(out, "%-36s %9.2fs %9.2fs %6.2f  %-9s %s\n", m.label, t2, t1, t2/t1, goal, verdict)
	}
	for _, w := range []int{2, 1} {
		p := med(w, peak)
		fmt.Fprintf(out, "%-36s %9.0f MB %25s  %s\n", fmt.Sprintf("training server peak RSS, workers %d", w), p,
			fmt.Sprintf("<= %d MB", recRSSGoalMB), verdictOf(p <= recRSSGoalMB))
	}
	fmt.Fprintf(out, "server CPU during the epoch, in cores busy on average: workers 2 %.2f, workers 1 %.2f\n", med(2, epochCores), med(1, epochCores))
	reportLatency(out, runs)
	fmt.Fprintf(out, "host: %d cores shared with other processes; load average %.2f at the end\n", runtime.NumCPU(), loadAverage())
}

// epochCores is the CPU cores the server kept busy on average during the
// run's epoch, or NaN when the epoch's end is unknown.
func epochCores(r recTrained) float64 {
	for _, p := range r.phases {
		if p.name == recEpochPhase {
			_, _, cores := phaseStats(p, r.samples)
			return cores
		}
	}
	return math.NaN()
}

// reportLatency prints the medians over the runs that measured recommend.
func reportLatency(out io.Writer, runs []recTrained) {
	var rec, base, first measurement
	for _, r := range runs {
		if r.latency != nil && r.latencyErr == nil {
			rec.Runs = append(rec.Runs, percentile(r.latency.recommend, 0.5))
			base.Runs = append(base.Runs, percentile(r.latency.base, 0.5))
			first.Runs = append(first.Runs, r.latency.firstMS)
		}
	}
	if len(rec.Runs) > 0 {
		fmt.Fprintf(out, "recommend k=%d median %.3f ms = %.1f x the SELECT $1::bigint round trip (%.3f ms); first call %.1f ms\n",
			recK, rec.median(), rec.median()/base.median(), base.median(), first.median())
	}
}

func verdictOf(ok bool) string {
	if ok {
		return "met"
	}
	return "missed"
}

// copyFile copies the file at from to to, replacing it; the database is
// compressed (some 80 MB at full scale), so it is read whole.
func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err == nil {
		err = os.WriteFile(to, data, 0o644)
	}
	if err != nil {
		return fmt.Errorf("copy database: %w", err)
	}
	return nil
}
