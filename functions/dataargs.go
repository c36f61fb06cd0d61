//go:build duckdb_arrow

package functions

// The arguments of the data preparation functions.

// pivotArgs are pivot_entity_time's arguments.
type pivotArgs struct {
	given
	Source, Entity string
	Time           []string
	Value, Agg     string
	Missing        string
	Duplicates     string // "" when not given
	MaxEntities    int64
}

func (o *pivotArgs) params() []param {
	return []param{sourceArg(&o.Source),
		textArg(&o.Entity, "entity", "the column whose values become the output's columns").req(),
		textsArg(&o.Time, "time", "the time column or columns, one output row per distinct time").req(),
		textArg(&o.Value, "value", "the column whose values fill the cells").req(),
		textArg(&o.Agg, "agg", "how the rows of one cell combine").oneOf("sum", "avg", "min", "max", "count", "last").or("sum"),
		textArg(&o.Missing, "missing", "what an empty cell becomes: an error, NULL, 0, or the entity's last value").
			oneOf("error", "null", "zero", "ffill").or("error"),
		textArg(&o.Duplicates, "duplicates", "'error' refuses a cell of several rows; the others are agg by another name").
			oneOf("sum", "avg", "last", "error"),
		intArg(&o.MaxEntities, "max_entities", 1, 1_000_000, "the most entities, and so output columns, accepted").or(10_000)}
}

// sourceArg declares the source argument: a table's name or a query.
func sourceArg(f *string) param {
	return textArg(f, "source", "the input: a table's name or a query").pos().req()
}

// rescaleArgs are rescale's arguments.
type rescaleArgs struct {
	Source        string
	Columns, Time []string // nil when not given
	Method, Stats string
	TrainFraction float64
	SaveAs        string // "" when not given
}

func (o *rescaleArgs) params() []param {
	return []param{sourceArg(&o.Source),
		textsArg(&o.Columns, "columns", "the columns to rescale; by default every numeric column but the time columns"),
		timeArg(&o.Time),
		textArg(&o.Method, "method", "the transformation").oneOf("signed_log_zscore", "zscore", "signed_log").or("signed_log_zscore"),
		textArg(&o.Stats, "stats", "one mean and deviation for all columns, or one per column").oneOf("global", "per_column").or("global"),
		floatArg(&o.TrainFraction, "train_fraction", 0, 1, "the leading share of time steps the statistics come from").
			open(true, true).or(0.7),
		textArg(&o.SaveAs, "save_as", "save the scaler under this name, for unscale and train_gat")}
}

// timeArg declares the time argument of the functions that order rows by time.
func timeArg(f *[]string) param {
	return textsArg(f, "time", "the time columns; by default those of a date or time type and those named year, month, week, ...")
}

// unscaleArgs are unscale's arguments.
type unscaleArgs struct{ Source, Scaler string }

func (o *unscaleArgs) params() []param {
	return []param{sourceArg(&o.Source), textArg(&o.Scaler, "scaler", "the scaler rescale saved").req()}
}
