//go:build duckdb_arrow

package functions

import (
	"context"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/mallard/mallard/mlops"
	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage/prep"
)

const predictName = "predict"

func predictFunction() tableFunction {
	return typedFunction(predictName, nil, bindPredict, nil)
}

// predictArgs are predict's arguments.
type predictArgs struct {
	modelVersion
	Source string
	K      int // 0 when not given
}

func (o *predictArgs) params() []param {
	return []param{modelArg(&o.Model), textArg(&o.Source, "source", "the table or query of the rows to predict").req(),
		versionArg(&o.Version),
		intArg(&o.K, "k", 1, 100_000, "a classifier's k most probable classes, most probable first; by default every class in order")}
}

// loadSupervised reads the classifier or regressor version ref names,
// decoded once and then kept while it is unchanged. Another kind of
// model is 42809, naming it.
func loadSupervised(c *call, fn string, ref mlops.Ref) (*classifier.Stored, string, error) {
	s, kind, _, err := loadSupervisedVersion(c, fn, ref)
	return s, kind, err
}

// supervisedKind is the kind of model name ref: classifier when it has no
// version (the registry then says it does not exist), 42809 for a kind
// other than classifier and regressor.
func supervisedKind(c *call, fn string, ref mlops.Ref) (string, error) {
	kinds, err := c.reg.Kinds(c.ctx(), ref.Name)
	if err != nil {
		return "", err
	}
	kind := classifierKind
	if len(kinds) > 0 {
		kind = kinds[0]
	}
	if kind != classifierKind && kind != regressorKind {
		return "", sqlstate.New(sqlstate.WrongObjectType, "%s: model %s is a %s; %s serves classifiers and regressors", fn, quote(ref.Name), kind, fn).
			WithHint("train_classifier or train_regressor make one; forecast serves a GAT, recommend a recommender.")
	}
	return kind, nil
}

// predicting is one call of predict: the model, its source, and which
// source columns pass through to the output.
type predicting struct {
	s     *classifier.Stored
	src   *source
	exprs []string // the passed columns
	pass  int      // how many columns pass through
	// classes are the model's classes as the prediction column's type
	// writes them.
	classes []any
	// k, when above 0, keeps the k most probable classes in
	// probabilities, most probable first; 0 keeps every class in order.
	k int
}

func bindPredict(c *call, o *predictArgs) (*table, error) {
	ref, err := o.ref(predictName)
	if err != nil {
		return nil, err
	}
	s, _, err := loadSupervised(c, predictName, ref)
	if err != nil {
		return nil, err
	}
	src, err := openSource(c.ctx(), c, predictName, o.Source)
	if err != nil {
		return nil, err
	}
	if err := src.prep().CheckFeatures(s.Columns); err != nil {
		return nil, err
	}
	p := &predicting{s: s, src: src, k: o.K}
	if p.k > 0 && s.Model.Regression {
		return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: k := %d applies to classifiers, and %s is a regressor", predictName, p.k, quote(ref.Name))
	}
	var cols []duckdb.ColumnInfo
	for i, col := range src.cols {
		expr, t, err := src.passThrough(i)
		if err != nil {
			continue // lists and BLOBs (images) are read, not passed on
		}
		p.exprs, cols = append(p.exprs, expr), append(cols, duckdb.ColumnInfo{Name: col.Name, T: t})
	}
	p.pass = len(p.exprs)
	if s.Model.Regression {
		cols = append(cols, duckdb.ColumnInfo{Name: "prediction", T: doubleType()})
	} else {
		ct := classifier.ClassType(s.Columns.TargetType)
		for _, class := range s.Model.Classes {
			p.classes = append(p.classes, ct.Value(class))
		}
		// probabilities is keyed by the class as text, whatever the
		// label's type: a MAP reaches clients as a JSON object.
		probs, _ := duckdb.NewMapInfo(varcharType(), doubleType())
		cols = append(cols, duckdb.ColumnInfo{Name: "prediction", T: classTypeInfo(ct)},
			duckdb.ColumnInfo{Name: "probability", T: doubleType()}, duckdb.ColumnInfo{Name: "probabilities", T: probs})
	}
	return &table{cols: cols, open: func(ctx context.Context) (*run, error) { return p.stream(ctx, c) }}, nil
}

// stream reads the source in Arrow batches and writes each with the
// model's predictions.
func (p *predicting) stream(ctx context.Context, c *call) (*run, error) {
	r, err := prep.ReadPredicting(ctx, engine{c}, p.src.prep(), p.exprs, p.s.Columns)
	if err != nil {
		return nil, err
	}
	return &run{
		fill: func(chunk duckdb.DataChunk) (int, error) {
			if !r.Next() {
				return 0, r.Err()
			}
			return p.write(chunk, r)
		},
		close: func() { _ = r.Close() },
	}, nil
}

// write writes the batch r read and its predictions into chunk.
func (p *predicting) write(chunk duckdb.DataChunk, r *prep.Predicting) (int, error) {
	t, err := r.Features()
	if err != nil {
		return 0, err
	}
	b := r.Batch()
	n := int(b.NumRows())
	probs, err := p.s.Model.Predict(t)
	if err != nil {
		return 0, sqlstate.New(sqlstate.InvalidParameterValue, "%s: %v", predictName, err)
	}
	w, err := newChunkWriter(chunk, p.pass+3)
	if err != nil {
		return 0, err
	}
	for col := range p.pass {
		if err := w.setColumn(col, b.Column(col), n); err != nil {
			return 0, err
		}
	}
	for r := range n {
		if err := p.setPrediction(chunk, r, probs[r]); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// setPrediction writes row r's prediction: a regressor's value, or a
// classifier's most probable class, its probability and every class's.
func (p *predicting) setPrediction(chunk duckdb.DataChunk, r int, probs []float64) error {
	if p.s.Model.Regression {
		return chunk.SetValue(p.pass, r, probs[0])
	}
	top, order := classifier.TopClasses(probs, p.k)
	var all duckdb.OrderedMap
	for _, k := range order {
		all.Set(p.s.Model.Classes[k], probs[k])
	}
	if err := chunk.SetValue(p.pass, r, p.classes[top]); err != nil {
		return err
	}
	if err := chunk.SetValue(p.pass+1, r, probs[top]); err != nil {
		return err
	}
	return chunk.SetValue(p.pass+2, r, all)
}
