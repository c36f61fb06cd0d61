//go:build duckdb_arrow

package prep

import (
	"slices"
	"strings"

	"github.com/mallard/mallard/mlops/classifier"
	"github.com/mallard/mallard/sqlstate"
	"github.com/mallard/mallard/storage"
)

// LabelledColumns are the arguments of a train_classifier or
// train_regressor call that name its source's columns.
type LabelledColumns struct {
	// Target is the argument naming the column to learn (label or
	// target), TargetCol its value.
	Target, TargetCol string
	Regression        bool
	Split             string   // "" for a seeded split
	Features          []string // as given; nil when not given
	Shape             []int    // an image's; nil when not given
}

// Resolve resolves the target, split and feature columns of src.
func (s LabelledColumns) Resolve(src *Source) (classifier.Columns, error) {
	var out classifier.Columns
	i, err := src.Column(s.Target, s.TargetCol)
	if err != nil {
		return out, err
	}
	t := src.Cols[i].Type
	out.Target = src.Cols[i].Name
	if s.Regression && !IsNumeric(t.ID) {
		return out, sqlstate.New(sqlstate.DatatypeMismatch, "%s: target := %s names column %s of type %s; a regressor's target must be numeric",
			src.Fn, Quote(s.TargetCol), out.Target, t.PGName()).WithHint("train_classifier(..., label := %s) learns classes.", Quote(s.TargetCol))
	}
	if !s.Regression && !IsNumeric(t.ID) && !isText(t.ID) && t.ID != storage.TypeBoolean {
		return out, sqlstate.New(sqlstate.DatatypeMismatch, "%s: label := %s names column %s of type %s; a label must be text, an integer or a boolean",
			src.Fn, Quote(s.TargetCol), out.Target, t.PGName()).WithHint("Cast it in the source, for example CAST(%s AS VARCHAR).", Ident(out.Target))
	}
	if !s.Regression {
		out.TargetType = LabelTypeName(t.ID)
	}
	if s.Split != "" {
		j, err := src.Column("split", s.Split)
		if err != nil {
			return out, err
		}
		out.Split = src.Cols[j].Name
	}
	if s.Features == nil {
		out.Features, out.Defaulted = s.defaultFeatures(src, out), true
	} else if out.Features, err = s.givenFeatures(src, out); err != nil {
		return out, err
	}
	return out, s.checkFeatures(src, &out)
}

// defaultFeatures are every column but the target and the split column
// that the model can read: with shape := given, the array and BLOB
// columns; otherwise the numeric, boolean and text ones.
func (s LabelledColumns) defaultFeatures(src *Source, cols classifier.Columns) []classifier.Feature {
	var out []classifier.Feature
	for _, c := range src.Cols {
		if c.Name == cols.Target || c.Name == cols.Split {
			continue
		}
		f, ok := featureOf(c)
		if ok && (f.Kind == classifier.FeatureImage) == (s.Shape != nil) {
			out = append(out, f)
		}
	}
	return out
}

// givenFeatures resolves features := [...]: each a column of a type the
// model can read, neither the target nor the split column.
func (s LabelledColumns) givenFeatures(src *Source, cols classifier.Columns) ([]classifier.Feature, error) {
	var out []classifier.Feature
	for _, name := range s.Features {
		i, err := src.Column("features", name)
		if err != nil {
			return nil, err
		}
		c := src.Cols[i]
		if c.Name == cols.Target || c.Name == cols.Split {
			return nil, sqlstate.New(sqlstate.InvalidParameterValue, "%s: features := [...] names column %s, which is the %s column",
				src.Fn, Quote(name), map[bool]string{true: s.Target, false: "split"}[c.Name == cols.Target])
		}
		f, ok := featureOf(c)
		if !ok {
			return nil, sqlstate.New(sqlstate.DatatypeMismatch, "%s: features := [...] names column %s of type %s; a feature must be numeric, boolean, text, an array of numbers or a BLOB",
				src.Fn, c.Name, c.Type.PGName()).WithHint("Cast it in the source, or leave it out of features.")
		}
		out = append(out, f)
	}
	return out, nil
}

// featureOf is how column c can be a feature, if it can.
func featureOf(c storage.Column) (classifier.Feature, bool) {
	t := c.Type
	switch {
	case IsNumeric(t.ID) || t.ID == storage.TypeBoolean:
		return classifier.Feature{Name: c.Name, Kind: classifier.FeatureNumeric}, true
	case isText(t.ID):
		return classifier.Feature{Name: c.Name, Kind: classifier.FeatureCategorical}, true
	case t.ID == storage.TypeBlob:
		return classifier.Feature{Name: c.Name, Kind: classifier.FeatureImage, Blob: true}, true
	case (t.ID == storage.TypeList || t.ID == storage.TypeArray) && t.Elem != nil && IsNumeric(t.Elem.ID):
		return classifier.Feature{Name: c.Name, Kind: classifier.FeatureImage}, true
	}
	return classifier.Feature{}, false
}

func isText(id storage.TypeID) bool { return id == storage.TypeVarchar || id == storage.TypeEnum }

// checkFeatures checks that the features make one model: some features;
// one image with shape :=, alone, or rows without one.
func (s LabelledColumns) checkFeatures(src *Source, cols *classifier.Columns) error {
	images := slices.IndexFunc(cols.Features, func(f classifier.Feature) bool { return f.Kind == classifier.FeatureImage })
	switch {
	case len(cols.Features) == 0 && s.Shape != nil:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: shape := %s is given, but the source has no array or BLOB column to read images from",
			src.Fn, classifier.ShapeText(s.Shape)).WithHint("The source has columns %s.", src.ColumnList())
	case len(cols.Features) == 0:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: the source has no feature column besides %s", src.Fn, cols.Target).
			WithHint("Features are numeric, boolean or text columns, or an image column with shape := [channels, height, width]; the source has %s.", src.ColumnList())
	case images >= 0 && s.Shape == nil:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: feature %s is an array or BLOB column, which needs shape := [channels, height, width]",
			src.Fn, cols.Features[images].Name).WithHint("For example shape := [1, 28, 28] for MNIST's 784 pixels.")
	case images >= 0 && len(cols.Features) > 1:
		return sqlstate.New(sqlstate.FeatureNotSupported, "%s: features %s: an image column must be the only feature", src.Fn, featureNames(cols.Features)).
			WithHint("Give features := [%s].", Quote(cols.Features[images].Name))
	case images < 0 && s.Shape != nil:
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: shape := %s is given, but features %s has no array or BLOB column",
			src.Fn, classifier.ShapeText(s.Shape), featureNames(cols.Features))
	}
	cols.Shape = s.Shape
	return nil
}

// CheckFeatures fails with 42703 for a feature of cols (a model's) that
// the source lacks and 42804 for one of a type the model cannot read as
// it was trained.
func (s *Source) CheckFeatures(cols classifier.Columns) error {
	for _, f := range cols.Features {
		i := slices.IndexFunc(s.Cols, func(c storage.Column) bool { return strings.EqualFold(c.Name, f.Name) })
		if i < 0 {
			return sqlstate.New(sqlstate.UndefinedColumn, "%s: the source has no column %s, a feature of the model", s.Fn, Quote(f.Name)).
				WithHint("The model reads %s; the source has %s.", featureNames(cols.Features), s.ColumnList())
		}
		got, ok := featureOf(s.Cols[i])
		if !ok || got.Kind != f.Kind {
			return sqlstate.New(sqlstate.DatatypeMismatch, "%s: column %s of the source has type %s, but the model was trained on it as a %s feature",
				s.Fn, s.Cols[i].Name, s.Cols[i].Type.PGName(), f.Kind).WithHint("Cast it in the source to the type it had in training.")
		}
	}
	return nil
}

func featureNames(fs []classifier.Feature) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = Quote(f.Name)
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// labelTypes are the label types whose classes a classifier writes out in
// that type, by the name classifier.Columns.TargetType records; every
// other label (text, a decimal, a float) has text classes.
var labelTypes = map[storage.TypeID]string{
	storage.TypeBoolean: "BOOLEAN", storage.TypeTinyInt: "TINYINT", storage.TypeSmallInt: "SMALLINT",
	storage.TypeInteger: "INTEGER", storage.TypeBigInt: "BIGINT", storage.TypeUTinyInt: "UTINYINT",
	storage.TypeUSmallInt: "USMALLINT", storage.TypeUInteger: "UINTEGER", storage.TypeUBigInt: "UBIGINT",
}

// LabelTypeName is the name classifier.Columns.TargetType records for a
// label column of type id: "" (text classes) for a type not in
// labelTypes.
func LabelTypeName(id storage.TypeID) string { return labelTypes[id] }
