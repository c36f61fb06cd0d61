//go:build duckdb_arrow

package functions

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/mallard/mallard/mlops/gat"
	"github.com/mallard/mallard/mlops/series"
	"github.com/mallard/mallard/mlops/training"
	"github.com/mallard/mallard/sqlstate"
)

const trainGATName = "train_gat"

func trainGATFunction() tableFunction {
	return tableFunction{
		sig: signature{
			fn:         trainGATName,
			positional: []param{{name: "source", kind: kindText, required: true}},
			named: []param{
				{name: "model", kind: kindText},
				{name: "window", kind: kindInt, min: 1, max: 1000, def: int64(4)},
				{name: "hidden", kind: kindIntList, def: []int{16, 16}},
				{name: "heads", kind: kindInt, min: 1, max: 16, def: int64(1)},
				{name: "epochs", kind: kindInt, min: 1, max: 1_000_000, def: int64(200)},
				{name: "lr", kind: kindFloat, min: 0, max: 10, minOpen: true, def: 0.005},
				{name: "momentum", kind: kindFloat, min: 0, max: 1, maxOpen: true, def: 0.9},
				{name: "optimizer", kind: kindText, choices: []string{"sgd", "adam"}, def: "sgd"},
				{name: "batch_size", kind: kindInt, min: 1, max: 1_000_000, def: int64(32)},
				{name: "train_fraction", kind: kindFloat, min: 0, max: 1, minOpen: true, maxOpen: true, def: 0.7},
				{name: "patience", kind: kindInt, min: 0, max: 1_000_000, def: int64(20)},
				{name: "workers", kind: kindInt, min: 1, max: 64, def: int64(1)},
				{name: "ranks", kind: kindInt, min: 1, max: training.MaxRanks, def: int64(1)},
				{name: "seed", kind: kindInt, min: 0, max: math.MaxInt64, def: int64(0)},
				{name: "neighbors", kind: kindInt, min: 0, max: 1_000_000, def: int64(0)},
				{name: "time", kind: kindTextList},
				{name: "entity", kind: kindText},
				{name: "value", kind: kindText},
				{name: "scaler", kind: kindText},
				{name: "deploy", kind: kindText, choices: []string{"auto", "always", "never"}, def: "auto"},
				{name: "checkpoint_every", kind: kindInt, min: 0, max: 1_000_000, def: int64(0)},
				{name: "resume", kind: kindText},
				{name: "allow_data_change", kind: kindBool, def: false},
				{name: "target", kind: kindText, choices: []string{"change", "level"}, def: "change"},
				{name: "highway", kind: kindInt, min: 0, max: 1000, def: int64(4)},
				{name: "clip", kind: kindFloat, min: 0, max: 1e6, def: 5.0},
				{name: "validation_fraction", kind: kindFloat, min: 0, max: 0.9, def: 0.15},
				{name: "season", kind: kindInt, min: 0, max: 100_000, def: int64(0)},
				{name: "anchor", kind: kindText, choices: append([]string{gat.AnchorAuto}, gat.AnchorKinds()...), def: gat.AnchorAuto},
				{name: "horizon", kind: kindInt, min: 1, max: 100_000},
				{name: "anchor_origins", kind: kindText, choices: gat.AnchorOriginRules()},
				{name: "compare_graph", kind: kindBool, def: false},
				{name: "strategy", kind: kindText, choices: gat.Strategies(), def: gat.StrategyRecursive},
			},
			result: []column{{"epoch", pgBigint}, {"train_mse", pgDouble}, {"test_mse", pgDouble}, {"val_mse", pgDouble},
				{"best", pgBool}, {"elapsed_ms", pgDouble}},
		},
		bind:   bindTrainGAT,
		writes: always,
	}
}

// wide is a bound wide source: its time columns and its entity columns.
// A long source (see long) binds as the wide source of its distinct times,
// with its entities beside.
type wide struct {
	src      *source
	times    []int
	entities []int
	orderBy  string
	long     *long
}

// openTraining binds train_gat's source: long with entity := 'col'
// (rescaled by train_gat itself, so scaler := is refused), else wide.
func openTraining(c *call, a args, scaler string) (*wide, error) {
	switch {
	case a.given("entity") && scaler != "":
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: scaler := %s with entity := %s: a long source is rescaled per entity by train_gat, which keeps its own scaler",
			trainGATName, quote(scaler), quote(a.text("entity"))).WithHint("Leave scaler out, and give the values in original units.")
	case a.given("entity"):
		return openLong(c, trainGATName, a.text("source"), a)
	case a.given("value"):
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: value := %s applies to a long source, which entity := 'col' names", trainGATName, quote(a.text("value"))).
			WithHint("Name the entity column too, or leave value out for a wide source.")
	}
	return openWide(c, trainGATName, a.text("source"), a.texts("time"))
}

// openWide reads a wide Time x Entity source: every column that is not a
// time column is an entity and must be numeric.
func openWide(c *call, fn, text string, time []string) (*wide, error) {
	src, err := openSource(c.ctx(), c, fn, text)
	if err != nil {
		return nil, err
	}
	w := &wide{src: src}
	if w.times, err = src.timeColumns(time); err != nil {
		return nil, err
	}
	for i, col := range src.cols {
		if slices.Contains(w.times, i) {
			continue
		}
		if !isNumeric(col.Type.ID) {
			return nil, sqlstate.New(sqlstate.DatatypeMismatch, "%s: column %s has type %s; every column except the time columns is an entity and must be numeric",
				fn, col.Name, col.Type.PGName()).WithHint("Name the time columns with time := [...], or leave the column out of the source.")
		}
		w.entities = append(w.entities, i)
	}
	if len(w.entities) < 2 {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: the source has %d entity columns; a graph needs at least 2", fn, len(w.entities)).
			WithHint("The source has columns %s; time columns are %s.", src.columnList(), w.timeList())
	}
	if len(w.times) > 0 {
		w.orderBy = " ORDER BY " + src.identList(w.times)
	}
	return w, nil
}

func (w *wide) timeList() string {
	if len(w.times) == 0 {
		return "none"
	}
	return w.src.identList(w.times)
}

func (w *wide) timeNames() []string {
	var names []string
	for _, i := range w.times {
		names = append(names, w.src.cols[i].Name)
	}
	return names
}

func (w *wide) entityNames() []string {
	if w.long != nil {
		return w.long.names
	}
	names := make([]string, len(w.entities))
	for k, i := range w.entities {
		names[k] = w.src.cols[i].Name
	}
	return names
}

// orderLike puts the entity columns in the order of names when they are
// the same columns in another order; otherwise it leaves them as they are.
func (w *wide) orderLike(names []string) {
	if len(names) != len(w.entities) || w.long != nil {
		return
	}
	at := make(map[string]int, len(w.entities))
	for _, i := range w.entities {
		at[w.src.cols[i].Name] = i
	}
	ordered := make([]int, len(names))
	for k, name := range names {
		i, ok := at[name]
		if !ok {
			return
		}
		ordered[k] = i
	}
	w.entities = ordered
}

// matrix reads the entity columns in time order; NULL is an error.
func (w *wide) matrix(ctx context.Context, c *call, fn string) (series.Matrix, error) {
	if w.long != nil {
		return w.long.matrix(ctx, c, w)
	}
	exprs := make([]string, len(w.entities))
	for k, i := range w.entities {
		exprs[k] = "CAST(" + ident(w.src.cols[i].Name) + " AS DOUBLE)"
	}
	r, err := c.read(ctx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+w.src.from+w.orderBy)
	if err != nil {
		return series.Matrix{}, w.src.wrap(err)
	}
	defer r.Close()
	m := series.Matrix{N: len(w.entities)}
	for r.Next() {
		b := r.Batch()
		rows := int(b.NumRows())
		at := len(m.Values)
		m.Values = append(m.Values, make([]float64, rows*m.N)...)
		for k := range m.N {
			vals, valid := floats(b.Column(k))
			for row := range rows {
				if !valid(row) || math.IsNaN(vals[row]) || math.IsInf(vals[row], 0) {
					return m, sqlstate.New(sqlstate.NullValueNotAllowed, "%s: column %s has a NULL or non-finite value in row %d (in time order)",
						fn, w.src.cols[w.entities[k]].Name, m.T+row+1).WithHint("Fill the gaps first, for example with pivot_entity_time(..., missing := 'ffill').")
				}
				m.Values[at+row*m.N+k] = vals[row]
			}
		}
		m.T += rows
	}
	return m, w.src.wrap(r.Err())
}

func bindTrainGAT(c *call, a args) (*table, error) {
	cfg := gat.Config{Window: int(a.int("window")), Hidden: a.ints("hidden"), Heads: int(a.int("heads")),
		Epochs: int(a.int("epochs")), LR: a.float("lr"), Momentum: a.float("momentum"), Optimizer: a.text("optimizer"),
		BatchSize: int(a.int("batch_size")), TrainFraction: a.float("train_fraction"), Patience: int(a.int("patience")),
		Workers: int(a.int("workers")), Seed: uint64(a.int("seed")), Neighbors: int(a.int("neighbors")),
		Target: a.text("target"), Highway: int(a.int("highway")), Clip: a.float("clip"),
		ValidationFraction: a.float("validation_fraction"), Season: int(a.int("season")), Anchor: a.text("anchor"),
		Strategy: a.text("strategy"), AnchorOrigins: a.text("anchor_origins")}
	job := &gatJob{c: c, cfg: cfg, name: a.text("model"), scaler: a.text("scaler"), deploy: a.text("deploy"),
		checkpointEvery: int(a.int("checkpoint_every")), allowDataChange: a.bool("allow_data_change"),
		seasonalHighway: !a.explicit("highway"), seasonGiven: a.explicit("season"), horizonGiven: a.given("horizon"),
		compareGraph: a.bool("compare_graph")}
	job.cfg.Horizon = int(a.int("horizon"))
	if a.given("resume") {
		if err := job.resumeFrom(a); err != nil {
			return nil, err
		}
	}
	if job.name == "" {
		return nil, sqlstate.New(sqlstate.UndefinedFunction, "%s: argument model is required", trainGATName).
			WithHint("Name the model to train: train_gat(source, model := 'name').")
	}
	if a.explicit("anchor") && cfg.Target == "level" {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: anchor := %s applies to target := 'change'; target := 'level' has no anchor",
			trainGATName, quote(cfg.Anchor)).WithHint("Leave anchor out, or train with target := 'change'.")
	}
	if a.given("anchor_origins") && (cfg.Target == "level" || cfg.Anchor != gat.AnchorAuto) {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: anchor_origins := %s applies to anchor := 'auto' with target := 'change'; this run has anchor := %s, target := %s",
			trainGATName, quote(cfg.AnchorOrigins), quote(cfg.Anchor), quote(cfg.Target)).WithHint("Leave anchor_origins out, or let the anchor be chosen (anchor := 'auto').")
	}
	if err := job.cfg.Validate(); err != nil {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", trainGATName, err)
	}
	if err := checkModelName(trainGATName, job.name); err != nil {
		return nil, err
	}
	if err := checkModelKind(c, trainGATName, job.name, "gat"); err != nil {
		return nil, err
	}
	across, err := job.launchAcross(a)
	if err != nil {
		return nil, err
	}
	job.across = across
	w, err := openTraining(c, a, a.text("scaler"))
	if err != nil {
		return nil, err
	}
	if job.from != nil {
		w.orderLike(job.from.Entities) // resume matches entity columns by name
	}
	if job.link, err = linkScaler(c, job.scaler, w.entityNames()); err != nil {
		return nil, err
	}
	job.w = w
	return &table{open: job.start}, nil
}

// resumeFrom sets the job up to continue the version resume names (its
// latest version with weights, if it names none): that version's
// architecture and, unless the call gives them, its other options.
func (j *gatJob) resumeFrom(a args) error {
	m, v, err := loadResumed(j.c, trainGATName, "gat", a.text("resume"))
	if err != nil {
		return err
	}
	if j.from, err = decodeGATArtifact(m.Artifact); err != nil {
		return err
	}
	j.fromRef, j.fromFingerprint = m.Ref, v.Fingerprint
	prev := j.from.Model.Config
	// The architecture is the checkpoint's; the call may repeat it, not change it.
	for _, arch := range []struct {
		name      string
		same      bool
		had, want any
	}{
		{"window", prev.Window == j.cfg.Window, prev.Window, j.cfg.Window},
		{"hidden", slices.Equal(prev.Hidden, j.cfg.Hidden), prev.Hidden, j.cfg.Hidden},
		{"heads", prev.Heads == j.cfg.Heads, prev.Heads, j.cfg.Heads},
		{"neighbors", prev.Neighbors == j.cfg.Neighbors, prev.Neighbors, j.cfg.Neighbors},
		{"target", prev.Target == j.cfg.Target, prev.Target, j.cfg.Target},
		{"highway", prev.Highway == j.cfg.Highway, prev.Highway, j.cfg.Highway},
		{"anchor", prev.Anchor == j.cfg.Anchor, prev.Anchor, j.cfg.Anchor},
		{"strategy", strategyOf(prev) == j.cfg.Strategy, strategyOf(prev), j.cfg.Strategy},
	} {
		if a.explicit(arch.name) && !arch.same {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s := %v differs from %v of %s, which resume continues",
				trainGATName, arch.name, arch.want, arch.had, m.Ref).WithHint("Leave %s out to keep the checkpoint's.", arch.name)
		}
	}
	cfg := prev
	for name, set := range map[string]func(){
		"epochs": func() { cfg.Epochs = j.cfg.Epochs }, "lr": func() { cfg.LR = j.cfg.LR },
		"momentum": func() { cfg.Momentum = j.cfg.Momentum }, "optimizer": func() { cfg.Optimizer = j.cfg.Optimizer },
		"batch_size": func() { cfg.BatchSize = j.cfg.BatchSize }, "train_fraction": func() { cfg.TrainFraction = j.cfg.TrainFraction },
		"patience": func() { cfg.Patience = j.cfg.Patience }, "workers": func() { cfg.Workers = j.cfg.Workers },
		"seed": func() { cfg.Seed = j.cfg.Seed }, "clip": func() { cfg.Clip = j.cfg.Clip },
		"validation_fraction": func() { cfg.ValidationFraction = j.cfg.ValidationFraction },
		"season":              func() { cfg.Season = j.cfg.Season },
		"horizon":             func() { cfg.Horizon = j.cfg.Horizon },
	} {
		if a.explicit(name) {
			set()
		}
	}
	if j.from.Epoch >= cfg.Epochs {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s has trained %d epochs; to resume it, epochs must be more than that, not %d",
			trainGATName, m.Ref, j.from.Epoch, cfg.Epochs)
	}
	cfg.Strategy = strategyOf(prev) // models stored before strategies are recursive
	j.cfg = cfg
	if j.name == "" {
		j.name = m.Ref.Name
	}
	if j.scaler == "" {
		j.scaler = m.Scaler
	}
	return nil
}

// checkModelKind fails if name is taken by a model of another kind.
func checkModelKind(c *call, fn, name, kind string) error {
	kinds, err := c.reg.Kinds(c.ctx(), name)
	if err != nil {
		return err
	}
	for _, other := range kinds {
		if other != kind {
			return sqlstate.New(sqlstate.DuplicateObject, "%s: model %s is of kind %s, not %s", fn, quote(name), other, kind).
				WithHint("Choose another name, or drop it with mlops.drop.")
		}
	}
	return nil
}

// minRows is the fewest time rows training needs: a window, and a training
// and a test target after it.
func minRows(window int) int { return window + 2 }
