//go:build duckdb_arrow

package functions

// The arguments of the functions that serve a GAT version, and of evaluate.

// forecastArgs are forecast's arguments.
type forecastArgs struct {
	modelVersion
	Steps  int
	Method string
	Entity string // "" for every entity
	Level  float64
}

func (o *forecastArgs) params() []param {
	return []param{modelArg(&o.Model),
		intArg(&o.Steps, "steps", 1, 10_000, "how many steps past the data to forecast").or(1),
		versionArg(&o.Version),
		methodArg(&o.Method, "the method that forecasts"),
		textArg(&o.Entity, "entity", "only this entity; by default every entity"),
		floatArg(&o.Level, "level", 0, 1, "the coverage of the prediction interval").open(true, true).or(0.9)}
}

// methodArg declares the method argument of the functions that forecast
// with a GAT version or a method of its ladder (see forecastMethods).
func methodArg(f *string, help string) param {
	return textArg(f, "method", help+": 'model' (the network), 'auto' (per entity, the best on validation), or a method of the ladder").or("model")
}

// anomaliesArgs are detect_anomalies' arguments.
type anomaliesArgs struct {
	modelVersion
	Method string
	Level  float64
}

func (o *anomaliesArgs) params() []param {
	return []param{modelArg(&o.Model), versionArg(&o.Version),
		methodArg(&o.Method, "the method whose one-step forecast a value is scored against"),
		floatArg(&o.Level, "level", 0, 1, "the coverage of the interval outside which a value is an anomaly").open(true, true).or(0.99)}
}

// entitiesArgs are evaluate_entities' arguments.
type entitiesArgs struct {
	modelVersion
	Horizon int
}

func (o *entitiesArgs) params() []param {
	return []param{modelArg(&o.Model), versionArg(&o.Version), horizonArg(&o.Horizon)}
}

// horizonArg declares the horizon argument of the functions that score
// forecasts of a GAT version.
func horizonArg(f *int) param {
	return intArg(f, "horizon", 1, 10_000, "score the mean over steps 1 to horizon from each origin").or(1)
}

// evaluateArgs are evaluate's arguments; horizon applies to a GAT,
// protocol to a recommender.
type evaluateArgs struct {
	given
	modelVersion
	Horizon  int
	Protocol string // "" when not given
}

func (o *evaluateArgs) params() []param {
	return []param{modelArg(&o.Model), versionArg(&o.Version), horizonArg(&o.Horizon),
		textArg(&o.Protocol, "protocol", "how a recommender is measured; by default 'ratings'").oneOf(recProtocols()...)}
}

// servingArgs are the arguments of the functions that read a stored
// version and take nothing else: the model, and the version by name.
type servingArgs struct{ modelVersion }

func (o *servingArgs) params() []param { return []param{modelArg(&o.Model), versionArg(&o.Version)} }
